package n8nschema

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestFedBody: a model request whose body is one expression reading the
// item reads the object literal the Code or Set node before it builds;
// anything that may change that literal leaves the cap to the run.
func TestFedBody(t *testing.T) {
	type want struct {
		model     string
		maxTokens int
		capped    bool
		runTime   bool
	}
	for _, c := range []struct {
		code, expr string
		want       want
	}{
		{"const body = { model: 'gpt-4o', messages: [] };\nreturn [{ json: { body } }];", "={{ JSON.stringify($json.body) }}", want{"gpt-4o", 0, false, false}},
		{"return [{ json: { body: { \"model\": \"gpt-4o\", \"max_tokens\": 700 } } }];", "={{ $json.body }}", want{"gpt-4o", 700, true, false}},
		{"return { body: { model: 'gpt-4o', max_completion_tokens: 90 } };", "={{ JSON.stringify($json[\"body\"]) }}", want{"gpt-4o", 90, true, false}},
		{"if (!$json.ok) { return []; }\nconst req = { model: 'gpt-4o', messages: [] };\nreturn [{ json: { id: 1, body: req } }];", "={{ JSON.stringify($json.body) }}", want{"gpt-4o", 0, false, false}},
		{"if (!$json.ok) { return [{ json: { skipped: true } }]; }\nreturn [{ json: { body: { model: 'gpt-4o' } } }];", "={{ JSON.stringify($json.body) }}", want{"gpt-4o", 0, false, false}},
		{"const out = { model: 'gpt-4o', messages: [] };\nreturn [{ json: out }];", "={{ JSON.stringify($json) }}", want{"gpt-4o", 0, false, false}},
		// a string or comment holding braces, a helper's own return
		{"const f = (x) => { return { model: 'other' } };\n// } {\nreturn [{ json: { body: { model: 'gpt-4o', messages: [{ content: `a } ${f(1)} {` }] } } }];", "={{ JSON.stringify($json.body) }}", want{"gpt-4o", 0, false, false}},
		// what the run decides
		{"return [{ json: { body: { model: $json.model, messages: [] } } }];", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"return [{ json: { body: { ...$json.opts, model: 'gpt-4o' } } }];", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"const body = { model: 'gpt-4o' };\nbody['max_tokens'] = 5;\nreturn [{ json: { body } }];", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"let body = { model: 'gpt-4o' };\nif (x) body = $json.other;\nreturn [{ json: { body } }];", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"return [{ json: { body: { model: 'gpt-4o', [key]: 5 } } }];", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"return [{ json: { body: { model: 'gpt-4o', max_tokens: cap } } }];", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"return [{ json: { body: { model: 'gpt-4o' } } }, { json: { body: { model: 'gpt-4o', max_tokens: 9 } } }];", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"return items;", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"return [{ json: { body: { model: 'gpt-4o' } } }].concat(more);", "={{ JSON.stringify($json.body) }}", want{"", 0, false, true}},
		{"return [{ json: { body: { model: 'gpt-4o' } } }];", "={{ JSON.stringify($json.body) + '' }}", want{"", 0, false, true}},
		// the field holds the literal as JSON text (issue 28, part CQ)
		{"return { requestBody: JSON.stringify({ model: 'deepseek-chat', temperature: 0.3, max_tokens: 400, messages }) };", "={{ $json.requestBody }}", want{"deepseek-chat", 400, true, false}},
		{"const body = { model: 'gpt-4o', messages: [] }\nreturn [{ json: { requestBody: JSON.stringify(body, null, 2) } }];", "={{ $json.requestBody }}", want{"gpt-4o", 0, false, false}},
		{"const requestBody = JSON.stringify({ model: 'gpt-4o', max_tokens: 50 })\nreturn [{ json: { requestBody } }];", "={{ $json.requestBody }}", want{"gpt-4o", 50, true, false}},
		// text made text again, a replacer, a literal changed later: not read
		{"return { requestBody: JSON.stringify({ model: 'gpt-4o' }) };", "={{ JSON.stringify($json.requestBody) }}", want{"", 0, false, true}},
		{"return { requestBody: JSON.stringify({ model: 'gpt-4o' }, keep) };", "={{ $json.requestBody }}", want{"", 0, false, true}},
		{"const body = { model: 'gpt-4o' };\nbody.max_tokens = 9;\nreturn { requestBody: JSON.stringify(body) };", "={{ $json.requestBody }}", want{"", 0, false, true}},
	} {
		src := `{"nodes":[` +
			`{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":` + strconv.Quote(c.code) + `}},` +
			`{"name":"H","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"parameters":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","sendBody":true,"specifyBody":"json","jsonBody":` + strconv.Quote(c.expr) + `}}],` +
			`"connections":{"C":{"main":[[{"node":"H","type":"main","index":0}]]}}}`
		f := Parse(NewSource("w.json", []byte(src)))
		hc, ok := HTTPModelCallOf(f.Workflows[0].Nodes[1])
		got := want{hc.Model, hc.MaxTokens, hc.Capped, hc.CapAtRunTime}
		if !ok || got != c.want {
			t.Errorf("%q\n%s: got %+v, want %+v", c.code, c.expr, got, c.want)
		}
	}
}

