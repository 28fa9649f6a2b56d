package analyze_test

import (
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestByHandStartsAsPerTrigger checks ByHandStarts' one labelled walk, and
// SlowSteps read from its set's nodes, against the readings they replaced
// (a ReachFrom per trigger, a pass over every operation and node) on every
// node of both corpora.
func TestByHandStartsAsPerTrigger(t *testing.T) {
	for _, name := range []string{"n8n-real", "n8n-more"} {
		set := analyze.Build(corpustest.FilesOf(t, name), analyze.DefaultOptions())
		nodes, hand := 0, 0
		for _, w := range set.Workflows {
			g := set.Graph(w)
			reach := map[*n8nschema.Node]analyze.Reach{}
			for _, tr := range g.Triggers() {
				reach[tr] = analyze.ReachFrom(g, tr)
			}
			first := func(n *n8nschema.Node, ok func(*n8nschema.Node) bool) *n8nschema.Node {
				for _, tr := range g.Triggers() {
					if !tr.Disabled && ok(tr) && reach[tr].Has(n) {
						return tr
					}
				}
				return nil
			}
			for _, n := range w.Nodes {
				nodes++
				chat, subwf := g.ByHandStarts(n)
				wantChat := first(n, analyze.TestChatOnly)
				wantSub := first(n, func(tr *n8nschema.Node) bool { return tr.Type == n8nschema.TypeExecuteWorkflowTrigger })
				if chat != wantChat || subwf != wantSub {
					t.Fatalf("%s %q node %q: ByHandStarts %v %v, per trigger %v %v", name, w.Name, n.Name, chat, subwf, wantChat, wantSub)
				}
				if chat != nil || subwf != nil {
					hand++
				}
			}
			for _, tr := range g.Triggers() {
				got, want := analyze.SlowSteps(set, w, reach[tr]), slowStepsAsBefore(set, w, reach[tr])
				if len(got) != len(want) {
					t.Fatalf("%s %q from %q: %d slow steps, %d before", name, w.Name, tr.Name, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s %q from %q: step %d %+v, before %+v", name, w.Name, tr.Name, i, got[i], want[i])
					}
				}
			}
		}
		if hand == 0 {
			t.Fatalf("%s: no node reached by a test chat or a sub-workflow trigger: the check compared nothing", name)
		}
		t.Logf("%s: %d nodes, %d reached by a test chat or a sub-workflow trigger", name, nodes, hand)
	}
}

// slowStepsAsBefore is SlowSteps' order as it was: every operation of w,
// then every node, each kept when in holds it.
func slowStepsAsBefore(s *analyze.Set, w *n8nschema.Workflow, in analyze.Reach) []analyze.SlowStep {
	var out []analyze.SlowStep
	one := func(n *n8nschema.Node) {
		out = append(out, analyze.SlowSteps(s, w, analyze.ReachOf(s.Graph(w), n))...)
	}
	for _, op := range s.OperationsOf(w) {
		if in.Has(op.Node) && op.Node.Type != n8nschema.TypeWait {
			one(op.Node)
		}
	}
	for _, n := range w.Nodes {
		if in.Has(n) && n.Type == n8nschema.TypeWait {
			one(n)
		}
	}
	return out
}
