package analyze

import (
	"fmt"
	"testing"
)

// switchRule is a v3 rule testing $json.command against a word; id
// differs per copy, as the editor makes it.
func switchRule(id, word string) string {
	return fmt.Sprintf(`{"conditions": {"options": {"caseSensitive": true, "typeValidation": "strict", "version": 2},
	  "conditions": [{"id": %q, "leftValue": "={{ $json.command }}", "rightValue": %q, "operator": {"type": "string", "operation": "equals"}}],
	  "combinator": "and"}}`, id, word)
}

// TestShadowedSwitchRule: Switch v3 sends an item to its first matching
// rule only unless options.allMatchingOutputs (SwitchV3.node.js
// L316–322, L418–422), so a rule that repeats an earlier one never fires.
func TestShadowedSwitchRule(t *testing.T) {
	for _, c := range []struct {
		name    string
		version float64
		rules   string
		options string
		second  bool
	}{
		{"a repeat", 3.2, switchRule("a", "LIST") + "," + switchRule("b", "LIST"), `{}`, false},
		{"different words", 3.2, switchRule("a", "LIST") + "," + switchRule("b", "CREATE"), `{}`, true},
		{"all matching outputs", 3.2, switchRule("a", "LIST") + "," + switchRule("b", "LIST"), `{"allMatchingOutputs": true}`, true},
		{"all matching outputs from an expression", 3.2, switchRule("a", "LIST") + "," + switchRule("b", "LIST"), `{"allMatchingOutputs": "={{ true }}"}`, true},
		{"all matching outputs off", 3, switchRule("a", "LIST") + "," + switchRule("b", "LIST"), `{"allMatchingOutputs": false}`, false},
		{"the fallback is the repeat's output", 3.2, switchRule("a", "LIST") + "," + switchRule("b", "LIST"), `{"fallbackOutput": 1}`, true},
		{"the fallback is another output", 3.2, switchRule("a", "LIST") + "," + switchRule("b", "LIST"), `{"fallbackOutput": 0}`, false},
		{"an extra fallback", 3.2, switchRule("a", "LIST") + "," + switchRule("b", "LIST"), `{"fallbackOutput": "extra"}`, false},
		{"the fallback from an expression", 3.2, switchRule("a", "LIST") + "," + switchRule("b", "LIST"), `{"fallbackOutput": "={{ 1 }}"}`, true},
		{"a random test", 3.2, `{"conditions": {"conditions": [{"leftValue": "={{ Math.random() }}", "rightValue": 0.5, "operator": {"type": "number", "operation": "gt"}}]}},` +
			`{"conditions": {"conditions": [{"leftValue": "={{ Math.random() }}", "rightValue": 0.5, "operator": {"type": "number", "operation": "gt"}}]}}`, `{}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := fmt.Sprintf(`{"nodes": [
			 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
			 {"name": "G", "type": "n8n-nodes-base.switch", "typeVersion": %v, "position": [0, 0], "parameters": {"rules": {"values": [%s]}, "options": %s}},
			 {"name": "First", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
			 {"name": "Second", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
			 "connections": {
			  "S": {"main": [[{"node": "G", "type": "main", "index": 0}]]},
			  "G": {"main": [[{"node": "First", "type": "main", "index": 0}], [{"node": "Second", "type": "main", "index": 0}]]}}}`, c.version, c.rules, c.options)
			g := BuildGraph(parseOne(t, w))
			if !g.Reachable(g.Node("First")) {
				t.Error("First: unreachable")
			}
			if got := g.Reachable(g.Node("Second")); got != c.second {
				t.Errorf("Second: reachable %v, want %v", got, c.second)
			}
		})
	}
}
