package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// sameReach reports whether a and b hold the same nodes.
func sameReach(a, b Reach) bool {
	if a.Len() != b.Len() {
		return false
	}
	for _, n := range a.Nodes() {
		if !b.Has(n) {
			return false
		}
	}
	return true
}

// checkReach fails when r's marks and its list of nodes disagree: every
// node of the graph Has marks is listed once, and every listed node Has.
func checkReach(t *testing.T, what string, g *Graph, r Reach) {
	t.Helper()
	listed := map[*n8nschema.Node]int{}
	for _, n := range r.Nodes() {
		listed[n]++
		if listed[n] > 1 || !r.Has(n) {
			t.Fatalf("%s: %q listed %d times, Has %v", what, n.Name, listed[n], r.Has(n))
		}
	}
	for _, n := range g.Nodes {
		if r.Has(n) != (listed[n] == 1) {
			t.Fatalf("%s: %q Has %v, listed %d", what, n.Name, r.Has(n), listed[n])
		}
	}
}

// TestReachMarksMatchNodes checks every kind of Reach the package makes
// (a walk, a live walk, the run's reach with what fails on every item
// taken out, GroupByReach's groups sharing one slice of marks, the pause's
// two sides, a webhook's reach before its answer) on the three corpora,
// and a start that is not the graph's.
func TestReachMarksMatchNodes(t *testing.T) {
	for _, w := range corpustest.Workflows(t) {
		g := BuildGraph(w)
		trigs := g.Triggers()
		for _, tr := range trigs {
			reach := ReachFrom(g, tr)
			checkReach(t, w.Name+" ReachFrom", g, reach)
			checkReach(t, w.Name+" LiveFrom", g, LiveFrom(g, tr))
			checkReach(t, w.Name+" RunReach", g, RunReach(g, tr))
			checkReach(t, w.Name+" beforeAnswer", g, beforeAnswer(g, tr, reach))
		}
		for _, grp := range GroupByReach(g, trigs) {
			checkReach(t, w.Name+" GroupByReach", g, grp.Reach)
			if !sameReach(grp.Reach, ReachFrom(g, grp.Triggers...)) {
				t.Errorf("%s: a group of %d triggers is not their ReachFrom", w.Name, len(grp.Triggers))
			}
		}
		before, after := pauseSides(g, trigs)
		checkReach(t, w.Name+" before a pause", g, before)
		checkReach(t, w.Name+" after a pause", g, after)
	}
	stray := &n8nschema.Node{Name: "elsewhere", Index: -1}
	g := BuildGraph(&n8nschema.Workflow{})
	r := ReachFrom(g, stray, stray)
	if !r.Has(stray) || r.Len() != 1 || r.Has(nil) || (Reach{}).Has(stray) {
		t.Errorf("a start not of the graph: Has %v, Len %d", r.Has(stray), r.Len())
	}
}
