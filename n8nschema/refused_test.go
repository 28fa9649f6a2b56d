package n8nschema

import (
	"strings"
	"testing"
)

// TestNoBilledCall: n8n makes no billed call for a node whose credential
// is of a type the node does not take, or whose resource or operation its
// description (at that very version) does not define; a stripped
// credentials block, an expression or a version the table does not list
// are not judged.
func TestNoBilledCall(t *testing.T) {
	for _, c := range []struct {
		node string
		why  string // "" when n8n makes the call
	}{
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","operation":"create"}}`, `operation "create" is not one the node defines for "chat"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","parameters":{"resource":"chat","operation":"create"}}`, `operation "create"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"completions"}}`, `resource "completions" is not one the node defines`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat"},"credentials":{"openAIApi":{"id":"1"}}}`, `credential "openAIApi" is not of a type the node takes ("openAiApi")`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{},"credentials":{"openAIApi":{"id":"1"}}}`, `credential "openAIApi"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat"},"credentials":{"openAiApi":{"id":"1"}}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat"},"credentials":{}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"operation":"edit"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","operation":"={{ $json.op }}"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"resource":"completions"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.someCommunityNode","typeVersion":1,"parameters":{"resource":"x"}}`, ""},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		why, refused := NoBilledCall(f.Workflows[0].Nodes[0])
		if refused != (c.why != "") || !strings.Contains(why, c.why) {
			t.Errorf("%s: refused %v (%s), want %q", c.node, refused, why, c.why)
		}
	}
}
