package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// Who starts a workflow decides whether an outage meets its executions all
// at once. A workflow that only a person starts from the editor (a Manual
// Trigger, the legacy Start node, or no trigger at all) runs once per click:
// n8n starts no execution of it on its own, and it runs no error workflow
// for a manual run (docs/n8n-behaviour.md#who-starts-a-workflow). An
// archived workflow's triggers never fire: n8n refuses to publish it.
// `active: false` in a file says nothing: `n8n import:workflow` deactivates
// every workflow it imports unless told otherwise, and source-control
// exports do not write the field at all.

// byHand reports a trigger that only a person in the editor fires.
func byHand(typ string) bool {
	return typ == n8nschema.TypeManualTrigger || typ == n8nschema.TypeStart || typ == n8nschema.TypeManualChatTrigger
}

// byCaller reports a trigger that another workflow fires: a call, or a
// failed execution that names the workflow as its error workflow.
func byCaller(typ string) bool {
	return typ == n8nschema.TypeExecuteWorkflowTrigger || typ == n8nschema.TypeErrorTrigger
}

// ManualOnly returns the workflows of the set that only a person starts:
// no enabled trigger of their own that fires without a person (an
// archived workflow's never do), and no workflow of the set that runs on
// its own starts them (an Execute Workflow, a tool, a webhook call, an
// error workflow setting). A workflow that waits for a caller (an Execute
// Workflow Trigger, an Error Trigger) and has none in the set is taken to
// have callers outside it, which may run on their own.
func ManualOnly(s *Set) map[*n8nschema.Workflow]bool {
	runs := map[*n8nschema.Workflow]bool{} // started without a person
	var queue []*n8nschema.Workflow
	for _, w := range s.Workflows {
		if w.Archived {
			continue
		}
		own, waits := false, false
		for _, t := range s.Graph(w).Triggers() {
			switch {
			case t.Disabled || byHand(t.Type):
			case byCaller(t.Type):
				waits = true
			default:
				own = true
			}
		}
		if own || waits && !calledBy(s, w) {
			runs[w] = true
			queue = append(queue, w)
		}
	}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		for _, c := range s.CallsFrom(w) {
			if c.To != nil && c.Kind != CallN8nAPI && !runs[c.To] {
				runs[c.To] = true
				queue = append(queue, c.To)
			}
		}
	}
	out := map[*n8nschema.Workflow]bool{}
	for _, w := range s.Workflows {
		if !runs[w] {
			out[w] = true
		}
	}
	return out
}

// calledBy reports whether another workflow of the set starts w.
func calledBy(s *Set, w *n8nschema.Workflow) bool {
	for _, c := range s.CallsTo(w) {
		if c.From != w && c.Kind != CallN8nAPI {
			return true
		}
	}
	return false
}
