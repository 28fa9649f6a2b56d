package analyze

import (
	"strings"
	"testing"
)

// pollLoop is a scheduled poll: Start → Call → Ready? whose false output
// goes back to Call through Extra (when given) and a Wait.
func pollLoop(call, extra string) string {
	nodes := `{"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{"rule":{"interval":[{"triggerAtHour":6}]}}},
	  ` + call + `,
	  {"name":"Ready?","type":"n8n-nodes-base.if","typeVersion":2.2,"parameters":{"conditions":{"options":{"caseSensitive":true,"typeValidation":"strict"},"conditions":[{"leftValue":"={{ $json.status }}","rightValue":"done","operator":{"type":"string","operation":"equals"}}],"combinator":"and"},"options":{}}},
	  {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1.1,"parameters":{"amount":5},"webhookId":"w1"}`
	back := `"Ready?":{"main":[[],[{"node":"Wait","type":"main","index":0}]]}`
	if extra != "" {
		nodes += ",\n" + extra
		back = `"Ready?":{"main":[[],[{"node":"Extra","type":"main","index":0}]]},
	  "Extra":{"main":[[{"node":"Wait","type":"main","index":0}]]}`
	}
	return `{"name":"w","nodes":[` + nodes + `],
	 "connections":{"Start":{"main":[[{"node":"Call","type":"main","index":0}]]},
	  "Call":{"main":[[{"node":"Ready?","type":"main","index":0}]]},
	  ` + back + `,
	  "Wait":{"main":[[{"node":"Call","type":"main","index":0}]]}},
	 "settings":{"executionOrder":"v1"}}`
}

// TestLoopPassCosts checks what one trip round a loop with no guard costs:
// a paid model call, a message or a write that leaves a second effect is
// a cost; a read and a write of one state are not.
func TestLoopPassCosts(t *testing.T) {
	get := `{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.example.org/jobs/1"}}`
	model := func(m string) string {
		return `{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","sendBody":true,"specifyBody":"json","jsonBody":"={\"model\": \"` + m + `\", \"max_tokens\": 300, \"messages\": []}","authentication":"predefinedCredentialType","nodeCredentialType":"openAiApi"},"credentials":{"openAiApi":{"id":"1","name":"OpenAI"}}}`
	}
	chain := `{"name":"Call","type":"@n8n/n8n-nodes-langchain.chainLlm","typeVersion":1.5,"parameters":{}},
	  {"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1,"parameters":{"model":"gpt-4o-mini","options":{}},"credentials":{"openAiApi":{"id":"1","name":"OpenAI"}}}`
	tell := `{"name":"Extra","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"chatId":"={{ $json.chat_id }}","text":"still working"},"credentials":{"telegramApi":{"id":"2","name":"bot"}}}`
	insert := `{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.airtable.com/v0/appA/tblB","sendBody":true,"specifyBody":"json","jsonBody":"={\"records\": {{ $json.records.toJsonString() }} }"}}`
	patch := `{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"PATCH","url":"https://api.airtable.com/v0/appA/tblB/rec1","sendBody":true,"specifyBody":"json","jsonBody":"={\"fields\": {\"status\": \"seen\"} }"}}`
	for _, tc := range []struct {
		name, js, want, node string
	}{
		{"free GET", pollLoop(get, ""), "", ""},
		{"model over HTTP", pollLoop(model("gpt-4o-mini"), ""), "spend", "Call"},
		{"chain's model", strings.Replace(pollLoop(chain, ""), `"Start":{`, `"Model":{"ai_languageModel":[[{"node":"Call","type":"ai_languageModel","index":0}]]},"Start":{`, 1), "spend", "Model"},
		{"message to the item's chat", pollLoop(get, tell), "message", "Extra"},
		{"records inserted", pollLoop(insert, ""), "write", "Call"},
		{"one record patched", pollLoop(patch, ""), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := buildJSON(t, tc.js)
			w := s.Workflows[0]
			g := s.Graph(w)
			if len(g.Loops) != 1 || !g.Loops[0].Unbounded {
				t.Fatalf("want one unbounded loop, got %d", len(g.Loops))
			}
			c := s.LoopPassCosts(w)[g.Loops[0]]
			node := ""
			if c.Node != nil {
				node = c.Node.Name
			}
			if c.Kind != tc.want || node != tc.node {
				t.Errorf("LoopPassCosts = %q at %q, want %q at %q", c.Kind, node, tc.want, tc.node)
			}
		})
	}
}
