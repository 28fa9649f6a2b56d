package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// aborting marks the nodes after which n8n ends every execution that runs
// them: a "main" connection of theirs names no node (n8nschema.Problem
// Aborts), and once such a node has run the engine throws "Destination
// node not found" as it lists the nodes to run next, whatever the node's
// output and its error settings (the throw is outside the try that
// continueOnFail and error outputs act in; n8n-core
// execution-engine/workflow-execute.js processRunExecutionData). So none
// of its outputs carries an item.
//
// Nor does anything that would have run after it in that execution. The
// exact part kept here: a node P that runs such a node X on an output
// (X's only input) also runs X before the nodes it lists after X on that
// output, since both get the same items; the edges to those are cut.
// Under executionOrder v1 the engine runs P's children by canvas
// position, top first (sorted by y descending, then unshifted onto the
// stack: addNodeToBeExecuted), so a child lower on the canvas runs after
// X (same height is left alone); under the legacy order it queues them in
// connection order (pushed), so one listed after X runs after it.
//
// Under v1 the same cut holds for a child X that fails on every item
// without continuing on error (failing): the engine's error handling
// breaks the execution loop (processRunExecutionData, "if
// (!outcome.continueExecution) break"), so a sibling that runs after X on
// the same output never runs. The order here is the engine's exactly: its
// comparator, read through V8's sort (which tests only "< 0"), sorts by y
// descending, then x descending, stably; unshifting each onto the stack
// runs the top, then the left one first, and of two at the same place the
// later listed (runsBefore). The legacy order is left alone: there a
// child with an empty output may still be queued (connectionData.index >
// 0) and a node with two inputs is forced to run, which this does not
// model.
func (g *Graph) aborting() {
	if g.Workflow.Settings.ExecutionOrder == "v1" {
		g.failStops()
	}
	for _, p := range g.Workflow.Problems {
		if !p.Aborts {
			continue
		}
		if i, ok := g.index(g.Workflow.Node(p.Node)); ok {
			if g.aborts == nil {
				g.aborts = make([]bool, len(g.Nodes))
			}
			g.aborts[i] = true
		}
	}
	if g.aborts == nil {
		return
	}
	v1 := g.Workflow.Settings.ExecutionOrder == "v1"
	// first holds, per output of a node, the first child it runs that
	// ends the execution: its place among the output's edges, its height.
	type slot struct {
		from      int32
		out       int
		errOutput bool
	}
	type firstChild struct {
		at int
		y  float64
		ok bool
	}
	first := map[slot]firstChild{}
	// only marks the aborting nodes with one main input: one with several
	// may wait for the others.
	only := make([]bool, len(g.Nodes))
	for i, abort := range g.aborts {
		mains := 0
		for _, e := range g.ins(i) {
			if abort && e.Type == ConnMain {
				mains++
			}
		}
		only[i] = mains == 1
	}
	for p := range g.Nodes {
		if g.aborts[p] {
			continue
		}
		for at, e := range g.outs(p) {
			if e.Type != ConnMain || !only[e.to] {
				continue
			}
			y, ok := canvasY(e.To)
			k := slot{int32(p), e.Output, e.Error}
			if f, seen := first[k]; !seen || v1 && ok && (!f.ok || y < f.y) {
				first[k] = firstChild{at, y, ok}
			}
		}
	}
	for p := range g.Nodes {
		for at, e := range g.outs(p) {
			f, ok := first[slot{int32(p), e.Output, e.Error}]
			if !ok || e.Type != ConnMain {
				continue
			}
			after := !v1 && at > f.at
			if v1 {
				y, ok := canvasY(e.To)
				after = f.ok && ok && y > f.y
			}
			if after {
				if g.cut == nil {
					g.cut = map[*Edge]bool{}
				}
				g.cut[e] = true
			}
		}
	}
}

// canvasY is a node's height on the canvas (y grows downwards), false
// when it has no position.
func canvasY(n *n8nschema.Node) (float64, bool) {
	p := n.Field("position").Elems()
	if len(p) != 2 {
		return 0, false
	}
	return p[1].Num()
}

// AbortedBefore returns, for a node that ends every execution it runs in
// (see aborting), the sibling of the same kind that n8n runs before it on
// the same output of its one main input: the two get the same items, the
// sibling throws first, and n never runs (the order is aborting's; under
// v1 a tie in height goes to the left one, as the engine's sort, and a
// node without a position sits at [0, 0], as the engine reads it). nil
// when n is the first to run, or when no such sibling exists.
func (g *Graph) AbortedBefore(n *n8nschema.Node) *n8nschema.Node {
	i, ok := g.index(n)
	if !ok || g.aborts == nil || !g.aborts[i] {
		return nil
	}
	in := g.oneMainIn(i)
	if in == nil {
		return nil
	}
	v1 := g.Workflow.Settings.ExecutionOrder == "v1"
	var first *n8nschema.Node
	firstAt, nAt := -1, -1
	outs := g.outs(int(in.from))
	for at, e := range outs {
		if e.To == n && e.Output == in.Output && e.Error == in.Error && e.Type == ConnMain {
			nAt = at
		}
	}
	for at, e := range outs {
		if e.Type != ConnMain || e.Output != in.Output || e.Error != in.Error || e.To == n || !g.aborts[e.to] || g.oneMainIn(int(e.to)) != e {
			continue
		}
		if !runsBefore(v1, e.To, at, n, nAt) || first != nil && !runsBefore(v1, e.To, at, first, firstAt) {
			continue
		}
		first, firstAt = e.To, at
	}
	return first
}

