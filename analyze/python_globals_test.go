package analyze

import (
	"strconv"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestPythonGlobals: on n8n 2 a Python Code node v2 runs on the native
// runner, which defines only _items (all items) or _item (each item)
// (Code.node.js L183–205, PythonCodeDescription.js L16).
func TestPythonGlobals(t *testing.T) {
	v2, v1 := n8nschema.Version{Major: 2, Minor: 41, Patch: 1}, n8nschema.Version{Major: 1, Minor: 123}
	for _, c := range []struct {
		name, lang, mode, code string
		version                float64
		on                     n8nschema.Version
		want                   bool
	}{
		{"_input at the top", "python", "", "out = []\nfor item in _input.all():\n    out.append(item)\nreturn out", 2, v2, true},
		{"native too", "pythonNative", "", "return [{'json': _input.first().json}]", 2, v2, true},
		{"_json", "python", "runOnceForEachItem", "x = _json['a']\nreturn _item", 2, v2, true},
		{"_ of a node", "python", "", "data = _(\"Webhook\").first().json\nreturn [data]", 2, v2, true},
		{"_item in all-items mode", "python", "", "v = _item['json']\nreturn [v]", 2, v2, true},
		{"_items in each-item mode", "python", "runOnceForEachItem", "n = _items[0]\nreturn _item", 2, v2, true},
		{"_items in all-items mode", "python", "", "return _items", 2, v2, false},
		{"on n8n 1", "python", "", "return _input.all()", 2, v1, false},
		{"JavaScript", "javaScript", "", "return _input.all()", 2, v2, false},
		{"Code v1", "python", "", "return _input.all()", 1, v2, false},
		{"in a comment", "python", "", "# was: _input.all()\nreturn _items", 2, v2, false},
		{"in a string", "python", "", "s = \"use _input.all()\"\nreturn _items", 2, v2, false},
		{"in a docstring", "python", "", "\"\"\"\n_input.all()\n\"\"\"\nreturn _items", 2, v2, false},
		{"bound first", "python", "", "_input = make()\nreturn _input.all()", 2, v2, false},
		{"_ as a throwaway", "python", "", "for _ in range(3):\n    pass\nx = _(\"a\")", 2, v2, false},
		{"inside a branch", "python", "", "if _items:\n    x = _input.all()\nreturn _items", 2, v2, false},
		{"inside a def", "python", "", "def f():\n    return _input.all()\nreturn _items", 2, v2, false},
		{"after a return", "python", "", "if not _items:\n    return []\nx = _input.all()", 2, v2, false},
		{"after a def that returns", "python", "", "def f(x):\n    return x\nx = _input.all()", 2, v2, true},
		{"an attribute", "python", "", "x = self._input.all()\nreturn _items", 2, v2, false},
		{"a longer name", "python", "", "my_input = 1\nx = _input_data.get()\nreturn _items", 2, v2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := parseOne(t, `{"nodes": [{"name": "C", "type": "n8n-nodes-base.code", "typeVersion": `+strconv.FormatFloat(c.version, 'f', -1, 64)+`, "position": [0, 0],
			  "parameters": {"language": "`+c.lang+`", "mode": "`+c.mode+`", "pythonCode": `+strconv.Quote(c.code)+`}}], "connections": {}}`)
			_, got := pythonGlobals(w.Nodes[0], c.on)
			if got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
