package analyze

import (
	"encoding/json"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestMappedAndPushedList(t *testing.T) {
	for _, c := range []struct {
		code, want string
		pushed     bool
	}{
		{"return $input.all().map(i => ({ json: i.json }));", "$input.all()", false},
		{"const emails = $input.all();\nreturn emails.map((item) => ({ json: item.json })); // done", "$input.all()", false},
		{"return items.map(i => i);", "items", false},
		{"return $('Limit').all().map(i => i);", "$('Limit').all()", false},
		// Not read: a list that grows, a let, a second return, more after the map.
		{"const emails = $input.all();\nemails.push({json: {}});\nreturn emails.map(i => i);", "", false},
		{"let emails = $input.all();\nreturn emails.map(i => i);", "", false},
		{"if (x) return [];\nreturn $input.all().map(i => i);", "", false},
		{"return $input.all().map(i => i).concat([{json: {}}]);", "", false},
		{"return $input.all().flatMap(i => [i, i]);", "", false},
		// One push per element of a top-level forEach.
		{"const src = $('Limit').all();\nlet out = [];\nsrc.forEach((e, i) => {\n  // it's one\n  out.push({ json: e.json, pairedItem: { item: i } });\n});\nreturn out;", "$('Limit').all()", true},
		// Not read: a push in a block, two pushes, two arguments, a spread, the array named elsewhere.
		{"let out = [];\n$input.all().forEach(e => {\n  if (e.json.x) { out.push(e); }\n});\nreturn out;", "", true},
		{"let out = [];\n$input.all().forEach(e => {\n  out.push(e);\n  out.push(e);\n});\nreturn out;", "", true},
		{"let out = [];\n$input.all().forEach(e => {\n  out.push(e, e);\n});\nreturn out;", "", true},
		{"let out = [];\n$input.all().forEach(e => {\n  out.push(...e.json.list);\n});\nreturn out;", "", true},
		{"let out = [];\n$input.all().forEach(e => {\n  out.push(e);\n});\nconst more = out;\nreturn out;", "", true},
		{"let out = [];\n$input.all().forEach(e => {\n  e.json.list.forEach(x => {\n    out.push(x);\n  });\n});\nreturn out;", "", true},
		{"let out = [];\n$input.all().forEach(e => {\n  for (const x of e.json.list) out.push(x);\n});\nreturn out;", "", true},
		{"let out = [];\n$input.all().forEach(e => {\n  if (e.json.a) {\n    return;\n  } else out.push(e);\n});\nreturn out;", "", true},
		{"let out = [];\n$input.all().forEach(e => {\n  const x = 1;\n  /* one */ out.push(e);\n});\nreturn out;", "$input.all()", true},
		{"let out = [];\nfor (const a of b) {\n  $input.all().forEach(e => {\n    out.push(e);\n  });\n}\nreturn out;", "", true},
	} {
		read := mappedList
		if c.pushed {
			read = pushedList
		}
		got, ok := read(c.code)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("%q: got %q %v, want %q", c.code, got, ok, c.want)
		}
	}
}

func TestIsOwnCount(t *testing.T) {
	code := "const emails = $input.all();\nconst n = emails.length;\nconst other = $('X').all();\nconst m = other.length;"
	for val, want := range map[string]bool{
		"n": true, "emails.length": true, "$input.all().length": true, "items.length": true,
		"m": false, "other.length": false, "x": false,
	} {
		if got := isOwnCount(code, val); got != want {
			t.Errorf("isOwnCount(%q) = %v, want %v", val, got, want)
		}
	}
}

func TestCountFields(t *testing.T) {
	for code, want := range map[string]string{
		"const emails = $input.all();\nconst nb = emails.length;\nreturn emails.map(i => ({ json: { ...i.json, nb_emails: nb } }));": "nb_emails",
		"return $input.all().map(i => ({ json: { total: $input.all().length, id: i.json.id } }));":                                   "total",
		// A spread after the key may set it again; a key written twice; another node's count.
		"const nb = $input.all().length;\nreturn $input.all().map(i => ({ json: { nb_emails: nb, ...i.json } }));":                   "",
		"const nb = $input.all().length;\nconst x = { nb_emails: 0 };\nreturn $input.all().map(i => ({ json: { nb_emails: nb } }));": "",
		"const nb = $input.all().length;\nreturn $input.all().map(i => i.json.a ? { json: { nb_emails: nb } } : i);":                 "",
		"const nb = $input.all().length;\nconst o = { nb_emails: nb };\nreturn $input.all().map(i => i);":                            "",
		"const nb = $input.all().length;\nreturn $input.all().map(i => ({ json: { meta: { nb_emails: nb } } }));":                    "",
		"const nb = $input.all().length;\nreturn $input.all().map(i => ({ myjson: { nb_emails: nb } }));":                            "",
		"const nb = $('X').all().length;\nreturn $input.all().map(i => ({ json: { nb_emails: nb } }));":                              "",
		// The json: object the callback returns: its expression body, or
		// the object its one return gives; not one it builds and drops.
		"return $input.all().map(i => { return { json: { nb: $input.all().length } }; });":                                                 "nb",
		"return $input.all().map(function (i) { return { json: { nb: items.length } }; });":                                                "nb",
		"return $input.all().map(i => ({ pairedItem: 0, json: { nb: items.length } }));":                                                   "nb",
		"return $input.all().map(i => { const log = { json: { nb: $input.all().length } }; console.log(log); return { json: i.json }; });": "",
		"return $input.all().map(i => { const o = { json: { nb: items.length } }; return o; });":                                           "",
		"return $input.all().map(i => [{ json: { nb: items.length } }][0]);":                                                               "",
	} {
		nd := codeNode(t, code)
		got := ""
		if fs := countFields(nd); len(fs) == 1 {
			got = fs[0]
		}
		if got != want {
			t.Errorf("%q: got %q, want %q", code, got, want)
		}
	}
}

