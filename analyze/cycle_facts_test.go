package analyze

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// longCycle is one cycle of k If nodes, each testing its own numeric field
// left_i, alternating with k Code nodes; when step is set, the last Code
// node computes left_{k-1} - 1, a counter that bounds the cycle.
func longCycle(t *testing.T, k int, step bool) *Set {
	t.Helper()
	var nodes []any
	conns := map[string]any{}
	link := func(from, to string) {
		conns[from] = map[string]any{"main": [][]map[string]any{{{"node": to, "type": "main", "index": 0}}}}
	}
	for i := range k {
		field := fmt.Sprintf("left_%d", i)
		nodes = append(nodes, map[string]any{"id": fmt.Sprintf("if%d", i), "name": fmt.Sprintf("If %d", i), "type": "n8n-nodes-base.if",
			"typeVersion": 2, "position": []int{i * 400, 0}, "parameters": map[string]any{"conditions": map[string]any{"conditions": []any{
				map[string]any{"leftValue": "={{ $json." + field + " }}", "rightValue": 0, "operator": map[string]any{"type": "number", "operation": "gt"}}}}}})
		code := fmt.Sprintf("return items.map(i => ({json: {...i.json, seen_%d: true}}));", i)
		if step && i == k-1 {
			code = fmt.Sprintf("return items.map(i => ({json: {...i.json, %s: i.json.%s - 1}}));", field, field)
		}
		nodes = append(nodes, map[string]any{"id": fmt.Sprintf("code%d", i), "name": fmt.Sprintf("Code %d", i), "type": "n8n-nodes-base.code",
			"typeVersion": 2, "position": []int{i*400 + 200, 0}, "parameters": map[string]any{"jsCode": code}})
		link(fmt.Sprintf("If %d", i), fmt.Sprintf("Code %d", i))
		link(fmt.Sprintf("Code %d", i), fmt.Sprintf("If %d", (i+1)%k))
	}
	src, err := json.Marshal(map[string]any{"name": "Cycle", "nodes": nodes, "connections": conns})
	if err != nil {
		t.Fatal(err)
	}
	return Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("cycle.json", src))}, DefaultOptions())
}

// TestCycleFactsReadOnce: on one cycle of many guards and Code nodes, each
// Code node is read once for the whole cycle, not once per guard and
// field, and a counter stepped by any node of the cycle still bounds it.
func TestCycleFactsReadOnce(t *testing.T) {
	const k = 200
	for _, step := range []bool{false, true} {
		s := longCycle(t, k, step)
		g := s.Graph(s.Workflows[0])
		if g.factScans != k {
			t.Errorf("step=%v: %d node reads for %d guards, want each of the %d Code nodes read once", step, g.factScans, k, k)
		}
		if got, want := len(g.Loops), 1; step {
			if got != 0 {
				t.Errorf("the counter left_%d stepped by Code %d bounds the cycle, but %d loops remain", k-1, k-1, got)
			}
		} else if got != want {
			t.Errorf("no counter is stepped: %d unbounded loops, want %d", got, want)
		}
	}
}
