package analyze

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestCodeMayDrop(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"return [{ json: { text: lines.join('\\n') } }];", false},
		{"for (const item of items) { item.json.x = 1 }\nreturn items;", false},
		{"return $input.all().map(i => i);", false},
		{"const out = [];\nfor (const c of items[0].json) { if (c.p > 10) out.push({json: c}) }\nreturn out;", true},
		{"if (!changed) return [];\nreturn [{json: {changed}}];", true},
		{"const s = $getWorkflowStaticData('global');\nreturn [{json: s}];", true},
		{"const cut = (s) => { if (s.length < 9) return s; return s.slice(0, 9); };\nreturn [{ json: { t: cut($json.t) } }];", false},
		{"const m = (() => { try { return JSON.parse($json.raw) } catch (e) { return null } })();\nreturn [{ json: m || {} }];", false},
		{"function pick(a) { return a.filter(x => x.ok); }\nreturn pick(items);", true},
		{"const day = new Date().toISOString().slice(0, 10);\nreturn items.filter(i => i.json.isoDate.startsWith(day));", true},
		{"return $input.all().slice(0, $json.n);", true},
		{"return $input.all().map(i => ({ json: { t: i.json.title } }));", false},
		{"return items;", false},
	} {
		if got := codeMayDrop(c.code); got != c.want {
			t.Errorf("codeMayDrop(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}

// TestMayPassNone checks which nodes may pass on no item of those given.
func TestOneRowQuery(t *testing.T) {
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"SELECT COUNT(*) FROM users", true},
		{"select coalesce(sum(amount), 0) as total, count(*) from orders where day = current_date;", true},
		{"SELECT count(*) FROM t WHERE d > '{{ $now.minus(1, 'day').toISO() }}'", true},
		{"WITH x AS (SELECT * FROM t WHERE a > 1) SELECT count(*) FROM x", true},
		{"SELECT now()", true},
		{"SELECT (SELECT count(*) FROM a) AS a, (SELECT count(*) FROM b) AS b", true},
		{"-- daily totals\nSELECT max(created_at) /* newest */ FROM events", true},
		{"SELECT * FROM users", false},
		{"SELECT status, count(*) FROM t GROUP BY status", false},
		{"SELECT count(*) FROM t HAVING count(*) > 0", false},
		{"SELECT count(*) FROM t LIMIT 0", false},
		{"SELECT count(*) OVER () FROM t", false},
		{"SELECT id, (SELECT count(*) FROM b WHERE b.a = a.id) FROM a", false},
		{"SELECT count(*) FROM a UNION SELECT count(*) FROM b", false},
		{"SELECT count(*) FROM a; DELETE FROM a", false},
		{"SELECT 1 WHERE false", false},
		{"UPDATE t SET n = n + 1 RETURNING count", false},
		{"SELECT 'count(' FROM t", false},
		{"SELECT count(*) FROM t WHERE s = 'x", false},
		{"", false},
		{"SELECT unnest('{}'::int[])", false},
		{"SELECT count(*) FROM (t", false},
		{"SELECT count(*)) FROM t", false},
		// A WITH query whose main SELECT reads only CTEs that answer a row.
		{"WITH d AS (SELECT current_date - 1 AS day), p AS (SELECT count(*) AS n FROM pay CROSS JOIN d WHERE pay.day = d.day), " +
			"h AS (SELECT extract(hour FROM at) AS hr FROM pay GROUP BY 1 ORDER BY count(*) DESC LIMIT 1) " +
			"SELECT d.day, p.n, h.hr FROM d CROSS JOIN p LEFT JOIN h ON TRUE;", true},
		{"WITH a AS (SELECT 1 AS x), b AS (SELECT max(y) AS y FROM t) SELECT * FROM a, b ORDER BY x", true},
		{"WITH a AS (SELECT 1 AS x), b AS (SELECT * FROM a) SELECT * FROM b AS bb CROSS JOIN a AS aa", true},
		{"WITH a(x) AS MATERIALIZED (SELECT 1), b AS NOT MATERIALIZED (SELECT * FROM t) SELECT * FROM a LEFT OUTER JOIN b USING (x)", true},
		{`WITH a AS (SELECT 1 AS x) SELECT * FROM a "A"`, true},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM a CROSS JOIN users", false},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM a, public.users u", false},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM users LEFT JOIN a ON TRUE", false},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM a LEFT JOIN users u ON TRUE", false},
		{"WITH a AS (SELECT 1 AS x), b AS (SELECT count(*) FROM t) SELECT * FROM a CROSS JOIN b WHERE b.count > 0", false},
		{"WITH a AS (SELECT 1 AS x), b AS (SELECT count(*) FROM t) SELECT * FROM a JOIN b ON TRUE", false},
		{"WITH a AS (SELECT 1 AS x), b AS (SELECT count(*) FROM t) SELECT * FROM a INNER JOIN b ON a.x = b.count", false},
		{"WITH a AS (SELECT 1 AS x), b AS (SELECT * FROM t) SELECT * FROM a CROSS JOIN b", false},
		{"WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a WHERE x > 1) SELECT * FROM b", false},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM a LIMIT 0", false},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM a, LATERAL (SELECT 2) l", false},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM (SELECT 1) s CROSS JOIN a", false},
		{"WITH a AS (SELECT '{}'::int[] AS v) SELECT unnest(v) FROM a", false},
		{"WITH RECURSIVE a AS (SELECT 1 AS x) SELECT * FROM a", false},
		{"WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a", false},
		{"WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a", false},
		{`WITH "a" AS (SELECT 1) SELECT * FROM "b"`, false},
		{"WITH a AS (WITH b AS (SELECT 1) SELECT * FROM b) SELECT * FROM a", false},
		{"WITH a AS (DELETE FROM q RETURNING id) SELECT * FROM a", false},
		{"WITH a AS (SELECT 1 SELECT * FROM a", false},
		{"WITH a AS (SELECT 1)) SELECT * FROM a", false},
		{"WITH a AS (SELECT ')' AS x) SELECT * FROM a", true},
		{"WITH a AS (SELECT 1 AS x) SELECT * FROM a LEFT JOIN a b ON left(b.x::text, 1) = '1'", false},
	} {
		if got := oneRowQuery(c.q); got != c.want {
			t.Errorf("oneRowQuery(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// TestOneRowQueryLinear: hostile queries (long runs of parentheses,
// 100 k common table expressions, nested WITHs, long names, many quotes)
// are read in time linear in their length; a reader that looked ahead
// once per "(" or read a word from each of its bytes, or read a CTE's
// body once per CTE that names it, would take minutes here.
func TestOneRowQueryLinear(t *testing.T) {
	const n = 100_000
	var chain, names strings.Builder
	chain.WriteString("WITH a0 AS (SELECT 1 AS x)")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&chain, ", a%d AS (SELECT * FROM a%d)", i, i-1)
		fmt.Fprintf(&names, ", a%d", i)
	}
	for _, c := range []struct {
		name string
		q    string
		want bool
	}{
		{"CTE chain", chain.String() + " SELECT * FROM a0" + names.String(), true},
		{"CTE chain with a table", chain.String() + " SELECT * FROM a0" + names.String() + ", t", false},
		{"nested WITH", strings.Repeat("WITH a AS (", n) + "SELECT 1" + strings.Repeat(") SELECT * FROM a", n), false},
		{"open parentheses", "SELECT " + strings.Repeat("(", n) + "1", false},
		{"open parentheses in a CTE", "WITH a AS " + strings.Repeat("(", n) + "SELECT 1 SELECT * FROM a", false},
		{"closing parentheses", "WITH a AS (SELECT 1" + strings.Repeat(")", n) + " SELECT * FROM a", false},
		{"spaced parentheses", "SELECT " + strings.Repeat("( ", n) + "x" + strings.Repeat(")", n) + " FROM t", false},
		{"nested subqueries", "SELECT " + strings.Repeat("(SELECT ", n) + "1" + strings.Repeat(")", n), true},
		{"long name", "WITH a AS (SELECT 1) SELECT " + strings.Repeat("b", 10*n) + " FROM a", true},
		{"many quotes", "WITH a AS (SELECT 1) SELECT " + strings.Repeat("'x', \"y\", ", n) + "1 FROM a", true},
		{"unterminated quote", "WITH a AS (SELECT 1) SELECT " + strings.Repeat("'x', ", n) + "' FROM a", false},
		{"same name", "WITH " + strings.Repeat("a AS (SELECT 1), ", n) + "b AS (SELECT 1) SELECT * FROM a", false},
	} {
		start := time.Now()
		got := oneRowQuery(c.q)
		if got != c.want {
			t.Errorf("%s: oneRowQuery = %v, want %v", c.name, got, c.want)
		}
		// Linear: well under a second for these few megabytes, on a slow
		// machine too; quadratic: 10^10 steps and more.
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: %d bytes read in %v", c.name, len(c.q), d)
		}
	}
}

