package analyze

import (
	"strings"
	"testing"
)

// refusedWorkflow: a schedule S runs A then Shared; a webhook W runs
// Blank (an HTTP Request v1 with no url, which n8n's checkForWorkflowIssues
// refuses) then Only, and Shared too. active sets the export's "active".
func refusedWorkflow(schedule, active bool) string {
	nodes := []string{
		`{"name": "W", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "webhookId": "x", "parameters": {"path": "x"}}`,
		`{"name": "Blank", "type": "n8n-nodes-base.httpRequest", "typeVersion": 1, "position": [0, 0], "parameters": {}}`,
		`{"name": "Only", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}`,
		`{"name": "A", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}`,
		`{"name": "Shared", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}`,
	}
	conns := []string{
		`"W": {"main": [[{"node": "Blank", "type": "main", "index": 0}, {"node": "Shared", "type": "main", "index": 0}]]}`,
		`"Blank": {"main": [[{"node": "Only", "type": "main", "index": 0}]]}`,
		`"A": {"main": [[{"node": "Shared", "type": "main", "index": 0}]]}`,
	}
	if schedule {
		nodes = append(nodes, `{"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}}`)
		conns = append(conns, `"S": {"main": [[{"node": "A", "type": "main", "index": 0}]]}`)
	}
	act := "false"
	if active {
		act = "true"
	}
	return `{"active": ` + act + `, "nodes": [` + strings.Join(nodes, ",") + `], "connections": {` + strings.Join(conns, ",") + `}}`
}

// TestRefusedRun: n8n refuses every run of W (Blank misses its url).
// With a schedule beside it in a workflow shown active, only what W
// alone reaches is refused (every false); without it every node is;
// not shown active, n8n refuses to publish, so only editor runs happen
// (publish true) whatever reaches the node.
func TestRefusedRun(t *testing.T) {
	for _, c := range []struct {
		name             string
		schedule, active bool
		refused          []string
		every, publish   bool
	}{
		{"a schedule beside it, active", true, true, []string{"W", "Blank", "Only"}, false, false},
		{"the only trigger", false, true, []string{"W", "Blank", "Only", "Shared", "A"}, true, false},
		{"not shown active: publishing refused", true, false, []string{"W", "Blank", "Only", "Shared", "A", "S"}, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := BuildGraph(parseOne(t, refusedWorkflow(c.schedule, c.active)))
			for _, n := range g.Nodes {
				node, param, publish, every, ok := g.RefusedRun(n)
				want := false
				for _, r := range c.refused {
					want = want || r == n.Name
				}
				if ok != want {
					t.Errorf("RefusedRun(%s) ok = %v, want %v", n.Name, ok, want)
					continue
				}
				if ok && (node != "Blank" || param != "url" || every != c.every || publish != c.publish) {
					t.Errorf("RefusedRun(%s) = %q, %q, publish %v, every %v; want Blank, url, %v, %v", n.Name, node, param, publish, every, c.publish, c.every)
				}
			}
		})
	}
}
