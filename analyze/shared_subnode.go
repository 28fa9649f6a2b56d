package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// RootCalls is one root of a sub-node that several roots drive, with the
// calls per item it makes to the sub-node (Operation.SharedBy).
type RootCalls struct {
	Root      *n8nschema.Node
	Calls     int
	Unbounded bool
}

// maxSharedRoots bounds the roots whose sets shareAt.merge tries one by
// one; past it every root counts (the sum, an upper bound).
const maxSharedRoots = 12

// shareAt is a sub-node that two or more roots drive (a chat model wired
// to two chains, an embeddings node to a vector store's insert and its
// retriever). n8n gives each root that runs its own supplyData of the
// sub-node and the root calls it as often as it needs
// (n8n-core dist/execution-engine/node-execution-context/utils/
// get-input-connection-data.js L245-302: getInputConnectionData calls
// supplyData of every connected sub-node for the root that asks), so an
// item that runs both roots makes the calls of both: their sum, not the
// larger. Roots on exclusive outputs of one If, Filter or Switch (an item
// takes one) are alternatives: the larger (exclusiveRoots).
type shareAt struct {
	roots []int32 // the roots' vertices, in edge order
	got   []ctx   // each root's context as it drives the sub-node
	got0  []ctx   // the same without the innermost retrying call (in0)
	has   []bool
	// by are the roots whose calls the sub-node's calls per item sum,
	// when two or more: Operation.SharedBy.
	by []RootCalls
}

// shareSubNode registers sub-node vertex u of workflow wi when it has
// two or more enabled roots (found while its drive edges are built): the
// only vertices whose contexts merge by sum.
func (a *amp) shareSubNode(u int, roots []int32) {
	if a.shared == nil {
		a.shared = map[int32]*shareAt{}
	}
	k := len(roots)
	a.shared[int32(u)] = &shareAt{roots: roots, got: make([]ctx, k), got0: make([]ctx, k), has: make([]bool, k)}
}

// add records the context one root brings (the worse of two edges from
// one root: a model wired twice to one agent is one root's calls).
func (s *shareAt) add(root int32, c, c0 ctx) {
	for i, r := range s.roots {
		if r != root {
			continue
		}
		if s.has[i] {
			c, c0 = worse(s.got[i], c), worse(s.got0[i], c0)
		}
		s.got[i], s.got0[i], s.has[i] = c, c0, true
		return
	}
}

// merge gives the sub-node's contexts their calls per item: the most,
// over the sets of its roots that one item can run (no two on exclusive
// outputs), of the sum of their calls. Attempts, chain and callers stay
// those of worse (in, in0). quiet says which of the two the operation
// takes (the roots it records come from that one).
func (s *shareAt) merge(a *amp, v int32, in, in0 ctx, quiet bool) (ctx, ctx) {
	var idx []int
	for i, h := range s.has {
		if h {
			idx = append(idx, i)
		}
	}
	if len(idx) < 2 {
		return in, in0
	}
	wi := a.wfOf[v]
	g := a.gs[wi]
	excl := func(i, j int) bool {
		ri, rj := int(s.roots[i])-a.base[wi], int(s.roots[j])-a.base[wi]
		return g.exclusiveRoots(ri, rj)
	}
	// The sets no item can run together are ruled out once.
	k := len(idx)
	var ok []bool // by bit set of idx: no two exclusive
	if k <= maxSharedRoots {
		pair := make([]bool, k*k)
		for x := range k {
			for y := x + 1; y < k; y++ {
				pair[x*k+y] = excl(idx[x], idx[y])
			}
		}
		ok = make([]bool, 1<<k)
		for m := 1; m < 1<<k; m++ {
			ok[m] = true
			for x := 0; x < k && ok[m]; x++ {
				for y := x + 1; y < k; y++ {
					if m&(1<<x) != 0 && m&(1<<y) != 0 && pair[x*k+y] {
						ok[m] = false
						break
					}
				}
			}
		}
	}
	best := func(got []ctx, c ctx) (ctx, int) {
		if c.fanUnb {
			return c, 0 // an unbounded fan stays unbounded
		}
		bestSum, bestSet := 0, 0
		for m := 1; m < 1<<k; m++ {
			if ok != nil && !ok[m] {
				continue
			}
			if ok == nil && m != 1<<k-1 {
				continue // too many roots to try: all of them
			}
			sum := 0
			for x := range k {
				if m&(1<<x) != 0 {
					sum = AddSat(sum, got[idx[x]].fan)
				}
			}
			if sum > bestSum {
				bestSum, bestSet = sum, m
			}
		}
		if bestSum > c.fan {
			c.fan = bestSum
		}
		return c, bestSet
	}
	in, set := best(s.got, in)
	in0, set0 := best(s.got0, in0)
	got := s.got
	if quiet {
		set, got = set0, s.got0
	}
	s.by = s.by[:0]
	for x := range k {
		if set&(1<<x) != 0 {
			c := got[idx[x]]
			s.by = append(s.by, RootCalls{Root: a.nodes[s.roots[idx[x]]], Calls: c.fan, Unbounded: c.fanUnb})
		}
	}
	if len(s.by) < 2 {
		s.by = nil
	}
	return in, in0
}

