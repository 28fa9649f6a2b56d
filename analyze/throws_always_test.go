package analyze

import (
	"strconv"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestEnvCall: a JavaScript Code node that calls $env itself in its
// top-level statements throws on every run; a member read, a call in a
// block, a function, a string, a comment, after a return or anywhere in a
// file with a try is not judged.
func TestEnvCall(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"const k = $env('XAI_API_KEY');\nreturn [{json: {k}}];", true},
		{"const k = $env(\"A\") || '';", true},
		{"const k = $env ( `A` );", true},
		{"const k = $env.XAI_API_KEY;", false},
		{"const k = $env['A'];", false},
		{"if (x) { const k = $env('A'); }", false},
		{"function f() { return $env('A'); }", false},
		{"const s = \"$env('A')\";", false},
		{"// $env('A')\nreturn items;", false},
		{"/* $env('A') */ return items;", false},
		{"if (!items.length) return [];\nconst k = $env('A');", false},
		{"let k; try { k = 1; } catch (e) {}\nk = $env('A');", false},
		{"const k = my$env('A');", false},
	} {
		src := `{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"jsCode":` + strconv.Quote(c.code) + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %q", c.code)
		}
		if _, got := envCall(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("envCall(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}

// TestCredentialsRead: a Function, Function Item or JavaScript Code node
// that reads $credentials in its top-level statements throws on every run;
// a mention in a comment or a string, a read in a block, after a return or
// in a file with a try, typeof, a member and a name the code declares are
// not judged, nor is Python.
func TestCredentialsRead(t *testing.T) {
	for _, c := range []struct {
		typ, code string
		want      bool
	}{
		{"function", "/*\nAsk the model.\n*/\nconst key = $credentials.openAiApi.apiKey;\nreturn items;", true},
		{"functionItem", "item.key = $credentials.apiKey;\nreturn item;", true},
		{"code", "// $credentials are not here\nconst h = { Authorization: `Bearer ${$credentials.apiKey}` };", false}, // a template literal is not read inside: missed, never guessed
		{"code", "const key = $credentials['openAiApi'].apiKey;\nreturn [{json: {}}];", true},
		{"function", "// read $credentials.openAiApi here\nreturn items;", false},
		{"function", "const s = '$credentials.apiKey';\nreturn items;", false},
		{"function", "if (items.length) { const k = $credentials.apiKey; }\nreturn items;", false},
		{"function", "if (!items.length) return [];\nconst k = $credentials.apiKey;", false},
		{"function", "let k; try { k = $credentials.apiKey; } catch (e) {}\nreturn items;", false},
		{"function", "const ok = typeof $credentials !== 'undefined';\nreturn items;", false},
		{"function", "const $credentials = { apiKey: 'x' };\nconst k = $credentials.apiKey;", false},
		{"function", "const k = this.$credentials;\nreturn items;", false},
		{"function", "const k = my$credentials.apiKey;\nreturn items;", false},
	} {
		param := "functionCode"
		if c.typ == "code" {
			param = "jsCode"
		}
		src := `{"nodes":[{"name":"C","type":"n8n-nodes-base.` + c.typ + `","typeVersion":1,"parameters":{"` + param + `":` + strconv.Quote(c.code) + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %q", c.code)
		}
		if _, got := credentialsRead(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("credentialsRead(%s, %q) = %v, want %v", c.typ, c.code, got, c.want)
		}
	}
	py := `{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"language":"python","pythonCode":"k = $credentials"}}],"connections":{}}`
	if _, got := credentialsRead(n8nschema.Parse(n8nschema.NewSource("t.json", []byte(py))).Workflows[0].Nodes[0]); got {
		t.Errorf("credentialsRead judged Python code")
	}
}

// TestMergeNoFields: a Merge v3 that combines by matching fields with the
// simple field list empty throws; named fields, the advanced list, another
// mode or combineBy, and Merge v2 are not judged.
func TestMergeNoFields(t *testing.T) {
	for _, c := range []struct {
		params  string
		version float64
		want    bool
	}{
		{`{"mode":"combine","options":{}}`, 3, true},
		{`{"mode":"combine","combineBy":"combineByFields","fieldsToMatchString":""}`, 3.2, true},
		{`{"mode":"combine","advanced":false}`, 3.1, true},
		{`{"mode":"combine","fieldsToMatchString":"id"}`, 3, false},
		{`{"mode":"combine","advanced":true}`, 3, false},
		{`{"mode":"combine","combineBy":"combineByPosition"}`, 3, false},
		{`{"mode":"append"}`, 3, false},
		{`{}`, 3, false},
		{`{"mode":"combine"}`, 2.1, false},
		{`{"mode":"={{ 'combine' }}"}`, 3, false},
	} {
		src := `{"nodes":[{"name":"M","type":"n8n-nodes-base.merge","typeVersion":` + strconv.FormatFloat(c.version, 'f', -1, 64) + `,"parameters":` + c.params + `}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %s", c.params)
		}
		if _, got := mergeNoFields(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("mergeNoFields(%s v%v) = %v, want %v", c.params, c.version, got, c.want)
		}
	}
}

// TestNewItemsOnly: a Code node whose every return writes out new items,
// with no spread, copy or mention of the field, cannot hand the field on.
func TestNewItemsOnly(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"const t = 'a...';\nreturn [{ json: { title: t } }];", true},
		{"if (!x) return [{json: {ok: false}}];\nreturn [{json:{ok: true}}];", true},
		{"return [{ json: { ...$json, title: 1 } }];", false},
		{"return [{ json: Object.assign({}, $json) }];", false},
		{"return [{ json: item.json }];", false},
		{"return $input.all();", false},
		{"return items.map(i => ({json: {a: 1}}));", false},
		{"return [{ json: { chatInput: 'hi' } }];", false},
		{"const a = 1;", false},
	} {
		src := `{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"jsCode":` + strconv.Quote(c.code) + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %q", c.code)
		}
		if got, _ := codeItems(f.Workflows[0].Nodes[0], "chatInput"); got != c.want {
			t.Errorf("codeItems(%q) leaf = %v, want %v", c.code, got, c.want)
		}
	}
}

// TestErrorItemRead: a Code node fed only by an HTTP Request that fails on
// every item (a shut-down model) and continues throws when a top-level
// statement reads past a field the error item lacks or parses it; a
// guard, a try, a field the error item has, or a feeder that may answer is
// not judged.
func TestErrorItemRead(t *testing.T) {
	for _, c := range []struct {
		code  string
		model string
		want  bool
	}{
		{"const o = JSON.parse($json.candidates[0].content.parts[0].text);\nreturn $json;", "gemini-1.5-pro", true},
		{"const t = $input.first().json.choices[0].message;\nreturn [{json: {t}}];", "gemini-1.5-pro", true},
		{"return {json: {o: JSON.parse($json.text)}};", "gemini-1.5-pro", false}, // after a return
		{"const o = JSON.parse($json.text);\nreturn {json: o};", "gemini-1.5-pro", true},
		{"const t = $json.candidates?.[0]?.content;\nreturn {json: {t}};", "gemini-1.5-pro", false},
		{"let o; try { o = JSON.parse($json.candidates[0].text); } catch (e) {}\nreturn {json: {o}};", "gemini-1.5-pro", false},
		{"if ($json.error) { return {json: {}}; }\nconst t = $json.candidates[0];", "gemini-1.5-pro", false},
		{"const m = $json.error.message;\nreturn {json: {m}};", "gemini-1.5-pro", false},
		{"const s = \"$json.candidates[0]\";\nreturn {json: {s}};", "gemini-1.5-pro", false},
		{"const o = JSON.parse($json.candidates[0].content.parts[0].text);\nreturn $json;", "gemini-2.5-pro", false},
	} {
		src := `{"nodes":[{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"parameters":{}},` +
			`{"name":"G","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"onError":"continueRegularOutput","parameters":{"method":"POST","url":"https://generativelanguage.googleapis.com/v1beta/models/` + c.model + `:generateContent","sendQuery":true,"queryParameters":{"parameters":[{"name":"key","value":"k"}]}}},` +
			`{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"mode":"runOnceForEachItem","jsCode":` + strconv.Quote(c.code) + `}}],` +
			`"connections":{"T":{"main":[[{"node":"G","type":"main","index":0}]]},"G":{"main":[[{"node":"C","type":"main","index":0}]]}}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		g := BuildGraph(f.Workflows[0])
		if _, got := g.errorItemRead(2); got != c.want {
			t.Errorf("errorItemRead(%q, %s) = %v, want %v", c.code, c.model, got, c.want)
		}
	}
}

// TestPythonIndentation: a block header followed by a line indented no
// deeper cannot compile; a body on the header's line, a deeper line, a
// colon inside brackets or a string, or mixed tabs and spaces is not
// judged.
func TestPythonIndentation(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"for p in _items:\n if not p:\n continue\nreturn _items", true},
		{"def f(x):\nreturn x", true},
		{"for p in _items:\n if not p:\n  continue\nreturn _items", false},
		{"for p in _items:\n if not p: continue\nreturn _items", false},
		{"d = {\n'a':\n1}\nreturn [d]", false},
		{"s = \"\"\"if x:\nno\"\"\"\nreturn []", false},
		{"if x:\n\t y = 1\n y = 2", false},
		{"# if x:\nreturn []", false},
	} {
		src := `{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"language":"pythonNative","pythonCode":` + strconv.Quote(c.code) + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if _, got := pythonIndentation(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("pythonIndentation(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}
