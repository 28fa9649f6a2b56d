package analyze

import (
	"encoding/json"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestBlockedRequire(t *testing.T) {
	for _, c := range []struct {
		typ, param, code string
		module           string
		ok               bool
	}{
		{"n8n-nodes-base.code", "jsCode", "const c = require('crypto');\nreturn [];", "crypto", true},
		{"n8n-nodes-base.function", "functionCode", "const p = require(\"xml2js\").parseString;\nreturn items;", "xml2js", true},
		{"n8n-nodes-base.code", "jsCode", "const m = require(name);\nreturn [];", "", true},
		{"n8n-nodes-base.code", "jsCode", "try { require('crypto') } catch (e) {}\nreturn [];", "", false},
		{"n8n-nodes-base.code", "jsCode", "// require('crypto')\nconst s = \"require('fs')\";\nreturn [];", "", false},
		{"n8n-nodes-base.code", "jsCode", "function f() { return require('crypto'); }\nreturn [];", "", false},
		{"n8n-nodes-base.code", "jsCode", "if ($json.x) { require('crypto'); }\nreturn [];", "", false},
		{"n8n-nodes-base.code", "jsCode", "const require = (m) => ({});\nrequire('crypto');\nreturn [];", "", false},
		{"n8n-nodes-base.code", "jsCode", "const x = lib.require('crypto');\nreturn [];", "", false},
	} {
		code, _ := json.Marshal(c.code)
		src := `{"nodes":[{"name":"C","type":"` + c.typ + `","typeVersion":2,"parameters":{"` + c.param + `":` + string(code) + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("x.json", []byte(src)))
		m, ok := BlockedRequire(f.Workflows[0].Nodes[0])
		if m != c.module || ok != c.ok {
			t.Errorf("%q: got %q %v, want %q %v", c.code, m, ok, c.module, c.ok)
		}
	}
	if !IsNodeBuiltin("crypto") || !IsNodeBuiltin("node:fs") || IsNodeBuiltin("xml2js") {
		t.Error("crypto and node:fs are built in, xml2js is not")
	}
}
func TestDeclaresRequire(t *testing.T) {
	for code, want := range map[string]bool{
		"const require = x": true, "let require=1": true, "var  require;": true, "function require(m) {}": true,
		"require = () => 1": true, "if (require == null)": false, "const x = require('a')": false,
		"x.require = 1": false, "myrequire = 2": false, "required = 3": false, "\nvar require\n= f": true,
		"constrequire = 1": false, "// required\nconst a = 1": false, "function\trequire(){}": true,
	} {
		if got := declaresRequire(code); got != want {
			t.Errorf("%q: %v, want %v", code, got, want)
		}
	}
}

// TestEnvReadNoExprs: EnvRead and the reads by name failing judges
// (namedRefRefusal) skip a node whose parameters hold no expression
// (Node.NoExprs); a read in an expression, escaped or nested, is still
// found, and text that only looks like one (a literal "=text", braces
// without "=") holds none.
func TestEnvReadNoExprs(t *testing.T) {
	for _, c := range []struct {
		params   string
		env, ref bool
	}{
		{`{"url": "={{ $env.URL }}", "b": "={{ $('Missing').item.json.x }}"}`, true, true},
		{`{"sendHeaders": true, "headerParameters": {"parameters": [{"name": "a", "value": "\u003d{{ $env.URL + $('Missing').first().json.a }}"}]}}`, true, true},
		{`{"url": "=\u007b\u007b $env.URL }}", "b": "=\u007b\u007b $node[\"Missing\"].json.x }}"}`, true, true},
		{`{"url": "=text $env.URL", "b": "=$('Missing').item.json.x"}`, false, false},
		{`{"url": "{{ $env.URL }}", "b": "{{ $('Missing').item.json.x }}"}`, false, false},
	} {
		src := `{"nodes":[{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"parameters":{}},
{"name":"H","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":` + c.params + `}],
"connections":{"T":{"main":[[{"node":"H","type":"main","index":0}]]}}}`
		f := n8nschema.Parse(n8nschema.NewSource("x.json", []byte(src)))
		w := f.Workflows[0]
		g := BuildGraph(w)
		h := w.Node("H")
		if h.NoExprs() == c.env {
			t.Errorf("%s: NoExprs %v", c.params, h.NoExprs())
		}
		if _, _, ok := g.EnvRead(h); ok != c.env {
			t.Errorf("%s: EnvRead %v, want %v", c.params, ok, c.env)
		}
		i, _ := g.index(h)
		if _, ok, _ := namedRefRefusal(g, i, &g.ran); ok != c.ref {
			t.Errorf("%s: namedRefRefusal %v, want %v", c.params, ok, c.ref)
		}
	}
}