// failStops cuts, under v1, the edges to the siblings that run after a
// child that fails on every item and stops the execution (see aborting).
// Only a child with one main input counts: one with two may wait for the
// other. Linear in the edges: per output, the first such child to run.
func (g *Graph) failStops() {
	if g.fails == nil {
		return
	}
	halts := func(i int) bool {
		nd := g.Nodes[i]
		return g.fails[i] && !nd.ContinuesOnFail() && !nd.ContinueOnFail
	}
	// A child above whose branch always reaches a reader that fails
	// (laterSiblingRead, Stops) stops the execution as a failing child
	// does, with that reader.
	var joinStop map[int32]*n8nschema.Node
	for r, jr := range g.joinReads {
		if y, ok := g.index(jr.Above); ok && jr.Stops && halts(int(r)) {
			if joinStop == nil {
				joinStop = map[int32]*n8nschema.Node{}
			}
			if joinStop[int32(y)] == nil || g.Nodes[r].Index < joinStop[int32(y)].Index {
				joinStop[int32(y)] = g.Nodes[r]
			}
		}
	}
	stops := func(e *Edge) bool {
		i := int(e.to)
		return e.Type == ConnMain && (halts(i) || joinStop[e.to] != nil) && g.oneMainIn(i) == e
	}
	type slot struct {
		out   int
		error bool
	}
	for p := range g.Nodes {
		outs := g.outs(p)
		var first map[slot]int // the place among outs of the first stop to run
		for at, e := range outs {
			if !stops(e) {
				continue
			}
			k := slot{e.Output, e.Error}
			if f, seen := first[k]; !seen || runsBefore(true, e.To, at, outs[f].To, f) {
				if first == nil {
					first = map[slot]int{}
				}
				first[k] = at
			}
		}
		for at, e := range outs {
			f, ok := first[slot{e.Output, e.Error}]
			if !ok || e.Type != ConnMain || at == f || !runsBefore(true, outs[f].To, f, e.To, at) {
				continue
			}
			by := outs[f].To
			if r := joinStop[outs[f].to]; r != nil && !halts(int(outs[f].to)) {
				if _, y := canvasXY(by); !(y < canvasY0(e.To)) {
					continue // equal heights are not judged
				}
				by = r
			}
			if g.failCut == nil {
				g.failCut = map[*Edge]*n8nschema.Node{}
			}
			g.failCut[e] = by
		}
	}
}

// canvasY0 is a node's height as the engine reads it: 0 without a position.
func canvasY0(n *n8nschema.Node) float64 {
	_, y := canvasXY(n)
	return y
}

// oneMainIn is node i's main input edge when it has exactly one.
func (g *Graph) oneMainIn(i int) *Edge {
	var in *Edge
	for _, e := range g.ins(i) {
		if e.Type == ConnMain {
			if in != nil {
				return nil
			}
			in = e
		}
	}
	return in
}

// runsBefore reports whether sibling a (at place aAt among their parent's
// edges) runs before sibling b: under v1 the top one, then the left one,
// then the later listed (the engine sorts by height, then by x
// descending, and unshifts each onto the stack); under the legacy order
// the one listed first (pushed).
func runsBefore(v1 bool, a *n8nschema.Node, aAt int, b *n8nschema.Node, bAt int) bool {
	if !v1 {
		return aAt < bAt
	}
	ax, ay := canvasXY(a)
	bx, by := canvasXY(b)
	switch {
	case ay != by:
		return ay < by
	case ax != bx:
		return ax < bx
	}
	return aAt > bAt
}

// canvasXY is a node's place on the canvas, [0, 0] when it has none (the
// engine's nodeToAdd?.position || [0, 0]).
func canvasXY(n *n8nschema.Node) (x, y float64) {
	p := n.Field("position").Elems()
	if len(p) != 2 {
		return 0, 0
	}
	x, _ = p[0].Num()
	y, _ = p[1].Num()
	return x, y
}

// BuildFails reports a workflow n8n cannot build as stored: a node it
// cannot load (Unloadable), or connections it cannot read
// (n8nschema.Problem.Unbuilt, reported by RS003). No node of it runs, so
// a rule that judges what a run does says nothing of it.
func (g *Graph) BuildFails() bool {
	if len(g.Unloadable) > 0 {
		return true
	}
	for _, p := range g.Workflow.Problems {
		if p.Unbuilt {
			return true
		}
	}
	return false
}
