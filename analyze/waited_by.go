package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// A WorkflowRef names a workflow of the set among the summaries: its file
// and its place in the file.
type WorkflowRef struct {
	Source *n8nschema.Source
	Offset int
}

// Ref is the summary's WorkflowRef.
func (w *WorkflowSummary) Ref() WorkflowRef { return WorkflowRef{w.Source, w.Pos.Offset} }

// refOf is a workflow's WorkflowRef.
func refOf(w *n8nschema.Workflow) WorkflowRef { return WorkflowRef{w.Source, w.Pos.Offset} }

// WaitedBy returns the workflows whose runs hold every run of sub-workflow
// w the set shows: only Execute Workflow Triggers start w (and people: an
// Execute Workflow node starts a workflow with none at its Manual Trigger),
// and each call of the set that starts it is another workflow's Execute
// Workflow node that waits for the run it starts. The node awaits each
// sub-execution before it goes on, item after item in mode "each"
// (n8n-nodes-base ExecuteWorkflow.node.js L358–365, L445–452, unless
// options.waitForSubWorkflow is false), and an execution runs one node at
// a time, so while w runs its caller makes no call of its own: the calls
// of a caller and of the sub-workflow it waits for come one after another,
// never at once. Nil when anything else may start w: another trigger, or a
// call waitingCallers refuses. A call the set cannot resolve may start w
// too: the set-wide rules check for one (WorkflowSummary.Unresolved).
func WaitedBy(s *Set, w *n8nschema.Workflow) []WorkflowRef {
	if k := s.Graph(w).sortedTriggers(); len(k.clock)+len(k.errs)+len(k.others) > 0 {
		return nil
	}
	var out []WorkflowRef
	for _, c := range waitingCallers(s, w) {
		out = append(out, refOf(c))
	}
	return out
}
