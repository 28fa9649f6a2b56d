package analyze

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestKeepOwnedCopies: kept findings say the same as the rule's, in memory of
// their own: a repair kept is not the rule's repair.
func TestKeepOwnedCopies(t *testing.T) {
	s := load(t, DefaultOptions(), "subworkflow_http.json")
	o := op(t, s, "Child", "Post order")
	f := Finding{RuleID: "RS101", File: o.Workflow.Source.Name, Source: o.Workflow.Source, Pos: o.Node.Pos, Workflow: "Child",
		Node: o.Node.Name, Message: "m", Chain: o.Factors, Related: []Related{{File: "x", Pos: o.Node.Pos, Message: "r"}},
		Repair: &Repair{Description: "d", Edits: []Edit{{Source: o.Workflow.Source, Offset: 1, Text: "t", Start: o.Node.Pos}}}}
	kept := KeepOwned([]Finding{f})
	sameSource := cmp.Comparer(func(a, b *n8nschema.Source) bool { return a == b })
	if diff := cmp.Diff([]Finding{f}, kept, sameSource); diff != "" {
		t.Errorf("kept finding differs (-rule's +kept):\n%s", diff)
	}
	if kept[0].Repair == f.Repair || &kept[0].Chain[0] == &f.Chain[0] {
		t.Error("the kept finding shares its repair or chain with the rule's")
	}
}

// TestSummarize: a summary says of each operation what the operation
// says, by workflow in set order.
func TestSummarize(t *testing.T) {
	s := load(t, DefaultOptions(), "subworkflow_http.json")
	wfs := Summarize(s)
	if len(wfs) != len(s.Workflows) {
		t.Fatalf("%d summaries of %d workflows", len(wfs), len(s.Workflows))
	}
	ops := 0
	for i, w := range s.Workflows {
		sum := wfs[i]
		if sum.Name != w.Name || sum.ID != w.ID || sum.Source != w.Source || sum.Nodes != len(w.Nodes) {
			t.Errorf("workflow %q: summary %q %q %d nodes", w.Name, sum.Name, sum.ID, sum.Nodes)
		}
		for j, o := range s.OperationsOf(w) {
			got := sum.Operations[j]
			if got.Node != o.Node.Name || got.Pos != o.Node.Pos || got.Attempts != o.Attempts || got.Unbounded != o.Unbounded ||
				got.Dependency != o.Dependency || !cmp.Equal(got.Factors, o.Factors, cmp.Comparer(func(a, b *n8nschema.Source) bool { return a == b })) {
				t.Errorf("%s/%s: summary %+v", w.Name, o.Node.Name, got)
			}
			ops++
		}
	}
	if ops == 0 {
		t.Fatal("no operations: the test shows nothing")
	}
}
