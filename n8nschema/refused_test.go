package n8nschema

import (
	"strings"
	"testing"
)

// TestNoBilledCall: n8n makes no billed call for a node whose credential
// is of a type the node does not take, or whose resource or operation its
// description (at that very version) does not define; nor for the OpenAI
// app node v1.x's message with no model or no prompt, nor for the legacy
// OpenAI node's text/complete with a chat model, which OpenAI refuses. A
// stripped credentials block, a node that takes any credential or asks
// for none, an expression or a version the table does not list are not
// judged.
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
		// The HTTP Request node takes a credential of any type; a node whose
		// authentication is "none" asks for none.
		{`{"name":"n","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.openai.com/v1/chat/completions"},"credentials":{"openAiApi":{"id":"1"}}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.httpRequest","typeVersion":2,"parameters":{"url":"https://x.io"},"credentials":{"slackApi":{"id":"1"}}}`, ""},
		// The OpenAI app node v1.x stored under the legacy node's names:
		// no modelId, no messages.values.
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"model":"gpt-3.5-turbo","messages":{"messageValues":[{"content":"Hi"}]}}}`, `it has no model`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"resource":"text","operation":"message","modelId":{"__rl":true,"mode":"list","value":""},"messages":{"values":[{"content":"Hi"}]}}}`, `it has no model`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"modelId":{"__rl":true,"mode":"list","value":"gpt-4o-mini"},"messages":{"messageValues":[{"content":"Hi"}]}}}`, `it sends no prompt`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"modelId":"gpt-4o","messages":{"values":[{"content":"="},{"role":"system","content":"  "},{}]}}}`, `it sends no prompt`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"modelId":"gpt-4o"}}`, `it sends no prompt`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"modelId":"gpt-4o","messages":{"values":[{"content":""},{"content":"={{ $json.text }}"}]}}}`, ""},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"modelId":{"__rl":true,"mode":"id","value":"={{ $json.model }}"},"messages":{"values":[{"content":"Hi"}]}}}`, ""},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"resource":"image","operation":"generate"}}`, ""},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"model":"gpt-4o"}}`, ""},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"resource":"chat","modelId":"gpt-4o","messages":{"values":[{"content":"Hi"}]}}}`, `resource "chat" is not one the node defines`},
		// The legacy node's default text/complete posts to /v1/completions,
		// which refuses a chat model, at any typeVersion.
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"gpt-4","prompt":"Hi"}}`, `refuses the chat model "gpt-4"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"model":"gpt-4o-mini","messages":{"values":[{"content":"Hi"}]}}}`, `refuses the chat model "gpt-4o-mini"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.3,"parameters":{"resource":"text","operation":"complete","model":"gpt-3.5-turbo"}}`, `"gpt-3.5-turbo"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"o3-mini"}}`, `"o3-mini"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"gpt-3.5-turbo-instruct"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"davinci-002"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"prompt":"Hi"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"={{ $json.model }}"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","model":"gpt-4o-mini"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"omni-moderation-latest"}}`, ""},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		why, refused := NoBilledCall(f.Workflows[0].Nodes[0])
		if refused != (c.why != "") || !strings.Contains(why, c.why) {
			t.Errorf("%s: refused %v (%s), want %q", c.node, refused, why, c.why)
		}
	}
}

// TestRefusedCallFails: a refusal fails the node on every item when n8n's
// code throws (a credential it does not hold, the OpenAI app node's
// routers, its v1 message with no model or prompt) or the provider's
// refusal becomes the node's error (the legacy node's completions); an
// operation a node's description lacks is not known to fail (a
// declarative node may still send a request that answers).
func TestRefusedCallFails(t *testing.T) {
	for _, c := range []struct {
		node  string
		fails bool
	}{
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"resource":"chat"}}`, true},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"text","operation":"message"}}`, true},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.5,"parameters":{"modelId":"gpt-4o"}}`, true},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"model":"gpt-4o-mini"}}`, true},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat"},"credentials":{"openAIApi":{"id":"1"}}}`, true},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"completions"}}`, false},
		{`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":2,"parameters":{"resource":"database","operation":"create"}}`, false},
		// A programmatic node asks for its credential only in the branch of
		// an operation it defines: Twitter v1 with an operation it lacks
		// asks for none, so the credential of another type does not fail it.
		{`{"name":"n","type":"n8n-nodes-base.twitter","typeVersion":1,"parameters":{"resource":"tweets","operation":"getRecent"},"credentials":{"twitterOAuth2Api":{"id":"1"}}}`, false},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		r, refused := RefusedCall(f.Workflows[0].Nodes[0])
		if !refused || r.Fails != c.fails {
			t.Errorf("%s: refused %v, fails %v (%s), want refused, fails %v", c.node, refused, r.Fails, r.Why, c.fails)
		}
	}
}
