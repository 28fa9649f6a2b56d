package analyze

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// maxRuns caps the runs per execution joinFacts counts.
const maxRuns = 1 << 20

// joinFacts holds, per node index, how many times the node runs in one
// execution when parallel branches join on one input, and whether those
// runs repeat the same output.
//
// n8n waits for a node's inputs only when it has more than one: a node
// whose main connections all enter input 0 goes on the stack each time a
// parent passes it items, so k parallel branches (nodes fed from the same
// output of one node) joined there run it k times, and everything after
// it too, under the v1 and the legacy order alike (n8n-core
// execution-engine/workflow-execute.js addNodeToBeExecuted:
// numberOfInputs; docs/n8n-facts.md "Parallel branches joined on one
// input"). The exclusive outputs of one node (an If's true and false, a
// Switch's rules, an error output) split its items: branches from
// different outputs are counted as one, the most of them, and so are the
// branches of different triggers, which never run in one execution. A
// Switch with options.allMatchingOutputs sends an item down every rule it
// passes: its outputs are parallel, one output (allOut). Forks at
// different nodes add up when one lies on a branch of the other
// (branchRuns).
type joinFacts struct {
	runs []int32 // runs per execution, 0 when no trigger reaches it
	// join is the node where the runs rose to runs[i]: i itself when its
	// parallel parents add up to more than any one of them, else its
	// parent's join; -1 when runs[i] < 2.
	join []int32
	// same is, when runs[i] >= 2 and every run after the first repeats
	// the output of the first, the node that builds that output without
	// its own items (sameOutput): i itself or one before it since the
	// join; -1 otherwise.
	same []int32
}

// joinLabel is the branch a node is on: the nearest output before it
// that feeds several nodes (they run side by side), that output and the
// node it feeds on this branch; or, out and child -1, the node after
// which it is the only way on (a node with several parents that are not
// alternatives, or none). Parents with one label are alternatives: their
// ways part only at the exclusive outputs of a node (an If's true and
// false, a Switch's rules, an error output), which take one way per item.
type joinLabel struct{ node, out, child int32 }

// joinIn is one parent of a node, with its branch's label, its runs and
// the triggers that reach it.
type joinIn struct {
	lab       joinLabel
	runs      int32
	mask      uint64
	from, out int32
}

// allOut is the output key of every regular output of a Switch that
// sends an item down every rule it matches (options.allMatchingOutputs):
// its outputs run side by side, as one output's nodes do.
const allOut = -2

// maxLifts bounds how far branchRuns walks up the fan-outs for one node,
// so that every node's count stays constant work.
const maxLifts = 64

// branchRuns counts, for the runs of trigger bit, the runs the parents
// ins give. Parents on one branch (one label) are alternatives: the most
// of them counts. The branches one output fans out to run side by side
// and add up, and their sum stands for the branch the fanning node is on
// (lab[node], depth[node] fan-outs deep), where it meets the other
// parents: so branches that fork at different nodes add up too when one
// fork lies on a branch of the other. Deepest first; what is left at the
// top (labels of different joins or triggers) counts as alternatives.
func branchRuns(ins []joinIn, bit uint64, lab []joinLabel, depth []int32) int32 {
	type entry struct {
		lab  joinLabel
		runs int32
	}
	var es []entry
	for _, x := range ins {
		if x.mask&bit != 0 {
			es = append(es, entry{x.lab, x.runs})
		}
	}
	deep := func(l joinLabel) int32 {
		if l.out == -1 {
			return 0
		}
		return depth[l.node] + 1
	}
	for lifts := 0; len(es) > 1 && lifts < maxLifts; lifts++ {
		d := int32(0)
		for _, e := range es {
			d = max(d, deep(e.lab))
		}
		if d == 0 {
			break
		}
		// Alternatives on one branch: the most; then each fan-out's
		// branches add up, and the sum moves to the fanning node's branch.
		slices.SortFunc(es, func(a, b entry) int { return cmpLabel(a.lab, b.lab) })
		out := es[:0]
		for k := 0; k < len(es); {
			if deep(es[k].lab) != d {
				out = append(out, es[k])
				k++
				continue
			}
			l, sum := es[k].lab, int32(0)
			for k < len(es) && es[k].lab.node == l.node && es[k].lab.out == l.out {
				c, most := es[k].lab.child, int32(0)
				for ; k < len(es) && es[k].lab == (joinLabel{l.node, l.out, c}); k++ {
					most = max(most, es[k].runs)
				}
				sum = min(sum+most, maxRuns)
			}
			out = append(out, entry{lab[l.node], sum})
		}
		es = out
		// The same branch reached twice: alternatives.
		slices.SortFunc(es, func(a, b entry) int { return cmpLabel(a.lab, b.lab) })
		merged := es[:0]
		for _, e := range es {
			if n := len(merged); n > 0 && merged[n-1].lab == e.lab {
				merged[n-1].runs = max(merged[n-1].runs, e.runs)
				continue
			}
			merged = append(merged, e)
		}
		es = merged
	}
	best := int32(0)
	for _, e := range es {
		best = max(best, e.runs)
	}
	return best
}