func TestMayPassNone(t *testing.T) {
	src := `{"nodes":[
	  {"name":"limit default","type":"n8n-nodes-base.limit","typeVersion":1,"parameters":{}},
	  {"name":"limit 3","type":"n8n-nodes-base.limit","typeVersion":1,"parameters":{"maxItems":3}},
	  {"name":"limit 0","type":"n8n-nodes-base.limit","typeVersion":1,"parameters":{"maxItems":0}},
	  {"name":"limit expr","type":"n8n-nodes-base.limit","typeVersion":1,"parameters":{"maxItems":"={{ $json.n }}"}},
	  {"name":"filter","type":"n8n-nodes-base.filter","typeVersion":2.2,"parameters":{}},
	  {"name":"filter always","type":"n8n-nodes-base.filter","typeVersion":2.2,"parameters":{},"alwaysOutputData":true},
	  {"name":"dedupe input","type":"n8n-nodes-base.removeDuplicates","typeVersion":2,"parameters":{}},
	  {"name":"dedupe runs","type":"n8n-nodes-base.removeDuplicates","typeVersion":2,"parameters":{"operation":"removeItemsSeenInPreviousExecutions"}},
	  {"name":"rss","type":"n8n-nodes-base.rssFeedRead","typeVersion":1.2,"parameters":{"url":"https://x.test/feed"}},
	  {"name":"sheet v1","type":"n8n-nodes-base.googleSheets","typeVersion":1,"parameters":{"range":"A:D","sheetId":"s"}},
	  {"name":"sheet whole","type":"n8n-nodes-base.googleSheets","typeVersion":4.7,"parameters":{"operation":"read","filtersUI":{"values":[]}}},
	  {"name":"sheet filtered","type":"n8n-nodes-base.googleSheets","typeVersion":4.7,"parameters":{"filtersUI":{"values":[{"lookupColumn":"d","lookupValue":"x"}]}}},
	  {"name":"sheet lookup","type":"n8n-nodes-base.googleSheets","typeVersion":2,"parameters":{"operation":"lookup","lookupColumn":"d","lookupValue":"x"}},
	  {"name":"gmail list","type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"operation":"getAll","filters":{"receivedAfter":"={{ $now.minus(1, 'day') }}"}}},
	  {"name":"airtable all","type":"n8n-nodes-base.airtable","typeVersion":2.1,"parameters":{"operation":"search","base":{"__rl":true,"value":"app1","mode":"list"},"table":{"__rl":true,"value":"tbl1","mode":"list"},"options":{}}},
	  {"name":"airtable formula","type":"n8n-nodes-base.airtable","typeVersion":2.1,"parameters":{"operation":"search","filterByFormula":"={Status}='New'","options":{}}},
	  {"name":"airtable view","type":"n8n-nodes-base.airtable","typeVersion":2.1,"parameters":{"operation":"search","options":{"view":{"__rl":true,"value":"viwDue","mode":"list"}}}},
	  {"name":"airtable v1 list","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"operation":"list","application":"app1","table":"t","additionalOptions":{}}},
	  {"name":"airtable v1 formula","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"operation":"list","additionalOptions":{"filterByFormula":"IS_AFTER({Date}, TODAY())"}}},
	  {"name":"baserow all","type":"n8n-nodes-base.baserow","typeVersion":1,"parameters":{"operation":"getAll","databaseId":1,"tableId":2,"additionalOptions":{}}},
	  {"name":"baserow filtered","type":"n8n-nodes-base.baserow","typeVersion":1,"parameters":{"operation":"getAll","additionalOptions":{"filters":{"fields":[{"field":1,"operator":"equal","value":"x"}]}}}},
	  {"name":"supabase all","type":"n8n-nodes-base.supabase","typeVersion":1,"parameters":{"operation":"getAll","tableId":"leads","returnAll":true}},
	  {"name":"supabase filtered","type":"n8n-nodes-base.supabase","typeVersion":1,"parameters":{"operation":"getAll","tableId":"leads","filters":{"conditions":[{"keyName":"status","condition":"eq","keyValue":"new"}]}}},
	  {"name":"supabase string","type":"n8n-nodes-base.supabase","typeVersion":1,"parameters":{"operation":"getAll","tableId":"leads","filterType":"string","filterString":"created_at=gte.{{ $today }}"}},
	  {"name":"notion all","type":"n8n-nodes-base.notion","typeVersion":2.2,"parameters":{"resource":"databasePage","operation":"getAll","databaseId":{"__rl":true,"value":"d1","mode":"list"},"returnAll":true}},
	  {"name":"notion filtered","type":"n8n-nodes-base.notion","typeVersion":2.2,"parameters":{"resource":"databasePage","operation":"getAll","filterType":"manual","filters":{"conditions":[{"key":"Done|checkbox","condition":"equals"}]}}},
	  {"name":"nocodb all","type":"n8n-nodes-base.nocoDb","typeVersion":3,"parameters":{"operation":"getAll","projectId":"p","table":"t","options":{}}},
	  {"name":"nocodb where","type":"n8n-nodes-base.nocoDb","typeVersion":3,"parameters":{"operation":"getAll","options":{"where":"(Status,eq,open)"}}},
	  {"name":"postgres select all","type":"n8n-nodes-base.postgres","typeVersion":2.5,"parameters":{"operation":"select","table":{"__rl":true,"value":"t","mode":"list"},"returnAll":true}},
	  {"name":"postgres select where","type":"n8n-nodes-base.postgres","typeVersion":2.5,"parameters":{"operation":"select","where":{"values":[{"column":"due","condition":"<","value":"={{ $now }}"}]}}},
	  {"name":"postgres count","type":"n8n-nodes-base.postgres","typeVersion":2.6,"parameters":{"operation":"executeQuery","query":"SELECT COUNT(*) AS n, SUM(amount) FROM orders WHERE created_at > now() - interval '1 day'"}},
	  {"name":"postgres rows","type":"n8n-nodes-base.postgres","typeVersion":2.6,"parameters":{"operation":"executeQuery","query":"SELECT * FROM orders WHERE created_at > now() - interval '1 day'"}},
	  {"name":"postgres 2.2 rows","type":"n8n-nodes-base.postgres","typeVersion":2.2,"parameters":{"operation":"executeQuery","query":"SELECT * FROM orders WHERE paid = false"}},
	  {"name":"mysql 2.1 select","type":"n8n-nodes-base.mySql","typeVersion":2.1,"parameters":{"operation":"select","where":{"values":[{"column":"x","value":"1"}]}}},
	  {"name":"mysql 2.4 grouped","type":"n8n-nodes-base.mySql","typeVersion":2.4,"parameters":{"operation":"executeQuery","query":"SELECT status, count(*) FROM orders GROUP BY status"}},
	  {"name":"postgres v1 count","type":"n8n-nodes-base.postgres","typeVersion":1,"parameters":{"operation":"executeQuery","query":"SELECT count(*) FROM t"}}
	],"connections":{}}`
	f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
	var got []string
	for _, n := range f.Workflows[0].Nodes {
		if mayPassNone(n) {
			got = append(got, n.Name)
		}
		if strings.Contains(n.Name, " all") && !listsRecords(n) {
			t.Errorf("%s: not read as a list", n.Name)
		}
	}
	want := []string{"limit 0", "limit expr", "filter", "dedupe runs", "sheet filtered", "sheet lookup", "gmail list",
		"airtable formula", "airtable view", "airtable v1 formula", "baserow filtered", "supabase filtered", "supabase string",
		"notion filtered", "nocodb where", "postgres select where", "postgres rows", "mysql 2.4 grouped", "postgres v1 count"}
	if !slices.Equal(got, want) {
		t.Errorf("mayPassNone holds for %q, want %q", got, want)
	}
}

