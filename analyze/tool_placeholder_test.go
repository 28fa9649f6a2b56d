package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestUnusedPlaceholder: a placeholder definition that no part of the
// request names makes n8n refuse to build the tool.
func TestUnusedPlaceholder(t *testing.T) {
	tool := func(extra string) string {
		return `{"name":"t","type":"@n8n/n8n-nodes-langchain.toolHttpRequest","typeVersion":1.1,"parameters":{"method":"POST","url":"https://shop.example.org/v2/orders/{orderId}"` + extra + `}}`
	}
	defs := func(names ...string) string {
		s := `,"placeholderDefinitions":{"values":[`
		for i, n := range names {
			if i > 0 {
				s += ","
			}
			s += `{"name":"` + n + `"}`
		}
		return s + `]}`
	}
	for _, c := range []struct {
		name, node string
		want       bool
	}{
		{"used in the URL", tool(defs("orderId")), false},
		{"braced definition", tool(defs("{orderId}")), false},
		{"unused", tool(defs("orderId", "apiKey")), true},
		{"used in a JSON body", tool(`,"sendBody":true,"specifyBody":"json","jsonBody":"{\"key\": \"{apiKey}\"}"` + defs("orderId", "apiKey")), false},
		{"JSON body not sent", tool(`,"specifyBody":"json","jsonBody":"{\"key\": \"{apiKey}\"}"` + defs("orderId", "apiKey")), true},
		{"a header the model fills", tool(`,"sendHeaders":true,"parametersHeaders":{"values":[{"name":"apiKey"}]}` + defs("orderId", "apiKey")), false},
		{"a header with a fixed value", tool(`,"sendHeaders":true,"parametersHeaders":{"values":[{"name":"apiKey","valueProvider":"fieldValue","value":"abc"}]}` + defs("orderId", "apiKey")), true},
		{"no definitions", tool(""), false},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("%s: bad test node", c.name)
		}
		if _, got := UnusedPlaceholder(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: UnusedPlaceholder = %v, want %v", c.name, got, c.want)
		}
	}
}
