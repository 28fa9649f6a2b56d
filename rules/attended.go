package rules

import (
	"fmt"
	"slices"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// calledByAnother reports whether another workflow of the set starts the
// pass's workflow: its runs are then not a person's, whatever its triggers
// (a Manual Trigger starts a sub-workflow with no Execute Workflow Trigger).
func calledByAnother(pass *analyze.Pass) bool {
	for _, c := range pass.Set.CallsTo(pass.Workflow) {
		if c.From != pass.Workflow && c.Kind != analyze.CallN8nAPI {
			return true
		}
	}
	return false
}

// watched reports a node only runs a person starts from the editor reach
// (analyze.Watched): in a workflow no other workflow calls, or in a
// sub-workflow whose every caller a person starts: the person who clicked
// sees the run fail or go round.
func watched(pass *analyze.Pass, n *n8nschema.Node) bool {
	return analyze.Watched(pass.Set, pass.Workflow, n)
}

// untriggered reports a workflow with no enabled trigger that no other
// workflow of the set calls: only a person running its nodes from the
// editor reaches them. n8n refuses to publish it before any other check
// ("Workflow cannot be activated because it has no trigger node",
// n8n-workflow workflow-validation.js validateWorkflowHasTriggerLikeNode,
// called first by n8n workflow-validation.service.js validateForActivation),
// and a call needs an Execute Workflow Trigger or a start node
// (n8n utils.js findSubworkflowStart).
func untriggered(pass *analyze.Pass) bool {
	for _, t := range pass.Set.Graph(pass.Workflow).Triggers() {
		if !t.Disabled {
			return false
		}
	}
	return !calledByAnother(pass)
}

// byHandWhy says why only a manual run reaches n, for a message: a Manual
// Trigger, or a Chat Trigger that is not public (analyze.TestChatOnly),
// which only the editor's test chat runs, callers a person starts
// (analyze.Watched), for a sub-workflow or tool, or no trigger at all
// (untriggered).
func byHandWhy(g *analyze.Graph, n *n8nschema.Node) string {
	if !slices.ContainsFunc(g.Triggers(), func(t *n8nschema.Node) bool { return !t.Disabled }) {
		return "only a run from the editor reaches it: the workflow has no trigger, so n8n refuses to publish it"
	}
	chat, subwf := g.ByHandStarts(n)
	if chat != nil {
		return fmt.Sprintf("only a manual run reaches it: chat %q is not public, so only the editor's test chat runs it", chat.Name)
	}
	if subwf != nil {
		return fmt.Sprintf("only a manual run reaches it: it runs when %q is called, and its only callers the audited set shows are runs a person starts", subwf.Name)
	}
	return "only a manual trigger reaches it"
}
