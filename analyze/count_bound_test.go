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
