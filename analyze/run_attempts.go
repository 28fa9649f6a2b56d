package analyze

import (
	"slices"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// RunAttempts is, per dependency (OperationSummary.Identity) that w's
// operations strain (StrainsDependency, bounded), the attempts one item of
// one execution makes on it at worst: the most along one way through the
// workflow, not the sum over every node that calls it. An item leaves a
// node that chooses by one of its exclusive outputs (an If's true or
// false, a Filter's kept, a Switch that sends an item down its first
// matching rule only: exclusiveOutputs, as RS206 reads them; nodes-base
// dist/nodes/Switch/V3/SwitchV3.node.js, "continue itemLoop" unless
// allMatchingOutputs), and a node that sends a failed item to its error
// output sends it there instead of its regular outputs (n8n-core
// dist/execution-engine/workflow-execute.js handleNodeErrorOutput moves
// each item with an error out of the success list), so only one of those
// ways runs for it; a node's outputs that all receive the item (one output to several
// nodes, a Switch with allMatchingOutputs) add up. A cycle is walked once.
// An operation no walk from a start reaches is added whole. It is never
// more than every operation's attempts once, the sum RS505 read before:
// branches that meet again (a Merge) are walked once each, so their common
// tail would count twice, and a sub-node that serves several roots (one
// model or memory for several agents) is weighed at each, with the
// attempts read at one of them (Operation.Attempts). Each node's
// attempts are per item already (Operation.Attempts), so this is the
// count of one item's way, as theirs is.
func RunAttempts(s *Set, w *n8nschema.Workflow, ops []*Operation, sums []OperationSummary) map[string]int {
	g := s.Graph(w)
	weight := map[string]map[*n8nschema.Node]int{} // dependency → root → attempts
	once := map[string]int{}                       // dependency → every operation's attempts once
	for j, op := range ops {
		sm := &sums[j]
		if !sm.StrainsDependency() || sm.Unbounded || sm.Identity == "" {
			continue
		}
		if weight[sm.Identity] == nil {
			weight[sm.Identity] = map[*n8nschema.Node]int{}
		}
		once[sm.Identity] = AddSat(once[sm.Identity], sm.Attempts)
		for _, r := range mainRoots(g, op.Node) {
			weight[sm.Identity][r] = AddSat(weight[sm.Identity][r], sm.Attempts)
		}
	}
	if len(weight) == 0 {
		return nil
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
	for d, v := range worstWays(g, weight, multi, starts) {
		out[d] = min(v, once[d])
	}
	return out
}

// attemptsBy is, per dependency (an index of worstWays' multi), the
// attempts one item makes on it: sparse, a dependency with none left
// out.
type attemptsBy map[int32]int

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
func worstWays(g *Graph, weight map[string]map[*n8nschema.Node]int, multi []string, starts []*n8nschema.Node) map[string]int {
	own := map[*n8nschema.Node]attemptsBy{}
	for i, d := range multi {
		for r, v := range weight[d] {
			if own[r] == nil {
				own[r] = attemptsBy{}
			}
			own[r][int32(i)] = v
		}
	}
	budget := 16*len(g.Nodes) + 4096
	spent := 0
	// A way's figures: v, shared with the node it was read from until
	// something is added to it (owned).
	type way struct {
		key   int
		v     attemptsBy
		owned bool
	}
	add := func(ws []way, k int, v attemptsBy) []way {
		if len(v) == 0 {
			return ws
		}
		for i := range ws {
			if ws[i].key != k {
				continue
			}
			if !ws[i].owned {
				c := make(attemptsBy, len(ws[i].v)+len(v))
				for d, x := range ws[i].v {
					c[d] = x
				}
				spent += len(c)
				ws[i].v, ws[i].owned = c, true
			}
			for d, x := range v {
				ws[i].v[d] = AddSat(ws[i].v[d], x)
			}
			spent += len(v)
			return ws
		}
		return append(ws, way{key: k, v: v})
	}
	type frame struct {
		n    *n8nschema.Node
		out  []*Edge
		next int
		excl bool
		ways []way // an output the item takes alone (-1: the error output) → its attempts
		key  int   // the way of the parent's the node is walked for
	}
	memo := map[*n8nschema.Node]attemptsBy{}
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
			// The node's figures: its own, and per dependency the most
			// of its ways.
			var v attemptsBy
			switch {
			case len(f.ways) == 1 && own[f.n] == nil:
				v = f.ways[0].v
			case len(f.ways) > 0 || own[f.n] != nil:
				v = attemptsBy{}
				for _, wy := range f.ways {
					for d, x := range wy.v {
						v[d] = max(v[d], x)
					}
				}
				for d, x := range own[f.n] {
					v[d] = AddSat(v[d], x)
				}
				spent += len(v)
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
		for d, x := range memo[t] {
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
