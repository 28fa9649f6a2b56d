package analyze_test

import (
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/rules"
)

// TestFixturesWithTriggersDisabled builds every fixture's workflows, one
// set per folder so that a graph's scratch holds what the graph before it
// left, with each workflow's triggers disabled in turn (the Error
// Triggers, then all of them), and runs every rule: nothing panics, and
// no node is reached from a disabled Error Trigger. Exports carry
// disabled triggers often (a schedule switched off, an error workflow
// parked); reachability once counted a disabled Error Trigger among the
// error walk's starts and read past them.
func TestFixturesWithTriggersDisabled(t *testing.T) {
	all := rules.All()
	for _, dir := range []string{"testdata", "../testdata", "../rules/testdata"} {
		files := corpustest.Dir(t, dir)
		for _, which := range []string{"error triggers", "every trigger"} {
			disabled := 0
			for _, f := range files {
				for _, w := range f.Workflows {
					for _, n := range w.Nodes {
						if n.Type == n8nschema.TypeErrorTrigger || which == "every trigger" && n8nschema.Lookup(n.Type).Role == n8nschema.RoleTrigger {
							n.Disabled, disabled = true, disabled+1
						}
					}
				}
			}
			set := analyze.Build(files, analyze.DefaultOptions())
			analyze.Run(set, all)
			for _, w := range set.Workflows {
				g := set.Graph(w)
				for _, n := range w.Nodes {
					if g.FromErrorTrigger(n) {
						t.Errorf("%s (%s disabled): node %q is reached from a disabled Error Trigger", w.Source.Name, which, n.Name)
					}
				}
			}
			if disabled == 0 {
				t.Errorf("%s: no trigger to disable", dir)
			}
		}
	}
}
