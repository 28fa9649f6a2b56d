package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// RootCalls is one root of a sub-node that several roots drive, with the
// calls per item it makes to the sub-node (Operation.SharedBy).
type RootCalls struct {
	Root      *n8nschema.Node
	Calls     int
	Unbounded bool
	// Attempts are the wire attempts of each of the root's calls: its
	// own retries and its callers' times the sub-node's own (Operation.
	// Attempts is the worst root's); AttemptsUnbounded when they have no
	// bound.
	Attempts          int
	AttemptsUnbounded bool
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
// larger. Roots that no one item reaches together (split by an If, a
// Filter or a Switch, or after different triggers) are alternatives: the
// larger (exclusiveRoots).
type shareAt struct {
	roots []int32 // the roots' vertices, in edge order
	at    map[int32]int
	got   []ctx // each root's context as it drives the sub-node
	got0  []ctx // the same without the innermost retrying call (in0)
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
	at := make(map[int32]int, k)
	for i, r := range roots {
		at[r] = i
	}
	a.shared[int32(u)] = &shareAt{roots: roots, at: at, got: make([]ctx, k), got0: make([]ctx, k), has: make([]bool, k)}
}

// add records the context one root brings (the worse of two edges from
// one root: a model wired twice to one agent is one root's calls).
func (s *shareAt) add(root int32, c, c0 ctx) {
	i, ok := s.at[root]
	if !ok {
		return
	}
	if s.has[i] {
		c, c0 = worse(s.got[i], c), worse(s.got0[i], c0)
	}
	s.got[i], s.got0[i], s.has[i] = c, c0, true
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
	// The sets no item can run together are ruled out once, for a few
	// roots and while the graph's walks stay within a few times its size
	// (exclusiveChecks: each pair walks the graph); past either, every
	// root counts, an upper bound.
	k := len(idx)
	var ok []bool // by bit set of idx: no two exclusive
	if k <= maxSharedRoots && a.exclusiveBudget(int(wi), k*(k-1)/2) {
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
		if ok == nil {
			// All of them (no set is tried one by one: 1<<k would
			// overflow past 62 roots).
			for x := range k {
				bestSum = AddSat(bestSum, got[idx[x]].fan)
			}
			if bestSum > c.fan {
				c.fan = bestSum
			}
			return c, -1
		}
		for m := 1; m < 1<<k; m++ {
			if !ok[m] {
				continue
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
		if set < 0 || set&(1<<x) != 0 {
			c := got[idx[x]]
			s.by = append(s.by, RootCalls{Root: a.nodes[s.roots[idx[x]]], Calls: c.fan, Unbounded: c.fanUnb, Attempts: c.att, AttemptsUnbounded: c.unb})
		}
	}
	if len(s.by) < 2 {
		s.by = nil
	}
	return in, in0
}

// withOwn gives the roots' attempts the sub-node's own retry layers
// (localFactors), as Operation.Attempts has them.
func (s *shareAt) withOwn(local []Factor) []RootCalls {
	for i := range s.by {
		for _, f := range local {
			s.by[i].Attempts = MulSat(s.by[i].Attempts, f.Value)
		}
	}
	return s.by
}

// exclusiveRoots reports two main nodes i and j that no item runs both
// of. n8n sends an item down every connection of the output it leaves
// by (a plain fan-out copies it to each), but an If, a Filter, a
// first-match Switch or a Sentiment Analysis sends it down one output
// only, and a node that fails it sends it down its error output instead
// of its others. So one item runs both only when one comes after the
// other along main connections, or some node sends the item towards
// each along two connections one item takes together: two connections of
// one output (a trigger's one output included), or two outputs of a node
// whose outputs are not exclusive (a Text Classifier's categories, a
// Loop Over Items' two outputs: an upper bound). A start that reaches
// only one of them (different triggers) never runs the other in its
// execution. Roots split by different Ifs on different routes are
// alternatives as much as roots on the two outputs of one If are.
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
	var seen []bool
	together := false // a start reaches both
	starts := g.starts(nil)
	if len(starts) > maxSharedRoots {
		// Many starts: each would be a walk of the graph for each pair;
		// taken as one execution, the sum, an upper bound.
		together, starts = true, nil
	}
	for _, s := range starts {
		seen = reach(int(s), seen)
		if seen[i] && seen[j] {
			together = true
			break
		}
	}
	if !together {
		// Different triggers (or, with none, different first nodes, one
		// of which a run from the editor starts): never one execution.
		return true
	}
	toI, toJ := g.itemReachingTo(i, live), g.itemReachingTo(j, live)
	if toI[j] != 0 || toJ[i] != 0 {
		return false // one after the other
	}
	// by is whether an item that edge e brings on goes on to the root
	// whose marks are to.
	by := func(e *Edge, to []uint8) bool {
		return to[e.to] == 2 || to[e.to] == 1 && g.comp[e.from] != g.comp[e.to]
	}
	for k, nd := range g.Nodes {
		out := g.outs(k)
		if len(out) < 2 {
			continue
		}
		// A Sentiment Analysis sends each item down the one output of the
		// sentiment the model names (SentimentAnalysis.node.js L202-254:
		// returnData[sentimentIndex]). A Text Classifier does not: it sends
		// the item down every category the model marks true, multiClass
		// off only asking the model for one (TextClassifier.node.js
		// L196-198, L229-233), so its branches add up.
		oneOut := g.exclusiveOutputs(k) || nd.Type == n8nschema.TypeSentimentAnalysis
		// Two distinct live edges, one towards each root, that one item
		// takes together: of one output, or of any outputs of a node whose
		// outputs are not exclusive, and both of the error output or
		// neither (an item fails or it does not). Counted by group, so a
		// node's edges are read once.
		type group struct {
			output int
			err    bool
		}
		var counts map[group]*[3]int // edges towards i, towards j, towards both
		for _, e := range out {
			if !live(e) {
				continue
			}
			ti, tj := by(e, toI), by(e, toJ)
			if !ti && !tj {
				continue
			}
			key := group{err: e.Error}
			if oneOut {
				key.output = e.Output
			}
			if counts == nil {
				counts = map[group]*[3]int{}
			}
			c := counts[key]
			if c == nil {
				c = new([3]int)
				counts[key] = c
			}
			if ti {
				c[0]++
			}
			if tj {
				c[1]++
			}
			if ti && tj {
				c[2]++
			}
		}
		for _, c := range counts {
			if c[0] >= 1 && c[1] >= 1 && !(c[0] == 1 && c[1] == 1 && c[2] == 1) {
				return false // one item goes down both
			}
		}
	}
	return true
}

// exclusiveChecks bounds the pairs of roots whose exclusivity one graph's
// shared sub-nodes ask (each walks the graph): past it, roots count
// together, an upper bound, so a workflow with thousands of shared models
// stays linear.
const exclusiveChecks = 256

// exclusiveBudget takes n pair checks from workflow wi's budget, and
// reports whether they were left.
func (a *amp) exclusiveBudget(wi, n int) bool {
	if a.exclUsed == nil {
		a.exclUsed = make([]int, len(a.gs))
	}
	if a.exclUsed[wi]+n > exclusiveChecks {
		return false
	}
	a.exclUsed[wi] += n
	return true
}

// itemReachingTo marks the nodes from which one item goes on to node t
// along the edges follow keeps: 2 for a node an item at which goes on to
// t, 1 for a Loop Over Items that leads to t by its loop output only,
// whose item goes on to t only when it comes from outside the loop. An
// item that comes back to a Loop Over Items waits for the batch and
// leaves by the done output; the loop output sends the next batch, other
// items (n8n-nodes-base dist/nodes/SplitInBatches/v3/
// SplitInBatchesV3.node.js L93-148: the items that come back are kept in
// processedItems for the done output, and the loop output takes the next
// batchSize of the items not yet sent).
func (g *Graph) itemReachingTo(t int, follow func(*Edge) bool) []uint8 {
	mark := make([]uint8, len(g.Nodes))
	mark[t] = 2
	queue := []int32{int32(t)}
	for h := 0; h < len(queue); h++ {
		v := queue[h]
		for _, e := range g.ins(int(v)) {
			if e.Type != ConnMain || !follow(e) {
				continue
			}
			if mark[v] == 1 && g.comp[e.from] == g.comp[v] {
				continue // back into its loop: the next batch, not this item
			}
			u := e.from
			m := uint8(2)
			if nd := g.Nodes[u]; nd.Type == n8nschema.TypeSplitInBatches && !e.Error && e.Output == sibLoopOutput(nd) && g.cyclic[g.comp[u]] {
				m = 1
			}
			if m > mark[u] {
				mark[u] = m
				queue = append(queue, u)
			}
		}
	}
	return mark
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

// RootAttemptsDiffer reports a sub-node whose roots (SharedBy) try their
// calls a different number of times, every figure bounded and the roots'
// calls making up CallsPerItem: its wire attempts per item are then the
// sum over roots of calls × that root's attempts (WireAttemptsPerItem),
// less than CallsPerItem × Attempts, which takes the worst root's
// attempts for every call. Attempts stays the worst root's: one logical
// call's attempts, what RS101's budget reads.
func (op *Operation) RootAttemptsDiffer() bool {
	if len(op.SharedBy) < 2 || op.Unbounded || op.CallsUnbounded {
		return false
	}
	calls, differ := 0, false
	for _, r := range op.SharedBy {
		if r.Unbounded || r.AttemptsUnbounded || r.Attempts < 1 {
			return false
		}
		calls = AddSat(calls, r.Calls)
		differ = differ || r.Attempts != op.SharedBy[0].Attempts
	}
	return differ && calls == op.CallsPerItem
}

// WireAttemptsPerItem is the wire attempts one item makes to op's
// dependency: CallsPerItem × Attempts, or, for a sub-node whose roots
// try their calls a different number of times (RootAttemptsDiffer), the
// sum over its roots of calls × attempts: a model that a retrying chain
// and a chain that does not retry both call gets 3 + 1 attempts, not
// 2 × 3. Meaningless when Unbounded or CallsUnbounded.
func (op *Operation) WireAttemptsPerItem() int {
	if op.RootAttemptsDiffer() {
		n := 0
		for _, r := range op.SharedBy {
			n = AddSat(n, MulSat(r.Calls, r.Attempts))
		}
		return n
	}
	return MulSat(max(op.CallsPerItem, 1), max(op.Attempts, 1))
}
