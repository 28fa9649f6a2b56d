package analyze

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// sharedModelWorkflow is one chat model driven by k Basic LLM Chains one
// after the other (in a row) or all off the trigger (side by side).
func sharedModelWorkflow(t *testing.T, k int, inRow bool) *Set {
	t.Helper()
	nodes := []map[string]any{
		{"parameters": map[string]any{}, "name": "T", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": []int{0, 0}},
		{"parameters": map[string]any{"model": "gpt-4o-mini", "options": map[string]any{}}, "name": "M", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1, "position": []int{0, 0}},
	}
	conns := map[string]any{}
	var models []map[string]any
	prev := "T"
	var fromTrigger []map[string]any
	for i := range k {
		name := fmt.Sprintf("C%d", i)
		nodes = append(nodes, map[string]any{"parameters": map[string]any{"promptType": "define", "text": "={{ $json.x }}"}, "name": name,
			"type": "@n8n/n8n-nodes-langchain.chainLlm", "typeVersion": 1.5, "position": []int{0, 0}})
		edge := map[string]any{"node": name, "type": "main", "index": 0}
		if inRow {
			conns[prev] = map[string]any{"main": [][]map[string]any{{edge}}}
			prev = name
		} else {
			fromTrigger = append(fromTrigger, edge)
		}
		models = append(models, map[string]any{"node": name, "type": "ai_languageModel", "index": 0})
	}
	if !inRow {
		conns["T"] = map[string]any{"main": [][]map[string]any{fromTrigger}}
	}
	conns["M"] = map[string]any{"ai_languageModel": [][]map[string]any{models}}
	src, err := json.Marshal(map[string]any{"name": "W", "nodes": nodes, "connections": conns})
	if err != nil {
		t.Fatal(err)
	}
	return Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", src))}, DefaultOptions())
}

// TestSharedModelManyRoots: a model that k chains drive, one after the
// other, gets k calls per item whatever k, past the roots whose sets are
// tried one by one (maxSharedRoots) and past 63, where a set of roots no
// longer fits a bit mask; every root is named.
func TestSharedModelManyRoots(t *testing.T) {
	for _, k := range []int{2, maxSharedRoots, maxSharedRoots + 1, 64, 200} {
		for _, inRow := range []bool{true, false} {
			o := op(t, sharedModelWorkflow(t, k, inRow), "W", "M")
			if o.CallsPerItem != k || o.CallsUnbounded || len(o.SharedBy) != k {
				t.Errorf("%d chains (in a row %v): calls %d unbounded %v roots %d; want %d calls from %d roots",
					k, inRow, o.CallsPerItem, o.CallsUnbounded, len(o.SharedBy), k, k)
			}
		}
	}
}
