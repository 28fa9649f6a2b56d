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

// Free reports whether a pass only reads: the loop holds a worker and
// spends nothing.
func (c PassCost) Free() bool { return c.Kind == "" }

// LoopPassCost decides what one pass of loop l of workflow w costs, from
// the live operations whose attempt chain the loop makes unbounded: the
// loop's own calls, the model of an agent in it, the calls of a
// sub-workflow it runs. The costliest wins: spend, then a message, then a
// write.
func (s *Set) LoopPassCost(w *n8nschema.Workflow, l *Loop) PassCost {
	label := w.Label()
	ops := s.OperationsOf(w)
	inLoop := make(map[*n8nschema.Node]bool, len(l.Nodes))
	for _, n := range l.Nodes {
		inLoop[n] = true
	}
	for _, c := range s.CallsFrom(w) {
		if c.To != nil && c.To != w && c.Node != nil && inLoop[c.Node] {
			ops = append(ops[:len(ops):len(ops)], s.OperationsOf(c.To)...)
		}
	}
	g := s.Graph(w)
	var best PassCost
	rank := map[string]int{"": 0, "write": 1, "message": 2, "spend": 3}
	for _, op := range ops {
		if !op.Live || op.Refused || !madeUnboundedBy(op, label, l) {
			continue
		}
		var k string
		switch {
		case op.Paid && op.Billing != n8nschema.BilledToFreeCredits:
			k = "spend"
		case op.Write && op.Consequence.Duplicates():
			k = "write"
			if op.Workflow == w && ConsequenceIn(g, op.Node).Message {
				k = "message"
			} else if op.Workflow != w && ConsequenceOf(op.Node).Message {
				k = "message"
			}
		}
		if rank[k] > rank[best.Kind] {
			best = PassCost{Kind: k, Node: op.Node}
		}
	}
	return best
}

// madeUnboundedBy reports whether op's chain holds the factor of loop l of
// the workflow labelled label.
func madeUnboundedBy(op *Operation, label string, l *Loop) bool {
	for _, f := range op.Factors {
		if f.Kind == KindLoop && f.Workflow == label && f.Node == l.Back.Name && f.Via == l.Head.Name {
			return true
		}
	}
	return false
}