// TestCatchBlockAsPattern checks catchBlock against the pattern it
// stands for, on random strings of the bytes the pattern reads.
func TestCatchBlockAsPattern(t *testing.T) {
	re := regexp.MustCompile(`\bcatch\s*(\(\s*\w*\s*\))?\s*\{`)
	ends := func(code string) []int {
		var out []int
		for at := catchBlock(code, 0); at >= 0; at = catchBlock(code, at) {
			out = append(out, at)
		}
		return out
	}
	pieces := []string{"catch", "catc", "h", "(", ")", "{", "}", " ", "\t", "\n", "\v", "\f", "\r", "e", "_", "1", ".", "é", "x catch", "\xff"}
	rng := rand.New(rand.NewPCG(1, 29))
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for k := rng.IntN(12); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		code := b.String()
		var want []int
		for _, m := range re.FindAllStringIndex(code, -1) {
			want = append(want, m[1])
		}
		if got := ends(code); !slices.Equal(got, want) {
			t.Fatalf("catchBlock(%q) ends %v, the pattern %v", code, got, want)
		}
	}
}

func TestCatchFlags(t *testing.T) {
	for _, c := range []struct {
		code string
		want string
	}{
		{"try { x() } catch (e) { return [{ json: { success: false, error: e.message } }] }", "success,error"},
		{"try { x() } catch { ok = false }", "ok"},
		{"const ok = false;\nreturn [{json: {ok}}]", ""},
	} {
		if got := strings.Join(CatchFlags(c.code), ","); got != c.want {
			t.Errorf("CatchFlags(%q) = %q, want %q", c.code, got, c.want)
		}
	}
}

