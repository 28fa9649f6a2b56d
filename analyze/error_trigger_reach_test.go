package analyze

import (
	"fmt"
	"strings"
	"testing"
)

// TestDisabledErrorTriggerStartsNothing: a disabled Error Trigger starts
// no run, so no node is reached from one (FromErrorTrigger). reachability
// once walked errStarts[:k] with k counting disabled Error Triggers too:
// past the enabled ones it read an error output's target, or the
// scratch's stale values, which marked a node no run reaches or indexed
// past the graph and panicked. A graph built before, in the same scratch,
// leaves those values.
func TestDisabledErrorTriggerStartsNothing(t *testing.T) {
	var nodes, conns []string
	nodes = append(nodes, `{"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}}`)
	conns = append(conns, `"S": {"main": [[{"node": "N1", "type": "main", "index": 0}]]}`)
	for i := 1; i <= 60; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"name": "N%d", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}`, i))
		if i < 60 {
			conns = append(conns, fmt.Sprintf(`"N%d": {"main": [[{"node": "N%d", "type": "main", "index": 0}]]}`, i, i+1))
		}
	}
	long := `{"nodes": [` + strings.Join(nodes, ",") + `], "connections": {` + strings.Join(conns, ",") + `}}`
	for _, c := range []struct{ name, w string }{
		{"no error output", `{"nodes": [
		 {"name": "A", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
		 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
		 {"name": "E", "type": "n8n-nodes-base.errorTrigger", "typeVersion": 1, "disabled": true, "position": [0, 0], "parameters": {}},
		 {"name": "B", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
		 "connections": {"S": {"main": [[{"node": "B", "type": "main", "index": 0}]]}}}`},
		{"an error output", `{"nodes": [
		 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
		 {"name": "E", "type": "n8n-nodes-base.errorTrigger", "typeVersion": 1, "disabled": true, "position": [0, 0], "parameters": {}},
		 {"name": "H", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "onError": "continueErrorOutput", "position": [0, 0], "parameters": {"url": "https://example.com"}},
		 {"name": "Ok", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
		 {"name": "Failed", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
		 "connections": {"S": {"main": [[{"node": "H", "type": "main", "index": 0}]]},
		  "H": {"main": [[{"node": "Ok", "type": "main", "index": 0}], [{"node": "Failed", "type": "main", "index": 0}]]}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			for range 5 {
				BuildGraph(parseOne(t, long))
				g := BuildGraph(parseOne(t, c.w))
				for _, n := range g.Nodes {
					if g.FromErrorTrigger(n) {
						t.Fatalf("%s: reached from the disabled Error Trigger", n.Name)
					}
				}
			}
		})
	}
}
