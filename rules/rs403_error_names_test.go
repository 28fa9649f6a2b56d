package rules

import (
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestErrorReadByListedName: a Code node that reads $(m.node).….error
// over a list of node names reads the error of each node the list names,
// and of no other.
func TestErrorReadByListedName(t *testing.T) {
	const src = `{"name":"w","nodes":[
{"name":"Model 1","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.openai.com/v1/chat/completions"}},
{"name":"Model 2","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.openai.com/v1/chat/completions"}},
{"name":"Pick","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"jsCode":%q}}],"connections":{}}`
	for _, c := range []struct {
		code string
		want map[string]bool
	}{
		{"const MODELS = [{node: \"Model 1\"}, {node: 'Model 2'}];\nfor (const m of MODELS) { const r = $(m.node).first().json; if (!r.error) return [{json: r}] }", map[string]bool{"Model 1": true, "Model 2": true}},
		{"const MODELS = [{node: \"Model 1\"}];\nfor (const m of MODELS) { const r = $(m.node).first().json; if (!r.error) return [{json: r}] }", map[string]bool{"Model 1": true}},
		{"const names = ['Model 1', 'Model 2'];\nreturn names.map(n => ({json: {n}}));", map[string]bool{}},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(fmt.Sprintf(src, c.code))))
		set := analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions())
		got := errorsReadByName(set.Graph(set.Workflows[0]))
		if len(got) != len(c.want) {
			t.Errorf("%q: read %v, want %v", c.code, got, c.want)
			continue
		}
		for k := range c.want {
			if !got[k] {
				t.Errorf("%q: read %v, want %v", c.code, got, c.want)
			}
		}
	}
}