// TestRecipientFromData: a message whose channel, chat or recipient the
// item names goes to whoever the data says; a literal, the instance's
// variables or a Set node of literals fix it.
func TestRecipientFromData(t *testing.T) {
	src := `{"nodes":[
	  {"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"channel","value":"ops","type":"string"}]}}},
	  {"name":"mm literal","type":"n8n-nodes-base.mattermost","typeVersion":1,"parameters":{"channelId":"abc123","message":"hi"}},
	  {"name":"mm from row","type":"n8n-nodes-base.mattermost","typeVersion":1,"parameters":{"channelId":"={{ $json.channel }}","message":"hi"}},
	  {"name":"mm from config","type":"n8n-nodes-base.mattermost","typeVersion":1,"parameters":{"channelId":"={{ $('Config').first().json.channel }}","message":"hi"}},
	  {"name":"mm after config","type":"n8n-nodes-base.mattermost","typeVersion":1,"parameters":{"channelId":"={{ $json.channel }}","message":"hi"}},
	  {"name":"slack rl","type":"n8n-nodes-base.slack","typeVersion":2.3,"parameters":{"select":"channel","channelId":{"__rl":true,"value":"C0123","mode":"id"},"text":"hi"}},
	  {"name":"slack rl from data","type":"n8n-nodes-base.slack","typeVersion":2.3,"parameters":{"select":"channel","channelId":{"__rl":true,"value":"={{ $json.event.channel }}","mode":"id"},"text":"hi"}},
	  {"name":"telegram env","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"chatId":"={{ $env.CHAT }}","text":"hi"}},
	  {"name":"telegram sender","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"chatId":"={{ $('Telegram Trigger').item.json.message.chat.id }}","text":"hi"}},
	  {"name":"discord webhook","type":"n8n-nodes-base.discord","typeVersion":2,"parameters":{"authentication":"webhook","content":"hi"}},
	  {"name":"http chat from data","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.telegram.org/bot1/sendMessage","sendBody":true,"bodyParameters":{"parameters":[{"name":"chat_id","value":"={{ $json.chat_id }}"},{"name":"text","value":"hi"}]}}},
	  {"name":"http chat env","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.telegram.org/bot1/sendMessage","sendBody":true,"specifyBody":"json","jsonBody":"={\"chat_id\": \"{{ $env.CHAT }}\", \"text\": \"hi\"}"}}
	],"connections":{"Config":{"main":[[{"node":"mm after config","type":"main","index":0}]]}}}`
	g := BuildGraph(parseOne(t, src))
	var got []string
	for _, n := range g.Nodes {
		if recipientFromData(g, n) {
			got = append(got, n.Name)
		}
	}
	want := []string{"mm from row", "slack rl from data", "telegram sender", "http chat from data"}
	if !slices.Equal(got, want) {
		t.Errorf("recipientFromData holds for %q, want %q", got, want)
	}
}
