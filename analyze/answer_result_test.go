package analyze

import (
	"strings"
	"testing"
)

// TestAnswersWithResult: a webhook answers with a result when the item it
// answers with (a Respond to Webhook node's incoming item or the items its
// body reads, or the last node's) comes from an agent, a model call or a
// read, through nodes that shape items; a write's acknowledgement, the
// request itself, a constant or no body at all is no result.
func TestAnswersWithResult(t *testing.T) {
	const (
		agent  = `{"name": "Agent", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 1.7, "position": [200, 0], "parameters": {"promptType": "define", "text": "={{ $json.body.q }}"}}`
		model  = `{"name": "Model", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1, "position": [200, 200], "parameters": {"model": "gpt-4o-mini"}}`
		mail   = `{"name": "Mail", "type": "n8n-nodes-base.gmail", "typeVersion": 2.1, "position": [400, 0], "parameters": {"sendTo": "={{ $('Hook').item.json.body.to }}", "subject": "s", "message": "={{ $json.output }}"}}`
		lookup = `{"name": "Lookup", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "position": [200, 0], "parameters": {"operation": "read", "documentId": {"__rl": true, "mode": "id", "value": "d"}, "sheetName": {"__rl": true, "mode": "id", "value": "gid=0"}}}`
	)
	hook := func(mode string) string {
		return `{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p", "responseMode": "` + mode + `"}}`
	}
	respond := func(params string) string {
		return `{"name": "Answer", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.1, "position": [600, 0], "parameters": ` + params + `}`
	}
	set := func(value string) string {
		return `{"name": "Shape", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [400, 0], "parameters": {"assignments": {"assignments": [{"id": "a", "name": "reply", "value": "` + value + `", "type": "string"}]}}}`
	}
	link := func(pairs ...string) string {
		var out []string
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, `"`+pairs[i]+`": {"main": [[{"node": "`+pairs[i+1]+`", "type": "main", "index": 0}]]}`)
		}
		return strings.Join(out, ", ")
	}
	withModel := `, "Model": {"ai_languageModel": [[{"node": "Agent", "type": "ai_languageModel", "index": 0}]]}`
	for _, tc := range []struct {
		name  string
		nodes []string
		conns string
		want  bool
	}{
		{"the agent's answer, the default respondWith", []string{hook("responseNode"), agent, model, respond(`{}`)},
			link("Hook", "Agent", "Agent", "Answer") + withModel, true},
		{"the agent's answer named in a JSON body", []string{hook("responseNode"), agent, model, mail, respond(`{"respondWith": "json", "responseBody": "={\"reply\": \"{{ $('Agent').item.json.output }}\"}"}`)},
			link("Hook", "Agent", "Agent", "Mail", "Mail", "Answer") + withModel, true},
		{"a record read, through a Set that reads it", []string{hook("responseNode"), lookup, set("={{ $json.name }}"), respond(`{}`)},
			link("Hook", "Lookup", "Lookup", "Shape", "Shape", "Answer"), true},
		{"the last node is the agent", []string{hook("lastNode"), agent, model},
			link("Hook", "Agent") + withModel, true},
		{"the mail's acknowledgement", []string{hook("responseNode"), agent, model, mail, respond(`{}`)},
			link("Hook", "Agent", "Agent", "Mail", "Mail", "Answer") + withModel, false},
		{"the last node is the mail", []string{hook("lastNode"), agent, model, mail},
			link("Hook", "Agent", "Agent", "Mail") + withModel, false},
		{"a constant after the agent", []string{hook("responseNode"), agent, model, set("received"), respond(`{}`)},
			link("Hook", "Agent", "Agent", "Shape", "Shape", "Answer") + withModel, false},
		{"a constant JSON body", []string{hook("responseNode"), agent, model, respond(`{"respondWith": "json", "responseBody": "{\"ok\": true}"}`)},
			link("Hook", "Agent", "Agent", "Answer") + withModel, false},
		{"no body", []string{hook("responseNode"), agent, model, respond(`{"respondWith": "noData"}`)},
			link("Hook", "Agent", "Agent", "Answer") + withModel, false},
		{"the request echoed", []string{hook("responseNode"), agent, model, respond(`{"respondWith": "json", "responseBody": "={\"id\": \"{{ $('Hook').item.json.body.id }}\"}"}`)},
			link("Hook", "Agent", "Agent", "Answer") + withModel, false},
		{"last node's answer turned off", []string{strings.Replace(hook("lastNode"), `"responseMode"`, `"responseData": "noData", "responseMode"`, 1), agent, model},
			link("Hook", "Agent") + withModel, false},
		{"answered on receipt", []string{hook("onReceived"), agent, model, respond(`{}`)},
			link("Hook", "Agent", "Agent", "Answer") + withModel, false},
	} {
		s := buildJSON(t, `{"nodes": [`+strings.Join(tc.nodes, ", ")+`], "connections": {`+tc.conns+`}}`)
		w := s.Workflows[0]
		g := s.Graph(w)
		if got := AnswersWithResult(s, w, w.Nodes[0], ReachFrom(g, w.Nodes[0])); got != tc.want {
			t.Errorf("%s: AnswersWithResult = %v; want %v", tc.name, got, tc.want)
		}
	}
}