// exclusiveRoots reports two main nodes i and j that no item runs both
// of: neither comes after the other, and they lie on different outputs
// of one If, Filter, Switch or Sentiment Analysis that sends an item down
// one output only (exclusiveOutputs, the fact RS206's repeated runs
// read), which every way from the starts to either passes and which
// leads to each by one output only; or no start reaches both (different triggers, never one
// execution). Two roots on one branch one after the other, or on the
// branches one output fans out to, are not: their calls add up.
func (g *Graph) exclusiveRoots(i, j int) bool {
	// A root that is itself a sub-node (an output parser that fixes with
	// the model, an agent used as a tool) runs where the main node it
	// hangs from runs: that node's place decides.
	i, j = g.mainRoot(i), g.mainRoot(j)
	if i < 0 || j < 0 || i == j {
		return false // its calls add to the other's
	}
	n := len(g.Nodes)
	live := func(e *Edge) bool { return e.Type == ConnMain && !g.dead(e) }
	reach := func(from int, seen []bool) []bool {
		if seen == nil {
			seen = make([]bool, n)
		} else {
			clear(seen)
		}
		g.bfs([]int32{int32(from)}, seen, nil, live)
		return seen
	}
	ri := reach(i, nil)
	if ri[j] {
		return false // one after the other
	}
	if reach(j, ri)[i] {
		return false
	}
	starts := g.starts(nil)
	startNodes := make([]*n8nschema.Node, len(starts))
	var seen []bool
	together := false // a start reaches both
	for x, s := range starts {
		startNodes[x] = g.Nodes[s]
		seen = reach(int(s), seen)
		together = together || seen[i] && seen[j]
	}
	if !together {
		// Different triggers (or, with none, different first nodes, one
		// of which a run from the editor starts): never one execution.
		return true
	}
	for k, nd := range g.Nodes {
		// A Sentiment Analysis sends each item down the one output of the
		// sentiment the model names (SentimentAnalysis.node.js L202-254:
		// returnData[sentimentIndex]). A Text Classifier does not: it sends
		// the item down every category the model marks true, multiClass
		// off only asking the model for one (TextClassifier.node.js
		// L196-198, L229-233), so its branches add up.
		if k == i || k == j || !g.exclusiveOutputs(k) && nd.Type != n8nschema.TypeSentimentAnalysis {
			continue
		}
		// The outputs of k that lead to i, and to j.
		oi, oj, ni, nj := -1, -1, 0, 0
		for _, e := range g.outs(k) {
			if !live(e) {
				continue
			}
			key := e.Output
			if e.Error {
				key = -2 - e.Output
			}
			seen = reach(int(e.to), seen)
			if seen[i] && key != oi {
				oi, ni = key, ni+1
			}
			if seen[j] && key != oj {
				oj, nj = key, nj+1
			}
		}
		if ni != 1 || nj != 1 || oi == oj {
			continue
		}
		// Every way to either passes k.
		cut := waitCut{node: g.Nodes[k], out: -1}
		if !g.reachesAvoiding(startNodes, cut, g.Nodes[i]) && !g.reachesAvoiding(startNodes, cut, g.Nodes[j]) {
			return true
		}
	}
	return false
}

// mainRoot is the main node that sub-node i hangs from, through its
// roots one above the other (i itself for a main node); -1 when some
// level has several roots or none.
func (g *Graph) mainRoot(i int) int {
	for steps := 0; g.sub[i]; steps++ {
		rs := g.Roots(g.Nodes[i])
		if len(rs) != 1 || steps > len(g.Nodes) {
			return -1
		}
		k, ok := g.index(rs[0])
		if !ok {
			return -1
		}
		i = k
	}
	return i
}
