package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// waitStops cuts the live main edges into a node that waits for all its
// inputs (a Merge) when one input can only be fed past a node that fails
// on every item and stops the execution, and every run that feeds the
// node runs that one too (failCut, with that node).
//
// n8n holds any node with more than one connected main input (of any
// type, Merge v1 to v3 in every mode) in waitingExecution until every
// input has data (n8n-core execution-engine/workflow-execute.js
// addNodeToBeExecuted, L246-322); it runs one with inputs missing only
// once the execution stack is empty and no node before it waits
// (L1372-1455: under v1 when its requiredInputs allow, under the legacy
// order whenever it has data). The mode only decides what happens when an
// input never arrives because its branch was not taken (Merge v2/v3
// requiredInputs: both for chooseBranch, any one otherwise,
// Merge/v3/actions/versionDescription.js L138-140). A feeder that fails
// breaks the execution loop (handleNodeExecutionError returns
// continueExecution false, L1286-1288) before the stack empties, so the
// waiting node never runs, whatever its mode.
//
// "Every run that feeds it runs the failing node": from the failing node,
// back along single main inputs through nodes that send every item to
// their one output (no gate, no error output), to a node or an output
// that every path from the starts to the waiting node passes (one walk
// that avoids it; at most maxWaitChecks of them, which keeps a run
// linear). What is past a gate's other branch, or reached from another
// trigger, may feed the node in a run that does not fail: it is left
// reached.
func (g *Graph) waitStops() {
	if g.fails == nil || len(g.Unloadable) > 0 {
		return
	}
	inputs := make([]int, len(g.Nodes)) // connected main inputs by node index, Unrun connections included
	for _, e := range g.Edges {
		if e.Type == ConnMain && e.Input+1 > inputs[e.to] {
			inputs[e.to] = e.Input + 1
		}
	}
	for _, e := range g.Unrun {
		if i, ok := g.index(e.To); ok && e.Input+1 > inputs[i] {
			inputs[i] = e.Input + 1
		}
	}
	var waiting []int
	for i := range g.Nodes {
		if inputs[i] > 1 {
			waiting = append(waiting, i)
		}
	}
	if len(waiting) == 0 {
		return
	}
	var starts []*n8nschema.Node
	for _, s := range g.starts(nil) {
		starts = append(starts, g.Nodes[s])
	}
	live := LiveFrom(g, starts...)
	behind := BehindFrom(g, starts...)
	stops := func(f *n8nschema.Node) bool {
		i, ok := g.index(f)
		return ok && live.Has(f) && g.runFails(i) && !f.ContinuesOnFail() && !f.ContinueOnFail
	}
	checks := map[waitCut]bool{}
	cuts := map[int]*n8nschema.Node{}
	for _, m := range waiting { // file order: deterministic
		if !live.Has(g.Nodes[m]) {
			continue
		}
		ins := g.ins(m)
		for k := 0; k < inputs[m]; k++ {
			var first *n8nschema.Node
			fed, any := false, false
			for _, e := range ins {
				if e.Type != ConnMain || e.Input != k {
					continue
				}
				any = true
				if !g.dead(e) && live.Has(e.From) {
					fed = true
					break
				}
				var b *n8nschema.Node
				if g.dead(e) && !g.deadBesidesFailing(e) {
					if b = g.failCut[e]; b == nil {
						b = e.From
					}
				} else if !live.Has(e.From) {
					b = behind[e.From]
				}
				if first == nil && b != nil && stops(b) {
					first = b
				}
			}
			if !any || fed || first == nil {
				continue
			}
			c := g.waitCutOf(first, g.Nodes[m])
			sure, seen := checks[c]
			if !seen {
				if len(checks) >= maxWaitChecks {
					continue
				}
				sure = !g.reachesAvoiding(starts, c, g.Nodes[m])
				checks[c] = sure
			}
			if sure {
				cuts[m] = first
				break
			}
		}
	}
	for _, m := range waiting {
		f := cuts[m]
		if f == nil {
			continue
		}
		for _, e := range g.ins(m) {
			if e.Type == ConnMain && !g.dead(e) {
				if g.failCut == nil {
					g.failCut = map[*Edge]*n8nschema.Node{}
				}
				g.failCut[e] = f
			}
		}
	}
}

// maxWaitChecks bounds the walks waitStops makes per graph: each is
// linear, and a workflow has few waiting nodes past a failure.
const maxWaitChecks = 8

// waitCut is where a run must pass for a failing node to run: a node
// (out nil), or one output of a node.
type waitCut struct {
	node *n8nschema.Node
	out  int
	err  bool
}

// waitCutOf walks back from f along single main inputs while the node in
// front sends every item on to the one output (no gate, no error output,
// one regular output), and returns where the walk stops: the node with no
// single input, or the output of the node that decides.
func (g *Graph) waitCutOf(f, m *n8nschema.Node) waitCut {
	v := f
	for steps := 0; steps < len(g.Nodes); steps++ {
		i, ok := g.index(v)
		if !ok {
			break
		}
		e := g.oneMainIn(i)
		if e == nil || g.dead(e) {
			break
		}
		u := e.From
		if u == m || u == f || e.Error || !u.Disabled && (u.OnError == "continueErrorOutput" || mainOutputs(u) != 1 || n8nschema.IsBranch(u.Type) || u.Type == typeRemoveDuplicates) {
			return waitCut{node: u, out: e.Output, err: e.Error}
		}
		v = u
	}
	return waitCut{node: v, out: -1}
}

// typeRemoveDuplicates may keep no item (items seen in earlier runs).
const typeRemoveDuplicates = "n8n-nodes-base.removeDuplicates"

// reachesAvoiding reports whether a walk from starts along live main
// edges reaches m without passing c (not entering its node, or not
// leaving by its output).
func (g *Graph) reachesAvoiding(starts []*n8nschema.Node, c waitCut, m *n8nschema.Node) bool {
	seen := make(map[*n8nschema.Node]bool, len(starts))
	var queue []*n8nschema.Node
	for _, s := range starts {
		if !seen[s] && (c.out >= 0 || s != c.node) {
			seen[s] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == m {
			return true
		}
		for _, e := range g.Out(u) {
			v := e.To
			if e.Type != ConnMain || seen[v] || g.dead(e) {
				continue
			}
			if c.out < 0 && v == c.node || c.out >= 0 && u == c.node && e.Output == c.out && e.Error == c.err {
				continue
			}
			seen[v] = true
			queue = append(queue, v)
		}
	}
	return false
}
