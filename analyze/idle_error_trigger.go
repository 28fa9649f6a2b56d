package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// When an execution fails, n8n starts the workflow its
// settings.errorWorkflow names; only when that setting is empty does it
// start the failed workflow's own Error Trigger
// (n8n/dist/execution-lifecycle/execute-error-workflow.js L56–57, the
// internal branch L83–85). So an Error Trigger in a workflow whose setting
// names another workflow fires only when some other workflow names this
// one as its error workflow. A workflow that also runs on triggers of its
// own carries the Error Trigger for its own failures, which the setting
// has moved elsewhere: when no workflow of the set names it, the set is
// taken to hold its namers (as it holds a sub-workflow's callers), and
// what only that trigger reaches is unlikely to run. A workflow made of
// Error Triggers (and a person's triggers) is an error workflow meant to
// be named: its namers may lie outside the set (ManualOnly).

// idleError is an Error Trigger n8n is unlikely to start, and why.
type idleError struct {
	Trigger *n8nschema.Node
	// Named is the workflow the setting names instead (its id as written).
	Named string
	// ByName: the setting is a name, which n8n looks up as an id: it
	// starts no error workflow at all (Set.ErrorWorkflowByName).
	ByName bool
}

// markIdleErrorTriggers records, in each workflow's graph, the nodes that
// only idle Error Triggers reach (idleErrorOnly). One walk per workflow
// that has one; none for the others.
func markIdleErrorTriggers(s *Set) {
	for _, w := range s.Workflows {
		ew := w.Settings.ErrorWorkflow
		if ew == "" || w.ID == "" || ew == w.ID || namedByAnother(s, w) {
			continue
		}
		g := s.Graph(w)
		k := g.sortedTriggers()
		work := k.unattended()
		if len(k.errs) == 0 || len(work) == 0 {
			continue
		}
		byName := s.ErrorWorkflowByName(w) != nil
		live := ReachFrom(g, append(work, k.hand...)...)
		// Each node is named for the first idle trigger, in file order,
		// that reaches it; firstReach walks each node once.
		for n, t := range g.firstReach(k.errs) {
			if live.Has(n) {
				continue
			}
			if g.idleErr == nil {
				g.idleErr = map[*n8nschema.Node]idleError{}
			}
			g.idleErr[n] = idleError{Trigger: t, Named: ew, ByName: byName}
		}
	}
}

// namedByAnother reports whether another workflow of the set names w in
// its settings.errorWorkflow.
func namedByAnother(s *Set, w *n8nschema.Workflow) bool {
	for _, c := range s.CallsTo(w) {
		if c.Kind == CallErrorWorkflow && c.From != w {
			return true
		}
	}
	return false
}

// idleErrorOnly returns the idle Error Trigger through which alone n runs
// (markIdleErrorTriggers), and false when another trigger reaches n or
// its Error Trigger may fire.
func (g *Graph) idleErrorOnly(n *n8nschema.Node) (idleError, bool) {
	ie, ok := g.idleErr[n]
	return ie, ok
}
