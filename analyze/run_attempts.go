package analyze

import (
	"slices"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// RunAttempts is, per dependency (OperationSummary.Identity) that w's
// operations strain (StrainsDependency, bounded), the attempts one item of
// one execution makes on it at worst while it fails: the most along one
// way through the workflow, not the sum over every node that calls it. An
// item leaves a node that chooses by one of its exclusive outputs (an If's
// true or false, a Filter's kept, a Switch that sends an item down its
// first matching rule only: exclusiveOutputs, as RS206 reads them;
// nodes-base dist/nodes/Switch/V3/SwitchV3.node.js, "continue itemLoop"
// unless allMatchingOutputs), and a node that sends a failed item to its
// error output sends it there instead of its regular outputs (n8n-core
// dist/execution-engine/workflow-execute.js handleNodeErrorOutput moves
// each item with an error out of the success list), so only one of those
// ways runs for it; a node's outputs that all receive the item (one output
// to several nodes, a Switch with allMatchingOutputs) run one after
// another in the execution and add up, but only over the branches that go
// on to their end: a branch that reaches a call that fails unhandled ends
// the whole execution there, so a sibling run after it never runs, and of
// the branches that end the run only the one that makes the most is
// counted, beside all those that go on (workflow-execute.js
// processRunExecutionData ends the run at the first node error with no
// continueOnFail, whatever is left on its stack). A cycle is walked once.
// An operation no walk from a start reaches is added whole.
//
// Every live call to the dependency counts, retried or not, and the way
// ends at the first node that calls it and does not continue on failure
// (onError unset or stopWorkflow; n8nschema.Node.ContinuesOnFail): while
// the dependency fails, that node fails after its tries, and n8n ends the
// execution there (workflow-execute.js processRunExecutionData: a node
// error with no continueOnFail stops the run), so the calls to it later on
// the way never happen in that outage. A node that continues on failure
// lets the run go on, and its attempts add to those after it: to its
// regular outputs' (continueRegularOutput), or only to its error output's
// when it has one (continueErrorOutput: the failed item goes there alone,
// handleNodeErrorOutput). A node's own call, and an agent's or chain's
// model and memory, fail its try at the first of them (an agent loads its
// memory and asks its model before any tool runs, and its other calls
// follow only an answer), so a node that makes one of those makes the
// most of them per try, not their sum, and none of its other calls: a
// tool's, a tool's model's, an output parser's (rootCalls). A node that
// makes only such later calls adds them up and does not end the way: a
// tool's error goes back to the model (n8nschema.AgentV3ToolErrorsToModel).
//
// It is never more than every call's attempts once: branches that meet
// again (a Merge) are walked once each, so their common tail would count
// twice, and a sub-node that serves several roots (one model or memory for
// several agents) is weighed at each, with the attempts read at one of
// them (Operation.Attempts). Each node's attempts are per item already
// (Operation.Attempts), so this is the count of one item's way, as theirs
// is.
func RunAttempts(s *Set, w *n8nschema.Workflow, ops []*Operation, sums []OperationSummary) map[string]int {
	g := s.Graph(w)
	strained := map[string]bool{}
	for j := range ops {
		if sm := &sums[j]; sm.StrainsDependency() && !sm.UnboundedWhileDown() && sm.Identity != "" {
			strained[sm.Identity] = true
		}
	}
	if len(strained) == 0 {
		return nil
	}
	calls := map[string]map[*n8nschema.Node]*rootCalls{} // dependency → root → its calls
	for j, op := range ops {
		sm := &sums[j]
		if !strained[sm.Identity] || !sm.Live || sm.Disabled || sm.UnboundedWhileDown() || sm.Dependency == "" {
			continue
		}
		if calls[sm.Identity] == nil {
			calls[sm.Identity] = map[*n8nschema.Node]*rootCalls{}
		}
		roots, _ := g.rootsVia(op.Node)
		for _, r := range roots {
			rc := calls[sm.Identity][r.n]
			if rc == nil {
				rc = &rootCalls{}
				calls[sm.Identity][r.n] = rc
			}
			if r.first {
				rc.first, rc.fails = max(rc.first, sm.Attempts), true
			} else {
				rc.later = AddSat(rc.later, sm.Attempts)
			}
		}
	}
	weight := make(map[string]map[*n8nschema.Node]int, len(calls)) // dependency → root → attempts
	stops := map[*n8nschema.Node]map[string]uint8{}                // root → the dependencies whose way ends there (stopsRun) or goes on by the error output only (errorOnly)
	once := make(map[string]int, len(calls))                       // dependency → every root's attempts once
	for d, byRoot := range calls {
		weight[d] = make(map[*n8nschema.Node]int, len(byRoot))
		for r, rc := range byRoot {
			v := rc.later
			if rc.fails {
				v = rc.first // (its later calls never come)
			}
			weight[d][r] = v
			once[d] = AddSat(once[d], v)
			if k := stopKind(r); rc.fails && k != 0 {
				if stops[r] == nil {
					stops[r] = map[string]uint8{}
				}
				stops[r][d] = k
			}
		}
	}
	// A dependency called at one root makes that root's attempts on any
	// way that passes it, and at most every call's once: no walk can
	// change it. Only those called at several roots are walked, all in
	// one walk.
	out := make(map[string]int, len(weight))
	var multi []string
	for d, wt := range weight {
		out[d] = once[d]
		if len(wt) > 1 {
			multi = append(multi, d)
		}
	}
	if len(multi) == 0 {
		return out
	}
	slices.Sort(multi) // (each run numbers them alike)
	var starts []*n8nschema.Node
	for _, n := range g.Nodes {
		if !g.Reachable(n) || g.Root(n) != nil {
			continue
		}
		entry := true
		for _, e := range g.In(n) {
			if e.Type == ConnMain && !g.dead(e) {
				entry = false
				break
			}
		}
		if entry {
			starts = append(starts, n)
		}
	}
	for d, v := range worstWays(g, weight, stops, multi, starts) {
		out[d] = min(v, once[d])
	}
	return out
}

// OnceWhileDown reports an Unbounded operation of w whose attempts have
// a bound while its dependency fails: each of its unbounded factors is a
// loop of w (a cycle that calls out, KindLoop) that holds the node the
// call fails, and that node fails on it and does not continue on error
// (its own call, or its model's or memory's: rootsVia). While the
// dependency fails, that node fails after its tries and n8n ends the run
// there (n8n-core dist/execution-engine/workflow-execute.js
// processRunExecutionData: handleNodeExecutionError, then the execution
// loop breaks when the error is not continued), so the loop never goes
// round again: a poll loop comes back only with a successful answer. The
// call then makes its Attempts once per item. A call that continues on
// error can go round on the error item, and a tool's call returns its
// error to the agent's model: those keep their unbounded repeats, and so
// does a call repeated by another workflow's loop or a self-trigger.
func OnceWhileDown(g *Graph, w *n8nschema.Workflow, op *Operation) bool {
	if !op.Unbounded {
		return false
	}
	roots, whole := g.rootsVia(op.Node)
	if len(roots) == 0 || !whole {
		// Sub-nodes wired in a cycle (or deeper than maxRootLevel) reach
		// no node of the main graph: nothing says the run ends at a
		// failure, so the repeats stay unbounded.
		return false
	}
	for _, r := range roots {
		if !r.first || stopKind(r.n) != stopsRun {
			return false
		}
	}
	found := false
	for _, f := range op.Factors {
		if !f.Unbounded {
			continue
		}
		if f.Kind != KindLoop || f.Source != w.Source || f.Workflow != w.Label() {
			return false
		}
		held := false
		for _, li := range g.loopsEnding(f.Node, f.Via) {
			if g.Loops[li].Unbounded && g.loopHoldsAll(li, roots) {
				held = true
				break
			}
		}
		if !held {
			return false
		}
		found = true
	}
	return found
}

// loopMembers is the graph's loops read for OnceWhileDown, built once
// (loopsOnce): which loops each node is in, and the loops by the names
// of their Back and Head nodes.
type loopMembers struct {
	in   [][]int32             // by index in Nodes: the indexes in Loops of the loops that hold it
	ends map[[2]string][]int32 // Back's name, Head's name → the indexes in Loops of those loops
}

// loopSets builds g's loopMembers once: every loop's nodes are read once,
// however many operations ask.
func (g *Graph) loopSets() *loopMembers {
	g.loopsOnce.Do(func() {
		m := &loopMembers{}
		if len(g.Loops) > 0 {
			m.in = make([][]int32, len(g.Nodes))
			m.ends = make(map[[2]string][]int32, len(g.Loops))
		}
		for li, l := range g.Loops {
			for _, n := range l.Nodes {
				if i, ok := g.index(n); ok {
					m.in[i] = append(m.in[i], int32(li))
				}
			}
			if l.Back != nil && l.Head != nil {
				k := [2]string{l.Back.Name, l.Head.Name}
				m.ends[k] = append(m.ends[k], int32(li))
			}
		}
		g.loopMembers = m
	})
	return g.loopMembers
}

// loopsEnding returns the indexes in Loops of g's loops whose Back node
// is named back and whose Head node is named head, in the order of Loops.
func (g *Graph) loopsEnding(back, head string) []int32 {
	return g.loopSets().ends[[2]string{back, head}]
}

// loopHoldsAll reports whether loop li of g (its index in Loops) holds
// every root: each root's short list of loops is read (a node is in at
// most one cycle of main connections and one cycle of tools), never the
// loop's nodes.
func (g *Graph) loopHoldsAll(li int32, roots []rootVia) bool {
	m := g.loopSets()
	for _, r := range roots {
		i, ok := g.index(r.n)
		if !ok || !slices.Contains(m.in[i], li) {
			return false
		}
	}
	return true
}

// rootCalls are the calls a node of the main graph makes on one
// dependency, its sub-nodes' included: first the most attempts of its own
// call and its model's and memory's (each try ends at the first that
// fails), fails when it makes one; later the sum of its other sub-nodes'
// (tools, a tool's model, an output parser's model), which come only
// after an answer.
type rootCalls struct {
	first, later int
	fails        bool
}

// Ways a failing node ends an item's way (RunAttempts).
const (
	stopsRun  uint8 = 1 // no continue on failure: the run ends
	errorOnly uint8 = 2 // continueErrorOutput: the item goes on by the error output alone
)

// stopKind is how a node whose call fails ends the item's way: stopsRun,
// errorOnly, or 0 when the item goes on by the regular outputs
// (continueRegularOutput, or the legacy continueOnFail).
func stopKind(n *n8nschema.Node) uint8 {
	switch {
	case !n.ContinuesOnFail():
		return stopsRun
	case n.OnError == "continueErrorOutput":
		return errorOnly
	}
	return 0
}

// rootVia is a node of the main graph a call runs within, and whether the
// call is the node's own or its model's or memory's (first).
type rootVia struct {
	n     *n8nschema.Node
	first bool
}

// rootsVia is mainRoots with, per root, whether n is the root itself or
// feeds it as its model or memory (ai_languageModel, ai_memory): those
// calls come first in each try; a tool's, a tool's model's or an output
// parser's come only after a model's answer. It looks up at most
// maxRootLevel levels of sub-nodes, as rootOf does (roots can form
// cycles); whole is false when a way up went deeper, its node then
// given as a root.
func (g *Graph) rootsVia(n *n8nschema.Node) (out []rootVia, whole bool) {
	whole = true
	seen := map[rootVia]bool{}
	var up func(m *n8nschema.Node, first bool, depth int)
	up = func(m *n8nschema.Node, first bool, depth int) {
		if seen[rootVia{m, first}] {
			return
		}
		seen[rootVia{m, first}] = true
		found, cut := false, false
		for _, e := range g.Out(m) {
			if e.Type == ConnMain {
				continue
			}
			found = true
			if depth > maxRootLevel {
				cut, whole = true, false
				break
			}
			up(e.To, e.Type == ConnModel || e.Type == ConnMemory, depth+1)
		}
		if !found || cut {
			out = append(out, rootVia{m, first})
		}
	}
	up(n, true, 0)
	return out, whole
}

// attemptsBy is, per dependency (an index of worstWays' multi), the
// attempts one item makes on it: sparse, a dependency with none left
// out.
type attemptsBy map[int32]int

// figs are what an item makes on each dependency from a node on (the
// node's and all it leads to, while that dependency fails), split by how
// the item's execution ends: c on a way that goes on to the end (missing:
// 0; never, -1: no way does, each ends the run), s on a way that ends the
// run at a call that fails unhandled (missing: no way does). Both are
// needed where outputs that all receive the item add up: the first
// branch to end the run ends its siblings too (RunAttempts).
type figs struct{ c, s attemptsBy }

// never marks, in figs.c, a dependency on which every way ends the run.
const never = -1

func (f figs) empty() bool { return len(f.c) == 0 && len(f.s) == 0 }

// worstWays is, per dependency of multi, the most attempts one item makes
// on it along one way from a start (RunAttempts), plus those of its roots
// no start reaches: one depth-first walk for all of them, with an
// explicit stack (a deep graph cannot overflow it), each node's figures
// read once. An edge to a node on the walk's path is not followed (a
// cycle is walked once). The figures of a node are its successors'
// shared when it adds nothing of its own, so a long way that calls
// little stays linear; past budget entries in all (a long way that
// calls many of multi, each at several roots, would be quadratic) it
// gives up, nil, and RunAttempts keeps every call's attempts once.
//
// Outputs that all receive an item (siblings) run one after another in
// one execution, and the first that ends the run ends it for all: so
// they add up when each goes on to the end, and a sibling that ends the
// run adds to the others that go on, never to another that ends it
// (whichever of two such runs first, the other never runs): the most of
// s_i plus the sum of the others' c, taken in one pass (sum of c, and the
// best s so far beside it).
func worstWays(g *Graph, weight map[string]map[*n8nschema.Node]int, stops map[*n8nschema.Node]map[string]uint8, multi []string, starts []*n8nschema.Node) map[string]int {
	own := map[*n8nschema.Node]attemptsBy{}
	end := map[*n8nschema.Node]map[int32]uint8{} // node → how the ways of the dependencies it fails on end (stopKind)
	for i, d := range multi {
		for r, v := range weight[d] {
			if own[r] == nil {
				own[r] = attemptsBy{}
			}
			own[r][int32(i)] = v
			if k := stops[r][d]; k != 0 {
				if end[r] == nil {
					end[r] = map[int32]uint8{}
				}
				end[r][int32(i)] = k
			}
		}
	}
	budget := 16*len(g.Nodes) + 4096
	spent := 0
	// A way's figures: v, shared with the node it was read from until
	// something is added to it (owned). While its siblings are added,
	// an owned c holds, for a dependency some sibling never goes on past,
	// -(sum)-1: the sum of the others' c is still needed.
	type way struct {
		key   int
		v     figs
		owned bool
	}
	sumOf := func(x int) int {
		if x < 0 {
			return -x - 1
		}
		return x
	}
	add := func(ws []way, k int, v figs) []way {
		for i := range ws {
			if ws[i].key != k {
				continue
			}
			if v.empty() {
				return ws
			}
			if !ws[i].owned {
				c := figs{c: make(attemptsBy, len(ws[i].v.c)+len(v.c)), s: make(attemptsBy, len(ws[i].v.s)+len(v.s))}
				for d, x := range ws[i].v.c {
					c.c[d] = x // (never is -(0)-1: no sibling's sum yet)
				}
				for d, x := range ws[i].v.s {
					c.s[d] = x
				}
				spent += len(c.c) + len(c.s)
				ws[i].v, ws[i].owned = c, true
			}
			acc := ws[i].v
			// The dependencies v adds to: those of its c and its s.
			upd := func(d int32) {
				xc := max(v.c[d], 0) // (never: this sibling adds no finished run)
				ac := acc.c[d]
				sum := sumOf(ac)
				if as, ok := acc.s[d]; ok {
					acc.s[d] = AddSat(as, xc)
				}
				if xs, ok := v.s[d]; ok {
					acc.s[d] = max(acc.s[d], AddSat(xs, sum))
				}
				sum = AddSat(sum, xc)
				if ac < 0 || v.c[d] < 0 {
					acc.c[d] = -sum - 1
				} else {
					acc.c[d] = sum
				}
			}
			for d := range v.c {
				upd(d)
			}
			for d := range v.s {
				if _, ok := v.c[d]; !ok {
					upd(d)
				}
			}
			spent += len(v.c) + len(v.s)
			return ws
		}
		return append(ws, way{key: k, v: v})
	}
	// settle gives an owned way's c its final form: never where some
	// sibling never goes on past.
	settle := func(w *way) {
		if !w.owned {
			return
		}
		for d, x := range w.v.c {
			if x < 0 {
				w.v.c[d] = never
			}
		}
	}
	type frame struct {
		n    *n8nschema.Node
		out  []*Edge
		next int
		excl bool
		ways []way // an output the item takes alone (-1: the error output) → its attempts
		key  int   // the way of the parent's the node is walked for
	}
	memo := map[*n8nschema.Node]figs{}
	done := map[*n8nschema.Node]bool{}
	onPath := map[*n8nschema.Node]bool{}
	seen := map[*n8nschema.Node]bool{}
	var stack []*frame
	push := func(n *n8nschema.Node, key int) {
		onPath[n], seen[n] = true, true
		excl := false
		if i, ok := g.index(n); ok && !n.Disabled {
			excl = g.exclusiveOutputs(i)
		}
		stack = append(stack, &frame{n: n, out: g.Out(n), excl: excl, key: key})
	}
	wayKey := func(f *frame, e *Edge) int {
		switch {
		case e.Error:
			return -1
		case f.excl:
			return e.Output
		}
		return 0
	}
	for _, t := range starts {
		if done[t] {
			continue
		}
		push(t, 0)
		for len(stack) > 0 {
			if spent > budget {
				return nil
			}
			f := stack[len(stack)-1]
			if f.next < len(f.out) {
				e := f.out[f.next]
				f.next++
				if e.Type != ConnMain || onPath[e.To] || g.dead(e) {
					continue
				}
				if done[e.To] {
					f.ways = add(f.ways, wayKey(f, e), memo[e.To])
				} else {
					push(e.To, wayKey(f, e))
				}
				continue
			}
			for i := range f.ways {
				settle(&f.ways[i])
			}
			// The node's figures: its own, and per dependency the most
			// of its ways (one output or another), each kind of end
			// apart.
			var v figs
			switch {
			case len(f.ways) == 1 && own[f.n] == nil:
				v = f.ways[0].v
			case len(f.ways) > 0 || own[f.n] != nil:
				v = figs{c: attemptsBy{}, s: attemptsBy{}}
				ends := end[f.n]
				errWays := 0
				for _, wy := range f.ways {
					if wy.key == -1 {
						errWays++
					}
				}
				// takes: whether an item leaving by wy goes on while d
				// fails (not past a node that ends the run, and by the
				// error output alone from one that sends it there).
				takes := func(d int32, wy *way) bool {
					k := ends[d]
					return k == 0 || k == errorOnly && wy.key == -1
				}
				stopped := attemptsBy{} // dependency → the ways it takes on which the run always ends
				for i := range f.ways {
					wy := &f.ways[i]
					for d, x := range wy.v.c {
						if !takes(d, wy) {
							continue
						}
						if x == never {
							stopped[d]++
						} else {
							v.c[d] = max(v.c[d], x)
						}
					}
					for d, x := range wy.v.s {
						if takes(d, wy) {
							v.s[d] = max(v.s[d], x)
						}
					}
				}
				for d, n := range stopped {
					ways := len(f.ways)
					if ends[d] == errorOnly {
						ways = errWays
					}
					if _, ok := v.c[d]; !ok && n >= ways {
						v.c[d] = never
					}
				}
				for d, x := range own[f.n] {
					if ends[d] == stopsRun {
						// While d fails the run ends here, after f.n's tries.
						v.c[d], v.s[d] = never, x
						continue
					}
					if c := v.c[d]; c != never {
						v.c[d] = AddSat(c, x)
					}
					if s, ok := v.s[d]; ok {
						v.s[d] = AddSat(s, x)
					}
				}
				spent += len(v.c) + len(v.s)
			}
			memo[f.n], done[f.n], onPath[f.n] = v, true, false
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.ways = add(p.ways, f.key, v)
			}
		}
	}
	worst := make([]int, len(multi))
	for _, t := range starts {
		for d, x := range memo[t].c {
			worst[d] = max(worst[d], x)
		}
		for d, x := range memo[t].s {
			worst[d] = max(worst[d], x)
		}
	}
	out := make(map[string]int, len(multi))
	for i, d := range multi {
		for r, x := range weight[d] {
			if !seen[r] {
				worst[i] = AddSat(worst[i], x)
			}
		}
		out[d] = worst[i]
	}
	return out
}

// mainRoots returns the nodes of the main graph n runs within: n itself,
// or for a sub-node the roots it is attached to, through sub-nodes of
// sub-nodes (a tool's model).
func mainRoots(g *Graph, n *n8nschema.Node) []*n8nschema.Node {
	var out []*n8nschema.Node
	seen := map[*n8nschema.Node]bool{}
	var up func(m *n8nschema.Node)
	up = func(m *n8nschema.Node) {
		if seen[m] {
			return
		}
		seen[m] = true
		roots := g.Roots(m)
		if len(roots) == 0 {
			out = append(out, m)
			return
		}
		for _, r := range roots {
			up(r)
		}
	}
	up(n)
	return out
}
