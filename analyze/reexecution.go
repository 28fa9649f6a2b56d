package analyze

import (
	"fmt"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// ReExecuted says when an operation's node runs again in a new execution,
// where $execution.id is new, besides the workflow re-starting itself
// (the self-trigger and error-workflow factors say that): it names the
// first of
//
//   - a retry of the call that started the execution: each try of an
//     Execute Workflow node (or of a tool or webhook call) starts a new
//     execution (executeWorkflow in
//     packages/cli/src/workflow-execute-additional-data.ts adds one per
//     call), and so does a retry of a layer around that call in another
//     workflow;
//   - a person retrying the failed execution: n8n's Retry runs the node
//     that failed again, in a new execution whose retryOf is the failed
//     one (packages/cli/src/executions/execution.service.ts retry), when
//     the node's failure stops the execution and the workflow keeps failed
//     executions (RetriedByHand).
//
// The clause fits "changes when …"; it is "" when neither applies: the
// node's own retries and the loops of one execution keep the id.
func ReExecuted(op *Operation) string {
	for _, f := range op.Factors {
		if (f.Value > 1 || f.Unbounded) && (f.Kind == KindCallerRetry || outerRetry(op, f)) {
			return fmt.Sprintf("node %q of workflow %q retries the call that starts the execution (each try is a new execution)", f.Node, f.Workflow)
		}
	}
	if !op.Node.ContinuesOnFail() && RetriedByHand(op.Workflow) {
		return "a person retries the failed execution (n8n runs the failed node again, in a new execution)"
	}
	return ""
}

// outerRetry: a node, tool or root retry of another workflow in the chain
// wraps the call into the operation's workflow (an agent re-running a
// workflow tool).
func outerRetry(op *Operation, f Factor) bool {
	switch f.Kind {
	case KindNodeRetry, KindToolRetry, KindRootRetry:
		return f.Source != op.Workflow.Source || f.Workflow != op.Workflow.Label()
	}
	return false
}

// RetriedByHand reports whether the workflow's failed executions are kept,
// and so can be retried from the list of executions: n8n saves them unless
// settings.saveDataErrorExecution is "none"
// (packages/cli/src/execution-lifecycle/to-save-settings.ts).
func RetriedByHand(w *n8nschema.Workflow) bool {
	return w.Settings.Value.Get("saveDataErrorExecution").Str() != "none"
}
