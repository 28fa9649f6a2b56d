package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// PassCost is what one trip round a loop with no guard leaves behind, the
// consequence of the loop going round for ever: a paid call bills every
// pass, a write or a message leaves one more effect every pass, and a
// pass that only reads holds the execution (a worker, no money).
type PassCost struct {
	// Kind is "spend" (a paid model call), "message" (a message to
	// people), "write" (a write that leaves a second effect) or "" when
	// every call of the pass only reads or re-applies one state.
	Kind string
	// Node is the node whose call decides Kind; nil for "".
	Node *n8nschema.Node
}

// LoopPassCosts decides what one pass of each loop of workflow w costs,
// from the live operations whose attempt chain a loop makes unbounded:
// the loop's own calls, the model of an agent in it, the calls of a
// sub-workflow it runs. The costliest wins: spend, then a message, then a
// write. One pass over the operations of w and of the workflows it calls.
func (s *Set) LoopPassCosts(w *n8nschema.Workflow) map[*Loop]PassCost {
	g := s.Graph(w)
	out := map[*Loop]PassCost{}
	if len(g.Loops) == 0 {
		return out
	}
	label := w.Label()
	ops := s.OperationsOf(w)
	seen := map[*n8nschema.Workflow]bool{w: true}
	for _, c := range s.CallsFrom(w) {
		if c.To != nil && !seen[c.To] {
			seen[c.To] = true
			ops = append(ops[:len(ops):len(ops)], s.OperationsOf(c.To)...)
		}
	}
	rank := map[string]int{"": 0, "write": 1, "message": 2, "spend": 3}
	for _, op := range ops {
		if !op.Live || op.Refused {
			continue
		}
		var k string
		switch {
		case op.Paid && op.Billing != n8nschema.BilledToFreeCredits:
			k = "spend"
		case op.Consequence().Duplicates():
			k = "write"
			if op.Workflow == w && ConsequenceIn(g, op.Node).Message || op.Workflow != w && ConsequenceOf(op.Node).Message {
				k = "message"
			}
		default:
			continue
		}
		for _, f := range op.Factors {
			if f.Kind != KindLoop || f.Workflow != label {
				continue
			}
			back := g.Node(f.Node)
			if back == nil {
				continue
			}
			if l := g.LoopOf(back); l != nil && l.Head.Name == f.Via && rank[k] > rank[out[l].Kind] {
				out[l] = PassCost{Kind: k, Node: op.Node}
			}
		}
	}
	return out
}