// cmpLabel orders labels.
func cmpLabel(a, b joinLabel) int {
	switch {
	case a.node != b.node:
		return int(a.node) - int(b.node)
	case a.out != b.out:
		return int(a.out) - int(b.out)
	}
	return int(a.child) - int(b.child)
}

// fanKey is one output of one node.
type fanKey struct{ node, out int32 }

// joins computes joinFacts once per graph, nil when no node can run
// twice in one execution (mayRepeat): most graphs, and no reader needs
// more of them.
func (g *Graph) joins() *joinFacts {
	g.joinOnce.Do(func() {
		if g.mayRepeat() {
			g.joinFacts = g.countJoins()
		}
	})
	return g.joinFacts
}

// joinLive reports whether e is a main edge joinFacts follows: not dead,
// and not inside a cycle (a loop's rounds are counted by the loop rules).
func (g *Graph) joinLive(e *Edge) bool {
	return e.Type == ConnMain && g.comp[e.from] != g.comp[e.to] && !g.dead(e)
}

// mayJoinLive is joinLive without its dead test, which costs more than
// the edges it rules out spare mayRepeat.
func (g *Graph) mayJoinLive(e *Edge) bool {
	return e.Type == ConnMain && g.comp[e.from] != g.comp[e.to]
}

// mayRepeat reports whether g holds what a node's runs need to add up in
// countJoins: a node that live main edges enter from two different
// outputs, none of them into a second input (ins then keeps two parents;
// a node with one way in runs as often as that parent, and one that waits
// for a second input runs once), and an output wired to two different
// nodes (a fan: without one every branch label is a node's own and
// branchRuns only takes the most). A Switch's outputs count as one output
// here, as outKey counts them when it sends to all matching rules.
func (g *Graph) mayRepeat() bool {
	join, fan := false, false
	var buf [8]*Edge
	for i := range g.Nodes {
		if !join {
			var first *Edge
			for _, e := range g.ins(i) {
				if e.Input > 0 || !g.mayJoinLive(e) {
					continue
				}
				if first == nil {
					first = e
				} else if e.from != first.from || e.Output != first.Output {
					join = true
					break
				}
			}
		}
		if !fan {
			sw := g.Nodes[i].Type == n8nschema.TypeSwitch
			es := buf[:0]
			for _, e := range g.outs(i) {
				if g.mayJoinLive(e) {
					es = append(es, e)
				}
			}
			for a := 0; a < len(es) && !fan; a++ {
				for _, b := range es[a+1:] {
					if b.to != es[a].to && (sw || b.Output == es[a].Output) {
						fan = true
						break
					}
				}
			}
		}
		if join && fan {
			return true
		}
	}
	return false
}

