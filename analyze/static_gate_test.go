package analyze

import (
	"encoding/json"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestStaticUses: the gates on static data a Code node's code is, and
// what it writes; what stays out (a fallback, a write before the test, a
// return before it, a try round it).
func TestStaticUses(t *testing.T) {
	for _, c := range []struct {
		name, code string
		gate       bool
		key        string
		empty      bool
		writes     int
	}{
		{"read then throw", "const sd = $getWorkflowStaticData('global');\nconst s = sd[$json.user];\nif (!s) {\n  throw new Error('none');\n}\nreturn [{json: s}];", true, "", false, 0},
		{"tested where read", "const sd = this.getWorkflowStaticData('global');\nif (!sd.lastId) return [];\nreturn [{json: {id: sd.lastId}}];", true, "lastId", true, 0},
		{"a fallback is no gate", "const sd = $getWorkflowStaticData('global');\nconst s = sd.state || {};\nif (!s) throw new Error('x');\nreturn [{json: s}];", false, "", false, 0},
		{"a return before the test", "const sd = $getWorkflowStaticData('global');\nif ($json.new) return [{json: {}}];\nconst s = sd.state;\nif (!s) throw new Error('x');\nreturn [{json: s}];", false, "", false, 0},
		{"in a try", "try {\nconst sd = $getWorkflowStaticData('global');\nconst s = sd.state;\nif (!s) throw new Error('x');\n} catch (e) {}\nreturn [{json: {}}];", false, "", false, 0},
		{"writes what it tests", "const sd = $getWorkflowStaticData('global');\nconst s = sd.state;\nif (!s) throw new Error('x');\nsd.state = null;\nreturn [{json: s}];", false, "", false, 1},
		{"writer", "const sd = $getWorkflowStaticData('global');\nsd[$json.user] = {a: 1};\nsd.count++;\ndelete sd.old;\nreturn [];", false, "", false, 2},
		{"handed on", "const sd = $getWorkflowStaticData('global');\nObject.assign(sd, {a: 1});\nreturn [];", false, "", false, 1},
	} {
		raw, _ := json.Marshal(map[string]any{"nodes": []any{map[string]any{"name": "C", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": c.code}}}, "connections": map[string]any{}})
		f := n8nschema.Parse(n8nschema.NewSource("s.json", raw))
		nd := f.Workflows[0].Nodes[0]
		gate, writes, _ := staticUses(nd)
		if (gate != nil) != c.gate || gate != nil && (gate.key != c.key || gate.empty != c.empty) || len(writes) != c.writes {
			t.Errorf("%s: gate %+v, writes %v", c.name, gate, writes)
		}
	}
}