// codeNode is a Code node in runOnceForAllItems mode running code.
func codeNode(t *testing.T, code string) *n8nschema.Node {
	t.Helper()
	js, _ := json.Marshal(code)
	src := `{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":` + string(js) + `}}],"connections":{}}`
	f := n8nschema.Parse(n8nschema.NewSource("c.json", []byte(src)))
	if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
		t.Fatalf("parse: %v", f.Problems)
	}
	return f.Workflows[0].Nodes[0]
}

// TestBoundWords: how a cap is said, from Limit.node.js (maxItems default
// 1, keep firstItems or lastItems) and Execute Once.
func TestBoundWords(t *testing.T) {
	limit := func(params string) *n8nschema.Node {
		t.Helper()
		src := `{"nodes":[{"name":"L","type":"n8n-nodes-base.limit","typeVersion":1,"position":[0,0],"parameters":` + params + `}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("l.json", []byte(src)))
		if len(f.Workflows) != 1 {
			t.Fatalf("parse: %v", f.Problems)
		}
		return f.Workflows[0].Nodes[0]
	}
	for _, c := range []struct {
		why  boundWhy
		b    float64
		want string
	}{
		{boundWhy{limit(`{}`), byLimit}, 1, `Limit "L" keeps the first item (Max Items at its default, 1)`},
		{boundWhy{limit(`{"maxItems":5,"keep":"lastItems"}`), byLimit}, 5, `Limit "L" keeps the last 5 items (Max Items 5)`},
		{boundWhy{limit(`{"maxItems":1,"keep":"={{ $json.k }}"}`), byLimit}, 1, `Limit "L" keeps 1 item (Max Items 1)`},
		{boundWhy{limit(`{"maxItems":3,"keep":"firstItems"}`), byLimit}, 3, `Limit "L" keeps the first 3 items (Max Items 3)`},
		{boundWhy{limit(`{}`), byOnce}, 1, `node "L" runs once, on its first item (Execute Once)`},
	} {
		if got := boundWords(c.why, c.b); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// TestCountGateNamesTheCap: with two parents, the cap named is the one of
// the list that may hold the most items.
func TestCountGateNamesTheCap(t *testing.T) {
	src := `{"nodes":[
{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
{"name":"L1","type":"n8n-nodes-base.limit","typeVersion":1,"position":[0,0],"parameters":{"maxItems":2}},
{"name":"L2","type":"n8n-nodes-base.limit","typeVersion":1,"position":[0,0],"parameters":{"maxItems":4}},
{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":"return $input.all().map(i => ({ json: { n: $input.all().length } }));"}},
{"name":"If","type":"n8n-nodes-base.if","typeVersion":2,"position":[0,0],"parameters":{"conditions":{"options":{"version":1,"caseSensitive":true,"typeValidation":"strict"},"conditions":[{"leftValue":"={{ $json.n }}","rightValue":9,"operator":{"type":"number","operation":"gt"}}],"combinator":"and"}}}],
"connections":{"T":{"main":[[{"node":"L1","type":"main","index":0},{"node":"L2","type":"main","index":0}]]},
"L1":{"main":[[{"node":"C","type":"main","index":0}]]},"L2":{"main":[[{"node":"C","type":"main","index":0}]]},
"C":{"main":[[{"node":"If","type":"main","index":0}]]}}}`
	f := n8nschema.Parse(n8nschema.NewSource("g.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parse: %v", f.Problems)
	}
	w := f.Workflows[0]
	taken, cc, ok := newCountBounds(w).countGate(w.Node("If"))
	if !ok || taken != 1 || cc.Field != "n" || cc.Bound != 4 || cc.By.Name != "L2" || cc.Code.Name != "C" {
		t.Fatalf("got %d %+v %v", taken, cc, ok)
	}
}

// TestLimitFraction: a Limit keeps floor(maxItems) items when it keeps the
// first ones (items.slice(0, maxItems)) and ceil(maxItems) when it keeps
// the last ones (items.slice(items.length - maxItems, items.length), the
// start truncated toward 0), or when keep is an expression (either may
// run); the words quote Max Items as the file writes it.
func TestLimitFraction(t *testing.T) {
	for _, c := range []struct {
		keep  string
		want  float64
		words string
	}{
		{``, 2, `Limit "L" keeps the first 2 items (Max Items 2.5)`},
		{`,"keep":"firstItems"`, 2, `Limit "L" keeps the first 2 items (Max Items 2.5)`},
		{`,"keep":"lastItems"`, 3, `Limit "L" keeps the last 3 items (Max Items 2.5)`},
		{`,"keep":"={{ $json.k }}"`, 3, `Limit "L" keeps 3 items (Max Items 2.5)`},
	} {
		src := `{"nodes":[
{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
{"name":"L","type":"n8n-nodes-base.limit","typeVersion":1,"position":[0,0],"parameters":{"maxItems":2.5` + c.keep + `}}],
"connections":{"T":{"main":[[{"node":"L","type":"main","index":0}]]}}}`
		f := n8nschema.Parse(n8nschema.NewSource("l.json", []byte(src)))
		if len(f.Workflows) != 1 {
			t.Fatalf("parse: %v", f.Problems)
		}
		w := f.Workflows[0]
		b, why := newCountBounds(w).outBoundWhy(w.Node("L"))
		if b != c.want || why.node == nil {
			t.Errorf("keep %s: bound %v, want %v", c.keep, b, c.want)
			continue
		}
		if got := boundWords(why, b); got != c.words {
			t.Errorf("keep %s: %q, want %q", c.keep, got, c.words)
		}
	}
}