// TestFedBodyReadOnce: k model requests that send the body one Code node
// builds read its code once between them, not once each (k times the
// code: a large Code node before many requests grew with their product).
func TestFedBodyReadOnce(t *testing.T) {
	const k = 200
	var b strings.Builder
	b.WriteString(`{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":` +
		strconv.Quote("const body = { model: 'gpt-4o', max_tokens: 300, messages: [] };\nreturn [{ json: { body } }];") + `}}`)
	var to []string
	for i := range k {
		fmt.Fprintf(&b, `,{"name":"H%d","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"parameters":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json.body) }}"}}`, i)
		to = append(to, fmt.Sprintf(`{"node":"H%d","type":"main","index":0}`, i))
	}
	b.WriteString(`],"connections":{"C":{"main":[[` + strings.Join(to, ",") + `]]}}}`)
	w := Parse(NewSource("w.json", []byte(b.String()))).Workflows[0]
	for _, n := range w.Nodes[1:] {
		if hc, ok := HTTPModelCallOf(n); !ok || hc.Model != "gpt-4o" || hc.MaxTokens != 300 {
			t.Fatalf("%s: got %+v, %v; want gpt-4o capped at 300", n.Name, hc, ok)
		}
	}
	if w.fedReads != 1 {
		t.Errorf("%d reads of the Code node for %d requests, want 1", w.fedReads, k)
	}
}

// TestFedBodyFixtures: the fixtures' requests are read as their names say.
func TestFedBodyFixtures(t *testing.T) {
	type want struct {
		model   string
		capped  bool
		runTime bool
	}
	for file, nodes := range map[string]map[string]want{
		"../rules/testdata/RS302/http_body_a_code_node_builds_capped.json": {
			"Ask OpenAI": {"gpt-4o", true, false},
			"Ask Gemini": {"gemini-2.5-flash", true, false},
		},
		"../rules/testdata/RS302/http_body_a_code_node_may_change.json": {
			"Ask with settings":   {"", false, true},
			"Ask capped later":    {"", false, true},
			"Ask with limits":     {"", false, true},
			"Ask with a data cap": {"", false, true},
			"Ask per row":         {"", false, true},
		},
		"../rules/testdata/RS302/http_body_a_code_node_stringifies_capped.json": {
			"Vision LLM":   {"gpt-4o-mini", true, false},
			"Ask DeepSeek": {"deepseek-v4-flash", true, false},
		},
		"../rules/testdata/RS302/http_body_a_code_node_stringifies_uncapped.json": {
			"Vision LLM":   {"gpt-4o-mini", false, false},
			"Ask DeepSeek": {"deepseek-v4-flash", false, false},
			"Ask Twice":    {"", false, true},
		},
		"../rules/testdata/RS302/http_body_a_set_node_builds_uncapped.json": {
			"Ask OpenAI":        {"gpt-4o-mini", false, false},
			"Ask OpenAI capped": {"gpt-4o-mini", true, false},
		},
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		w := Parse(NewSource(file, src)).Workflows[0]
		for name, x := range nodes {
			hc, _ := HTTPModelCallOf(w.Node(name))
			if got := (want{hc.Model, hc.Capped, hc.CapAtRunTime}); got != x {
				t.Errorf("%s %q: got %+v, want %+v", file, name, got, x)
			}
		}
	}
}

// FuzzFedBody: reading any code, expression or Set value never panics.
func FuzzFedBody(f *testing.F) {
	f.Add("const body = { model: 'x', m: `a ${ {b: [1]} } c` };\nreturn [{ json: { body } }];", "body")
	f.Add("return [{json:{body:{...a, 'max_tokens': 5, generationConfig: {maxOutputTokens: '7'}}}}]", "body")
	f.Add("return {", "")
	f.Fuzz(func(t *testing.T, code, key string) {
		path := []string{key}
		if key == "" {
			path = nil
		}
		stringified(code, key)
		if lit, _, ok := codeBody(code, path); ok {
			readFedBody(lit, "")
		}
		if lit, ok := setObject(code); ok {
			readFedBody(lit, "m")
			fieldAt("", lit, path)
		}
	})
}
