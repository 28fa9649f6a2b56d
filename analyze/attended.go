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
// exports do not write the field at all (RunStateOf).

// RunState is what an export shows of whether its workflow's triggers
// fire in production.
type RunState int

const (
	// RunUnknown: the export does not say. `active: false` is no sign
	// of a draft: n8n import:workflow sets active false on every workflow
	// it imports unless --activeState=fromJson
	// (cli/src/services/import.service.ts importWorkflows), and a
	// source-control export
	// writes no active field (source-control-export.service.ee.ts
	// writeExportableWorkflowsToExportFolder); nor is it a sign that the
	// workflow runs.
	RunUnknown RunState = iota
	// RunShown: `active: true` or a published version (activeVersion):
	// the instance it came from ran its triggers.
	RunShown
	// RunNever: archived; n8n refuses to publish it
	// (cli/src/active-workflow-manager.ts add).
	RunNever
)

// RunStateOf reads what an export shows of a workflow's production runs:
// the one reading of `active` every rule shares.
func RunStateOf(w *n8nschema.Workflow) RunState {
	switch {
	case w.Archived:
		return RunNever
	case w.Active || w.Published:
		return RunShown
	}
	return RunUnknown
}

// byHand reports a trigger that only a person in the editor fires.
func byHand(typ string) bool {
	return typ == n8nschema.TypeManualTrigger || typ == n8nschema.TypeStart || typ == n8nschema.TypeManualChatTrigger
}

// ByHandOnly reports whether only a person in the editor starts the runs
// that reach n: an enabled Manual Trigger (or Start node) reaches it and no
// other enabled trigger of the workflow does. The person who clicked
// watches the run in the editor and sees it hang or fail.
func ByHandOnly(g *Graph, n *n8nschema.Node) bool {
	var hand, other []*n8nschema.Node
	for _, t := range g.Triggers() {
		switch {
		case t.Disabled:
		case byHand(t.Type):
			hand = append(hand, t)
		default:
			other = append(other, t)
		}
	}
	return len(hand) > 0 && ReachFrom(g, hand...)[n] && !ReachFrom(g, other...)[n]
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
		if RunStateOf(w) == RunNever {
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