// countJoins computes joinFacts: one pass over the main edges in
// topological order of their components (edges inside a cycle are left
// out: a loop's rounds are counted by the loop rules).
func (g *Graph) countJoins() *joinFacts {
	n := len(g.Nodes)
	f := &joinFacts{runs: make([]int32, n), join: make([]int32, n), same: make([]int32, n)}
	lab := make([]joinLabel, n)
	depth := make([]int32, n) // the fan-outs above lab[i]: 0 for a join's or trigger's own branch
	mask := make([]uint64, n) // the triggers that reach each node, one bit each (mod 64)
	waits := make([]bool, n)
	live := g.joinLive
	allMatch := make([]bool, n)
	for i, nd := range g.Nodes {
		allMatch[i] = nd.Type == n8nschema.TypeSwitch && nd.TypeVersion >= 3 &&
			(nd.Params().Get("mode").Str() == "" || nd.Params().Get("mode").Str() == "rules") &&
			nd.Params().Get("options.allMatchingOutputs").True()
	}
	// outKey is the output e leaves by, every regular output of a
	// Switch that sends to all matching rules being one.
	outKey := func(e *Edge) int32 {
		if allMatch[e.from] && !e.Error {
			return allOut
		}
		return int32(e.Output)
	}
	// The outputs that feed more than one node (one output wired
	// twice to a node counts once): each node's live edges sorted by
	// output and target, two targets side by side.
	fans := map[fanKey]bool{}
	var outs [][2]int32
	for u := range g.Nodes {
		outs = outs[:0]
		for _, e := range g.outs(u) {
			if live(e) {
				outs = append(outs, [2]int32{outKey(e), e.to})
			}
		}
		if len(outs) < 2 {
			continue
		}
		slices.SortFunc(outs, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
		for k := 1; k < len(outs); k++ {
			if outs[k][0] == outs[k-1][0] && outs[k][1] != outs[k-1][1] {
				fans[fanKey{int32(u), outs[k][0]}] = true
			}
		}
	}
	for _, e := range g.Edges {
		if e.Type == ConnMain && e.Input > 0 {
			waits[e.to] = true
		}
	}
	for _, e := range g.Unrun {
		if e.Type == ConnMain && e.Input > 0 {
			if j, ok := g.index(e.To); ok {
				waits[j] = true
			}
		}
	}
	starts := g.starts(nil)
	for k, s := range starts {
		f.runs[s], mask[s] = 1, 1<<(k%64)
	}
	// Components are numbered in reverse topological order.
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return int(g.comp[b]) - int(g.comp[a]) })
	var ins []joinIn
	for _, i := range order {
		f.join[i], f.same[i] = -1, -1
		lab[i] = joinLabel{i, -1, -1}
		if f.runs[i] > 0 || g.sub[i] {
			continue // a trigger, or a sub-node run by its root
		}
		ins = ins[:0]
		for _, e := range g.ins(int(i)) {
			p := e.from
			if !live(e) || f.runs[p] == 0 {
				continue
			}
			l := lab[p]
			if fans[fanKey{p, outKey(e)}] {
				l = joinLabel{p, outKey(e), i} // one of the branches p's output starts
			}
			ins = append(ins, joinIn{l, f.runs[p], mask[p], p, int32(e.Output)})
		}
		// One output wired twice to this node counts once.
		slices.SortFunc(ins, func(a, b joinIn) int {
			if a.lab != b.lab {
				return cmpLabel(a.lab, b.lab)
			}
			if a.from != b.from {
				return int(a.from) - int(b.from)
			}
			return int(a.out) - int(b.out)
		})
		ins = slices.CompactFunc(ins, func(a, b joinIn) bool { return a.from == b.from && a.out == b.out })
		if len(ins) == 0 {
			continue
		}
		best, top := int32(0), int32(-1) // the parent with the most runs
		for _, x := range ins {
			mask[i] |= x.mask
			if x.runs > best {
				best, top = x.runs, x.from
			}
		}
		if ins[0].lab == ins[len(ins)-1].lab {
			lab[i] = ins[0].lab // one way in, or alternatives that meet again
			if l := lab[i]; l.out != -1 {
				depth[i] = depth[l.node] + 1
			}
		}
		runs := best
		if !waits[i] && len(ins) > 1 {
			// Per trigger: branches that never run in one execution
			// do not add up.
			for m := mask[i]; m != 0; m &= m - 1 {
				runs = max(runs, branchRuns(ins, uint64(1)<<bits.TrailingZeros64(m), lab, depth))
			}
		}
		f.runs[i] = runs
		switch {
		case runs < 2:
		case runs > best:
			f.join[i] = i
		default:
			f.join[i] = f.join[top]
		}
		if runs < 2 {
			continue
		}
		// The runs repeat one output when this node builds it
		// without its items, or a parent whose runs do feeds it.
		if g.sameOutput(int(i), f.runs) {
			f.same[i] = i
			continue
		}
		for _, x := range ins {
			if f.same[x.from] >= 0 && x.runs >= 2 {
				f.same[i] = f.same[x.from]
				break
			}
		}
	}
	return f
}

