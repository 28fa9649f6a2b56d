package analyze

import (
	"encoding/json"
	"fmt"
	"strings"
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

// TestStaticGatesBound: gates behind themselves are shut up to
// maxStaticGates; past it every gate stays open, so the fixpoint's work
// stays bounded on a hostile file. A code that declares the static data
// more than four times writes anything.
func TestStaticGatesBound(t *testing.T) {
	build := func(n int) (*Graph, []*n8nschema.Node) {
		nodes := []any{map[string]any{"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": []int{0, 0}, "parameters": map[string]any{}}}
		conns := map[string]any{}
		var outs []any
		for i := 0; i < n; i++ {
			g, w := fmt.Sprintf("G%d", i), fmt.Sprintf("W%d", i)
			nodes = append(nodes,
				map[string]any{"name": g, "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": fmt.Sprintf("const sd = $getWorkflowStaticData('global');\nif (!sd.k%d) throw new Error('x');\nreturn $input.all();", i)}},
				map[string]any{"name": w, "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": fmt.Sprintf("const sd = $getWorkflowStaticData('global');\nsd.k%d = 1;\nreturn $input.all();", i)}})
			outs = append(outs, map[string]any{"node": g, "type": "main", "index": 0})
			conns[g] = map[string]any{"main": []any{[]any{map[string]any{"node": w, "type": "main", "index": 0}}}}
		}
		conns["T"] = map[string]any{"main": []any{outs}}
		raw, _ := json.Marshal(map[string]any{"nodes": nodes, "connections": conns})
		w := n8nschema.Parse(n8nschema.NewSource("s.json", raw)).Workflows[0]
		return BuildGraph(w), w.Nodes
	}
	for _, c := range []struct {
		n    int
		shut bool
	}{{2, true}, {maxStaticGates, true}, {maxStaticGates + 1, false}} {
		g, nodes := build(c.n)
		g.failing()
		for _, nd := range nodes[1:] {
			i, _ := g.index(nd)
			gate := nd.Name[0] == 'G'
			if got := g.empty != nil && g.empty[i]; got != (gate && c.shut) {
				t.Errorf("%d gates: %s marked %v", c.n, nd.Name, got)
			}
		}
	}
	code := strings.Repeat("const a = $getWorkflowStaticData('global');\n", 5) + "if (!a.k) throw new Error('x');\nreturn [];"
	raw, _ := json.Marshal(map[string]any{"nodes": []any{map[string]any{"name": "C", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": code}}}, "connections": map[string]any{}})
	if gate, writes, _ := staticUses(n8nschema.Parse(n8nschema.NewSource("s.json", raw)).Workflows[0].Nodes[0]); gate != nil || len(writes) != 2 {
		t.Errorf("five declarations: gate %+v, writes %v", gate, writes)
	}
}
