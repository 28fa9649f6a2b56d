package n8nschema

import "testing"

// TestMissingRequired pins which empty parameters n8n finds missing
// whatever the node's other values (node-helpers.js getParameterIssues).
func TestMissingRequired(t *testing.T) {
	for _, c := range []struct {
		node, want string
	}{
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"options": {}}}`, "url"},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"url": ""}}`, "url"},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"url": "={{ $json.u }}"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"url": "="}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "disabled": true, "parameters": {}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.25, "parameters": {}}`, ""}, // no such version
		{`{"name": "A", "type": "n8n-nodes-base.formTrigger", "typeVersion": 2.2, "parameters": {"formTitle": "Sign up"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.formTrigger", "typeVersion": 2.2, "parameters": {"formTitle": ""}}`, "formTitle"},
	} {
		f := Parse(NewSource("w.json", []byte(`{"nodes": [`+c.node+`], "connections": {}}`)))
		got, _ := MissingRequired(f.Workflows[0].Nodes[0])
		if got != c.want {
			t.Errorf("%s: MissingRequired = %q, want %q", c.node, got, c.want)
		}
	}
}