// sameOutput reports whether node i, run more than once in an execution,
// builds the same output each run: it reads nothing of its own items
// ($json, $input, $binary, a Code node's items) and reads, by name, only
// nodes that run fewer times than it (a sibling branch, a node before the
// fork: $('A').first(), .all(), $node["A"]), or, for a node whose output
// is its parameters alone (Code, a Set that keeps no input field, an
// HTTP Request, a message), nothing at all.
func (g *Graph) sameOutput(i int, runs []int32) bool {
	nd := g.Nodes[i]
	code := n8nschema.IsCode(nd.Type)
	var b strings.Builder
	nd.Params().Scalars(func(v n8nschema.Value) bool {
		if v.Kind() == n8nschema.String {
			b.WriteString(v.Str())
			b.WriteByte('\n')
		}
		return true
	})
	s := b.String()
	if readsOwnItems(s, code) {
		return false
	}
	named := false
	for at := 0; ; {
		_, end, ref, ok := nextNamedRef(s, at)
		if !ok {
			break
		}
		at = end
		named = true
		if j := g.Node(ref); j != nil {
			if k, ok := g.index(j); ok && runs[k] >= runs[i] {
				return false // a node of this run's own chain
			}
		}
	}
	if named {
		return !autoMaps(nd) && !keepsItems(nd)
	}
	switch {
	case code, n8nschema.IsHTTPRequest(nd.Type):
		return true
	case nd.Type == n8nschema.TypeSet:
		return !keepsItems(nd)
	}
	return g.effect(i).Message
}

// readsOwnItems reports whether parameter text s reads the items the node
// is given: $json, $input, $binary, $item, $prevNode, or in a Code
// node's code the legacy items and item variables.
func readsOwnItems(s string, code bool) bool {
	for _, w := range []string{"$json", "$input", "$binary", "$item(", "$prevNode", "$items()"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return code && (legacyItemsRE.MatchString(s) && !itemsDeclaredRE.MatchString(s) ||
		legacyItemRE.MatchString(s) && !itemDeclaredRE.MatchString(s))
}

// The Code node's legacy variables for its input (items, item), and their
// declarations in code that names its own variable so
// ($('A').all().map(item => …)).
var (
	legacyItemsRE   = lazyregexp.New(`(^|[^\w$.])items\b`)
	itemsDeclaredRE = lazyregexp.New(`(const|let|var)\s+items\b|\bitems\s*=>|\(\s*items\s*[,)]`)
	legacyItemRE    = lazyregexp.New(`(^|[^\w$.])item\b`)
	itemDeclaredRE  = lazyregexp.New(`(const|let|var)\s+item\b|\bitem\s*=>|\(\s*item\s*[,)]|,\s*item\s*\)`)
)

// autoMaps reports a node that writes its input item's fields as they
// come (a sheet's or table's "map automatically"), whatever its
// expressions read.
func autoMaps(n *n8nschema.Node) bool {
	found := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		found = found || v.Kind() == n8nschema.String && strings.HasPrefix(v.Str(), "autoMap")
		return true
	})
	return found
}

// RepeatedRun is a node that runs more than once in one execution
// because parallel branches join on one input before it, each run
// repeating the output of the first (joinFacts).
type RepeatedRun struct {
	Join     *n8nschema.Node   // where the branches join
	Branches []*n8nschema.Node // the join's parents, in edge order
	Same     *n8nschema.Node   // the node that builds its output without its items
	Runs     int               // n's runs per execution
	// Gate is the first node from Join on whose exclusive outputs (an
	// If's true and false, a Switch's rules, an error output) lead to n
	// by one output only, GateEdge one edge of it: the runs repeat n only
	// when they take it. Nil when no such choice lies between them.
	Gate     *n8nschema.Node
	GateEdge *Edge
}

