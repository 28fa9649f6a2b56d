package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestErrorGate: an If on {{ $json.error }} never passes behind a send
// whose failures do not reach its regular output, and does behind one that
// continues to it, or behind an HTTP Request, whose answer may hold error.
func TestErrorGate(t *testing.T) {
	const (
		telegram = `{"name":"Send","type":"n8n-nodes-base.telegram","typeVersion":1.2,"position":[200,0],"parameters":{"chatId":"-100123","text":"hi","additionalFields":{}}`
		http     = `{"name":"Send","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,0],"parameters":{"url":"https://api.example.com/x","options":{}}`
		gate     = `{"name":"Has Error?","type":"n8n-nodes-base.if","typeVersion":2.2,"position":[400,0],"parameters":{"conditions":{"options":{"caseSensitive":true,"leftValue":"","typeValidation":"strict","version":2},` +
			`"conditions":[{"id":"c","leftValue":"={{ $json.error }}","rightValue":"","operator":{"type":"string","operation":"notEmpty","singleValue":true}}],"combinator":"and"},"options":{}}}`
		after = `{"name":"Cleanup","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[600,0],"parameters":{}}`
	)
	cases := []struct {
		name, send, onError string
		dead                bool
	}{
		{"send, error output", telegram, "continueErrorOutput", true},
		{"send, no continue", telegram, "", true},
		{"send, regular output", telegram, "continueRegularOutput", false},
		{"HTTP Request, error output", http, "continueErrorOutput", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			send := c.send + `}`
			if c.onError != "" {
				send = c.send + `,"onError":"` + c.onError + `"}`
			}
			src := `{"name":"W","nodes":[{"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{}},` + send + `,` + gate + `,` + after + `],"connections":{` +
				`"Start":{"main":[[{"node":"Send","type":"main","index":0}]]},"Send":{"main":[[{"node":"Has Error?","type":"main","index":0}]]},` +
				`"Has Error?":{"main":[[{"node":"Cleanup","type":"main","index":0}],[]]}}}`
			s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, DefaultOptions())
			g := s.Graph(s.Workflows[0])
			var dead, found bool
			for _, e := range g.Out(g.Node("Has Error?")) {
				if e.To.Name == "Cleanup" {
					dead, found = g.dead(e), true
				}
			}
			if !found || dead != c.dead {
				t.Errorf("edge to Cleanup dead = %v (found %v), want %v", dead, found, c.dead)
			}
		})
	}
}
