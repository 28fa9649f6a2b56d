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

// TestNamerPaceCountsPersonTriggers: an error workflow follows the failed
// runs of its namer, whose Telegram Trigger adds one run at once beside
// its schedule's, as RunsAtOnce counts it for the namer itself.
func TestNamerPaceCountsPersonTriggers(t *testing.T) {
	ask := `{"name": "Ask", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [300, 0], "parameters": {"url": "https://api.example.org/answer"}}`
	namer := `{"id": "n", "name": "namer", "settings": {"errorWorkflow": "e"}, "nodes": [` + ask + `,
	  {"name": "Tick", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {"rule": {"interval": [{"field": "hours", "hoursInterval": 1}]}}},
	  {"name": "Bot", "type": "n8n-nodes-base.telegramTrigger", "typeVersion": 1.1, "position": [0, 200], "parameters": {"updates": ["message"]}}],
	  "connections": {"Tick": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}, "Bot": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}}}`
	errs := `{"id": "e", "name": "errors", "nodes": [` + ask + `,
	  {"name": "Failed", "type": "n8n-nodes-base.errorTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
	  "connections": {"Failed": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}}}`
	var files []*n8nschema.File
	for i, src := range []string{namer, errs} {
		files = append(files, n8nschema.Parse(n8nschema.NewSource(fmt.Sprintf("w%d.json", i), []byte(src))))
	}
	s := Build(files, DefaultOptions())
	if runs, persons := RunsAtOnce(s, s.Workflows[0]); runs != 2 || persons != 1 {
		t.Errorf("namer: RunsAtOnce = %d, %d; want 2, 1", runs, persons)
	}
	if runs, _ := RunsAtOnce(s, s.Workflows[1]); runs != 2 {
		t.Errorf("error workflow: RunsAtOnce = %d; want 2, its namer's", runs)
	}
}
