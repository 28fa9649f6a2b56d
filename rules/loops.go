package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about loops: which loop makes an operation unbounded. What ends a
// loop without a guard test (a counter, a person, a pace) is decided once,
// by the loop analysis (analyze.Loop.Bound and Paced).

// unboundedLoopOf returns the loop whose lack of a guard makes an
// operation unbounded, when that loop is the only thing without a bound
// (no self-trigger, no unlimited pagination or agent): nil otherwise.
func unboundedLoopOf(pass *analyze.Pass, op *analyze.Operation) *analyze.Loop {
	if op.CallsUnbounded {
		return nil
	}
	var loop *analyze.Factor
	for i, f := range op.Factors {
		if !f.Unbounded {
			continue
		}
		if f.Kind != analyze.KindLoop || loop != nil {
			return nil
		}
		loop = &op.Factors[i]
	}
	if loop == nil {
		return nil
	}
	g := pass.Set.Graph(pass.Workflow)
	back := g.Node(loop.Node)
	if back == nil {
		return nil
	}
	return g.LoopOf(back)
}

// inReportedLoopsOnly reports an operation that one execution of its
// workflow runs without bound only because it sits in unguarded loops that
// RS103 reports (entered by a run, no guard, no page, no bound from the
// data: reported, by back edge and head, from reportedLoops): no
// self-restart, no unlimited agent or pagination of its own. RS103 names
// the loop and, when the workflow has none, says that no executionTimeout
// stops it, so RS504 leaves such a call to it.
func inReportedLoopsOnly(op *analyze.Operation, reported map[[2]string]bool) bool {
	if op.CallsUnbounded && !op.DataBound {
		return false
	}
	found := false
	for _, f := range op.Factors {
		if !f.Unbounded || f.OutsideOf(op.Workflow) {
			continue // a caller's: each of its trips is an execution of its own
		}
		if f.Kind != analyze.KindLoop || !reported[[2]string{f.Node, f.Via}] {
			return false
		}
		found = true
	}
	return found
}

// reportedLoops are the unguarded loops of the pass's workflow that a run
// enters, by the names of their back edge's node and their head, read once
// a workflow (a lookup per operation's factor would walk every loop).
func reportedLoops(pass *analyze.Pass) map[[2]string]bool {
	g := pass.Set.Graph(pass.Workflow)
	m := map[[2]string]bool{}
	for _, l := range g.Loops {
		if l.Unbounded && g.Entered(l) {
			m[[2]string{l.Back.Name, l.Head.Name}] = true
		}
	}
	return m
}

// loopPath names the nodes of a loop, at most four of them.
func loopPath(ns []*n8nschema.Node) string {
	var names []string
	for i, n := range ns {
		if i == 4 {
			names = append(names, fmt.Sprintf("and %d more", len(ns)-4))
			break
		}
		names = append(names, fmt.Sprintf("%q", n.Name))
	}
	return strings.Join(names, ", ")
}

// maxLoopBack bounds the nodes errorsLoopBack reads on the way back, and
// the edges it reads of each: a way back longer or wider is not judged,
// so many error outputs into one shared node cost each a few steps.
const maxLoopBack = 16

// errorsLoopBack reports a node that sends its failures to its error
// output (continueErrorOutput) when every path from that output comes back
// to the node through nodes that hand each item on (a Wait on a time, an
// Edit Fields, a No Op): an item that fails leaves by the error output
// (n8n-core execution-engine/workflow-execute.js handleNodeErrorOutput)
// and is sent to the node again, so a node that fails on every call goes
// round for ever and nothing behind its main output runs. via is the first
// node after the error output. A branch, a node that may fail or stop, or
// an output that leads elsewhere is an exit, and the loop is not judged.
func errorsLoopBack(g *analyze.Graph, n *n8nschema.Node) (via *n8nschema.Node, ok bool) {
	if n.OnError != "continueErrorOutput" || n.Disabled {
		return nil, false
	}
	outs := g.ErrorOutputs(n)
	if len(outs) == 0 || len(outs) > maxLoopBack {
		return nil, false
	}
	seen := map[*n8nschema.Node]bool{n: true}
	queue := make([]*n8nschema.Node, 0, len(outs))
	for _, e := range outs {
		if !seen[e.To] {
			seen[e.To] = true
			queue = append(queue, e.To)
		}
	}
	back := false
	for h := 0; h < len(queue) && h < maxLoopBack; h++ {
		m := queue[h]
		switch m.Type {
		case n8nschema.TypeWait, n8nschema.TypeSet, n8nschema.TypeNoOp:
		default:
			return nil, false
		}
		if m.Disabled || n8nschema.HumanGate(m) || m.OnError == "continueErrorOutput" {
			return nil, false
		}
		if len(g.Out(m)) > maxLoopBack {
			return nil, false // fans out: not a plain way back (and read no further)
		}
		next := g.OutOfType(m, analyze.ConnMain)
		if len(next) == 0 {
			return nil, false // the item ends there
		}
		for _, e := range next {
			if e.Output != 0 {
				return nil, false
			}
			if e.To == n {
				back = true
				continue
			}
			if !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	if !back || len(queue) > maxLoopBack {
		return nil, false
	}
	return outs[0].To, true
}
