package analyze

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

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
	  {"name":"gmail list","type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"operation":"getAll","filters":{"receivedAfter":"={{ $now.minus(1, 'day') }}"}}}
	],"connections":{}}`
	f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
	var got []string
	for _, n := range f.Workflows[0].Nodes {
		if mayPassNone(n) {
			got = append(got, n.Name)
		}
	}
	want := []string{"limit 0", "limit expr", "filter", "dedupe runs", "sheet filtered", "sheet lookup", "gmail list"}
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