// RepeatedRuns reports whether n's runs in one execution repeat one
// output (see RepeatedRun).
func (g *Graph) RepeatedRuns(n *n8nschema.Node) (RepeatedRun, bool) {
	i, found := g.index(n)
	if !found {
		return RepeatedRun{}, false
	}
	f := g.joins()
	if f == nil || f.same[i] < 0 || f.join[i] < 0 {
		return RepeatedRun{}, false
	}
	var branches []*n8nschema.Node
	j := int(f.join[i])
	for _, e := range g.ins(j) {
		if e.Type == ConnMain && !g.dead(e) && f.runs[e.from] > 0 && g.comp[e.from] != g.comp[j] && !slices.Contains(branches, e.From) {
			branches = append(branches, e.From)
		}
	}
	same := g.Nodes[f.same[i]]
	if _, throws := g.joinReads[f.same[i]]; throws {
		// A join that reads a later branch by name (laterSiblingRead)
		// throws on its first run that has items and stops the execution;
		// it succeeds at most once, on the last branch's run: no repeat.
		return RepeatedRun{}, false
	}
	if _, throws := g.joinReads[int32(j)]; throws {
		return RepeatedRun{}, false
	}
	if g.Workflow.Settings.ExecutionOrder == "v1" && readsBranches(same, branches) {
		// Under v1 the first run comes right after the first branch, and
		// an expression that reads another branch by name throws "Node
		// hasn't been executed": the execution stops there, nothing
		// repeats (docs/n8n-facts.md, part EV).
		return RepeatedRun{}, false
	}
	rr := RepeatedRun{Join: g.Nodes[j], Branches: branches, Same: same, Runs: int(f.runs[i])}
	rr.Gate, rr.GateEdge = g.gateBetween(j, i)
	return rr, true
}

// gateBetween returns the first node from join j on (j itself included,
// nearest first) whose outputs are exclusive (an If's true and false, a
// Switch's rules unless it sends to all matching ones, a Filter's kept and
// discarded items, an error output) and that leads to node i by one of
// them only, with an edge of that output; nil when every way from j to i
// passes no such choice. The runs repeat i only when they take that output.
func (g *Graph) gateBetween(j, i int) (*n8nschema.Node, *Edge) {
	live := func(e *Edge) bool { return e.Type == ConnMain && !g.dead(e) }
	// back: the nodes from which i is reached.
	back := map[int]bool{i: true}
	queue := []int{i}
	for h := 0; h < len(queue); h++ {
		for _, e := range g.ins(queue[h]) {
			if live(e) && !back[int(e.from)] {
				back[int(e.from)] = true
				queue = append(queue, int(e.from))
			}
		}
	}
	seen := map[int]bool{j: true}
	queue = append(queue[:0], j)
	tried := 0
	for h := 0; h < len(queue); h++ {
		k := queue[h]
		if k == i {
			continue
		}
		var way *Edge
		ways := 0
		for _, e := range g.outs(k) {
			if !live(e) || !back[int(e.to)] {
				continue
			}
			if way == nil || way.Output != e.Output || way.Error != e.Error {
				if way == nil {
					way = e
				}
				ways++
			}
			if !seen[int(e.to)] {
				seen[int(e.to)] = true
				queue = append(queue, int(e.to))
			}
		}
		if ways == 1 && way != nil && (way.Error || g.exclusiveOutputs(k)) {
			// It gates the write only when every way from j to i passes
			// it; a few candidates are tried, each one walk.
			if tried++; tried > 8 {
				return nil, nil
			}
			if !g.reachesAvoiding([]*n8nschema.Node{g.Nodes[j]}, waitCut{node: g.Nodes[k], out: -1}, g.Nodes[i]) {
				return g.Nodes[k], way
			}
		}
	}
	return nil, nil
}

// exclusiveOutputs reports a node whose regular outputs take one way per
// item: an If, a Filter, a Switch that sends an item down its first
// matching rule only. (An error output is one way too, but only the way
// through it is a choice: the success output is the one every item that
// works takes.)
func (g *Graph) exclusiveOutputs(k int) bool {
	nd := g.Nodes[k]
	switch nd.Type {
	case n8nschema.TypeIf, n8nschema.TypeFilter:
		return true
	case n8nschema.TypeSwitch:
		return !(nd.TypeVersion >= 3 &&
			(nd.Params().Get("mode").Str() == "" || nd.Params().Get("mode").Str() == "rules") &&
			nd.Params().Get("options.allMatchingOutputs").True())
	}
	return false
}

// readsBranches reports a node, not a Code node (whose read may sit in a
// try), whose expressions read two or more of branches by name: one of
// them has not run when it first runs under v1.
func readsBranches(n *n8nschema.Node, branches []*n8nschema.Node) bool {
	if n8nschema.IsCode(n.Type) {
		return false
	}
	read, seen := 0, make([]bool, len(branches))
	eachNamedRead(n, func(ref string) bool {
		for k, b := range branches {
			if !seen[k] && b.Name == ref {
				read, seen[k] = read+1, true
			}
		}
		return read < 2
	})
	return read >= 2
}
