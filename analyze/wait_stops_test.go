package analyze

import (
	"encoding/json"
	"os"
	"testing"
)

// TestWaitStops: a Merge fed on one input only past a model that fails
// on every item never runs, in either execution order, when every run
// that feeds it runs that model; a run that can feed it without passing
// the model (the If's other branch, a second trigger) leaves it reached.
func TestWaitStops(t *testing.T) {
	read := func(name string, edit func(map[string]any)) *Graph {
		t.Helper()
		src, err := os.ReadFile("../rules/testdata/RS010/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			var w map[string]any
			if err := json.Unmarshal(src, &w); err != nil {
				t.Fatal(err)
			}
			edit(w)
			if src, err = json.Marshal(w); err != nil {
				t.Fatal(err)
			}
		}
		return BuildGraph(parseOne(t, string(src)))
	}
	legacy := func(w map[string]any) { delete(w, "settings") }
	secondTrigger := func(w map[string]any) {
		w["nodes"] = append(w["nodes"].([]any), map[string]any{
			"name": "Manual", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": []any{0, 400}, "parameters": map[string]any{},
		})
		w["connections"].(map[string]any)["Manual"] = map[string]any{"main": []any{[]any{map[string]any{"node": "Extract Attendee Research", "type": "main", "index": 0}}}}
	}
	for _, tc := range []struct {
		name    string
		fixture string
		edit    func(map[string]any)
		behind  bool
	}{
		{"v1", "merge_waiting_for_a_failing_input", nil, true},
		{"legacy order", "merge_waiting_for_a_failing_input", legacy, true},
		{"a second trigger feeds the other input", "merge_waiting_for_a_failing_input", secondTrigger, false},
		{"model on one branch of an If", "merge_waiting_for_a_failing_input_on_one_branch", nil, false},
		{"model goes on by its error output", "merge_waiting_for_a_failing_input_that_goes_on", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := read(tc.fixture, tc.edit)
			merge := g.Node("Combine Research Results")
			for _, n := range []string{"Combine Research Results", "Meeting Prep Report Generator"} {
				first, behind := g.FailsBefore(g.Node(n))
				if behind != tc.behind || behind && first.Name != "Meeting Goal Analysis" {
					t.Errorf("FailsBefore(%q) = %v, %v; want behind %v the model", n, first, behind, tc.behind)
				}
			}
			if run := RunReach(g, g.Triggers()...).Has(merge); g.Reachable(merge) == tc.behind || run == tc.behind {
				t.Errorf("Merge reached %v, in RunReach %v; want %v", g.Reachable(merge), run, !tc.behind)
			}
		})
	}
}
