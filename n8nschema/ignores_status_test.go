package n8nschema

import "testing"

// TestIgnoresStatus: Never Error (v3+) and Ignore Response Code (v1, v2)
// hand a status on, an expression may; AnswersStatusAsItem needs a literal
// Never Error with Full Response, whose item carries no "error" field.
func TestIgnoresStatus(t *testing.T) {
	for _, c := range []struct {
		typ, version, params string
		ignores, item        bool
	}{
		{"httpRequest", "4.2", `{"options":{"response":{"response":{"neverError":true,"fullResponse":true}}}}`, true, true},
		{"httpRequest", "3", `{"options":{"response":{"response":{"neverError":true,"fullResponse":true,"responseFormat":"text","outputPropertyName":"error"}}}}`, true, false},
		{"httpRequest", "4.2", `{"options":{"response":{"response":{"neverError":true}}}}`, true, false},
		{"httpRequest", "4.2", `{"options":{"response":{"response":{"neverError":"={{ $json.soft }}","fullResponse":true}}}}`, true, false},
		{"httpRequest", "4.2", `{"options":{"response":{"response":{"neverError":false,"fullResponse":true}}}}`, false, false},
		{"httpRequest", "4.2", `{"options":{"ignoreResponseCode":true}}`, false, false},
		{"httpRequest", "2", `{"options":{"ignoreResponseCode":true}}`, true, false},
		{"httpRequest", "1", `{"options":{"response":{"response":{"neverError":true,"fullResponse":true}}}}`, false, false},
		{"httpRequestTool", "4.2", `{"options":{"response":{"response":{"neverError":true,"fullResponse":true}}}}`, true, true},
		{"slack", "2.2", `{"options":{"response":{"response":{"neverError":true,"fullResponse":true}}}}`, false, false},
	} {
		node := `{"name":"n","type":"n8n-nodes-base.` + c.typ + `","typeVersion":` + c.version + `,"parameters":` + c.params + `}`
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`)))
		n := f.Workflows[0].Nodes[0]
		if got := IgnoresStatus(n); got != c.ignores {
			t.Errorf("IgnoresStatus(%s v%s %s) = %v, want %v", c.typ, c.version, c.params, got, c.ignores)
		}
		if got := AnswersStatusAsItem(n); got != c.item {
			t.Errorf("AnswersStatusAsItem(%s v%s %s) = %v, want %v", c.typ, c.version, c.params, got, c.item)
		}
	}
}
