package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestRunsAtOnceCountsFewPersonTriggers: each Telegram Trigger a person
// paces adds one execution, up to maxPersonTriggers; a workflow with more
// entry points than that is the instance's to pace (and asking each of
// them who paces it would walk the runs of every one).
func TestRunsAtOnceCountsFewPersonTriggers(t *testing.T) {
	for _, k := range []int{1, 2, maxPersonTriggers, maxPersonTriggers + 1} {
		var nodes, conns []string
		for i := range k {
			nodes = append(nodes, fmt.Sprintf(`{"name": "Bot %d", "type": "n8n-nodes-base.telegramTrigger", "typeVersion": 1.1, "position": [0, %d], "parameters": {"updates": ["message"]}}`, i, 200*i))
			conns = append(conns, fmt.Sprintf(`"Bot %d": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}`, i))
		}
		nodes = append(nodes, `{"name": "Ask", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [300, 0], "parameters": {"url": "https://api.example.org/answer"}}`)
		src := `{"name": "bots", "nodes": [` + strings.Join(nodes, ",") + `], "connections": {` + strings.Join(conns, ",") + `}}`
		s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, DefaultOptions())
		runs, persons := RunsAtOnce(s, s.Workflows[0])
		want := k
		if k > maxPersonTriggers {
			want = 0
		}
		if runs != want || persons != want {
			t.Errorf("%d Telegram Triggers: RunsAtOnce = %d, %d; want %d, %d", k, runs, persons, want, want)
		}
	}
}
