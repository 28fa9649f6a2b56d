package analyze

import (
	"cmp"
	"slices"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// What a node that fails on every item costs the runs that reach it. n8n
// stops the execution at the first node that throws (packages/core/src/
// execution-engine/workflow-execute.ts processRunExecutionData): the node's
// own work, what follows it, and whatever else the run had still to run is
// not done. When none of that acts outside n8n (no request, model call,
// write or message, no answer to a caller, no sub-workflow) the failure
// loses no work: the run ends marked failed, and an error workflow, if one
// is set, is told. That is a notification, not lost work.

// FailureLoss is what the runs that reach a node failing on every item
// lose there (Set.FailureLossOf).
type FailureLoss struct {
	// Known is false when the loss was not read: the node is not in the
	// graph, no enabled trigger reaches it, it runs in a loop (its failure
	// keeps the later rounds of the nodes before it from running), or the
	// budget of the walks ran out.
	Known bool
	// Outside is a node of the node, its sub-nodes and what may run after
	// it that acts outside n8n (ActsOutside): the node itself when it
	// does, else the first such in file order; nil when none does.
	Outside *n8nschema.Node
	// Awaited is a trigger of those runs whose starter waits for the run to
	// end (AwaitsRun): the failure is the answer it gets.
	Awaited *n8nschema.Node
	// Done are the nodes that surely ran before it and act outside n8n,
	// nearest first: the work the run has done when it fails.
	Done []*n8nschema.Node
}

// FailureLossOf reads what the runs of w's triggers (those triggers
// holds) that reach n lose when n fails on every item. What may run after n is every
// node those runs reach (sub-nodes included) but the ones sure to have run
// before it: the chain of single parents above it, and, for a node with
// several main inputs, the chain above each input that one connection
// feeds. n8n holds such a node until every input has data or nothing else
// is left to run (workflow-execute.ts addNodeToBeExecuted, waitingExecution,
// and the waiting nodes run once the stack is empty), so each input's
// chain has run by then. A node with one input fed by several branches
// runs on the first branch's items, before the others' (executionOrder
// v1 runs depth-first), so those branches are not sure to have run. budget
// bounds the walks of one workflow's calls; Known is false once it is
// spent.
func (s *Set) FailureLossOf(w *n8nschema.Workflow, n *n8nschema.Node, triggers map[*n8nschema.Node]bool, budget *int) FailureLoss {
	g := s.Graph(w)
	if *budget <= 0 || !g.Has(n) {
		return FailureLoss{}
	}
	if s.ActsOutside(n) {
		// Most nodes that fail so are calls: their own work is lost,
		// whatever runs around them.
		return FailureLoss{Known: true, Outside: n}
	}
	// Ancestors along main connections, and the triggers among them.
	above := map[*n8nschema.Node]bool{}
	queue := []*n8nschema.Node{n}
	for h := 0; h < len(queue); h++ {
		for _, e := range g.In(queue[h]) {
			if e.Type == ConnMain && !above[e.From] {
				above[e.From] = true
				queue = append(queue, e.From)
			}
		}
	}
	*budget -= len(queue)
	for _, e := range g.Out(n) {
		if (e.Type == ConnMain && above[e.To]) || e.To == n {
			return FailureLoss{} // in a loop: the later rounds before it are lost
		}
	}
	var starts []*n8nschema.Node
	for _, x := range queue[1:] { // in the walk's order, not a map's
		if triggers[x] && !x.Disabled {
			starts = append(starts, x)
		}
	}
	if len(starts) == 0 {
		return FailureLoss{}
	}
	reach := g.reachOf(starts)
	*budget -= len(reach)
	if *budget < 0 {
		return FailureLoss{}
	}
	before, order := g.surelyBefore(n)
	loss := FailureLoss{Known: true}
	done := map[*n8nschema.Node]bool{}
	outside := -1 // the index of the first node that acts outside, in file order
	for _, x := range reach {
		if x.Disabled {
			continue
		}
		// ActsOutside last: a node after the first outside one found
		// changes nothing.
		if r := g.rootOf(x); before[r] {
			if s.ActsOutside(x) {
				done[r] = true
			}
		} else if i := g.indexOf(x); (outside < 0 || i < outside) && s.ActsOutside(x) {
			outside = i
		}
	}
	for _, t := range starts { // the first in file order
		if AwaitsRun(t) && (loss.Awaited == nil || g.indexOf(t) < g.indexOf(loss.Awaited)) {
			loss.Awaited = t
		}
	}
	if outside >= 0 {
		loss.Outside = g.Nodes[outside]
	}
	for _, x := range order { // nearest first
		if done[x] {
			loss.Done = append(loss.Done, x)
		}
	}
	return loss
}

// reachOf returns the nodes runs started at starts reach along main
// connections, with the sub-nodes of each: ReachFrom, with a set the size
// of what it reaches, so that asking it for many small parts of a large
// workflow stays linear.
func (g *Graph) reachOf(starts []*n8nschema.Node) []*n8nschema.Node {
	seen := map[*n8nschema.Node]bool{}
	queue := make([]*n8nschema.Node, 0, len(starts))
	for _, t := range starts {
		if !seen[t] {
			seen[t] = true
			queue = append(queue, t)
		}
	}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		for _, e := range g.Out(u) {
			if e.Type == ConnMain && !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
		for _, e := range g.In(u) {
			if e.Type != ConnMain && !seen[e.From] {
				seen[e.From] = true
				queue = append(queue, e.From)
			}
		}
	}
	return queue
}

// indexOf is n's index in g.Nodes (n is one of them).
func (g *Graph) indexOf(n *n8nschema.Node) int {
	i, _ := g.index(n)
	return i
}

// surelyBefore returns the nodes that have run whenever n runs
// (FailureLossOf), and the same nodes nearest first: the chain of single
// parents above n, and above each input of a node with several main
// inputs that one connection feeds.
func (g *Graph) surelyBefore(n *n8nschema.Node) (map[*n8nschema.Node]bool, []*n8nschema.Node) {
	type feed struct {
		input int
		from  *n8nschema.Node
	}
	before := map[*n8nschema.Node]bool{}
	queue := []*n8nschema.Node{n}
	var feeds []feed
	for h := 0; h < len(queue); h++ {
		feeds = feeds[:0]
		for _, e := range g.In(queue[h]) {
			if e.Type == ConnMain {
				feeds = append(feeds, feed{e.Input, e.From})
			}
		}
		// One input fed once, or several inputs, each fed once: the
		// node waits for them all. Inputs in order (deterministic), by
		// sorting what feeds them: an input's index is the export's and
		// may be any number.
		slices.SortStableFunc(feeds, func(a, b feed) int { return cmp.Compare(a.input, b.input) })
		for k := 0; k < len(feeds); {
			j := k + 1
			for j < len(feeds) && feeds[j].input == feeds[k].input {
				j++
			}
			if from := feeds[k].from; j-k == 1 && !before[from] && from != n {
				before[from] = true
				queue = append(queue, from)
			}
			k = j
		}
	}
	return before, queue[1:]
}

// rootOf is the main node a sub-node works for (through nested roots),
// or the node itself.
func (g *Graph) rootOf(x *n8nschema.Node) *n8nschema.Node {
	for depth := 0; g.IsSubNode(x) && depth <= maxRootLevel; depth++ {
		r := g.Root(x)
		if r == nil {
			break
		}
		x = r
	}
	return x
}

// ActsOutside reports whether a node acts outside n8n when it runs: it
// makes an external call (an Operation: a request, a model call, a read,
// a write, a message) or leaves something behind (HasEffect: an answer to
// a caller, a sub-workflow, a command, a file written).
func (s *Set) ActsOutside(n *n8nschema.Node) bool {
	return !n.Disabled && (s.operationOf(n) != nil || HasEffect(n))
}

// AwaitsRun reports whether whoever starts trigger t's runs waits for the
// run to end, so that a failed run is the answer they get: a Webhook that
// answers when the last node finishes or from a Respond to Webhook node
// (or whose mode an expression sets), a form that answers so, a chat, an
// MCP client, and a calling workflow (Execute Workflow Trigger).
func AwaitsRun(t *n8nschema.Node) bool {
	switch t.Type {
	case n8nschema.TypeWebhook:
		return AnswersLate(t) || AnswerMode(t) == ""
	case n8nschema.TypeFormTrigger:
		// "Respond When" defaults to the submission (onReceived,
		// nodes-base Form/common.descriptions.js formRespondMode): the
		// person has left with the form's own confirmation.
		v, ok := t.Param("responseMode")
		return ok && (v.IsExpr() || v.Str() == "lastNode" || v.Str() == "responseNode")
	case n8nschema.TypeChatTrigger, n8nschema.TypeMCPTrigger, n8nschema.TypeExecuteWorkflowTrigger:
		return true
	}
	return false
}
