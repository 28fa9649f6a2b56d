package analyze

import (
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
		once[sm.Identity] = addAttempts(once[sm.Identity], sm.Attempts)
		for _, r := range mainRoots(g, op.Node) {
			weight[sm.Identity][r] = addAttempts(weight[sm.Identity][r], sm.Attempts)
		}
	}
	if len(weight) == 0 {
		return nil
	}
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
	out := make(map[string]int, len(weight))
	for d, wt := range weight {
		out[d] = min(worstWay(g, wt, starts), once[d])
	}
	return out
}

// worstWay is the most attempts one item makes along one way from a start
// (RunAttempts), plus those of the roots no start reaches.
func worstWay(g *Graph, weight map[*n8nschema.Node]int, starts []*n8nschema.Node) int {
	memo := map[*n8nschema.Node]int{}
	onPath := map[*n8nschema.Node]bool{}
	seen := map[*n8nschema.Node]bool{}
	var walk func(n *n8nschema.Node) int
	walk = func(n *n8nschema.Node) int {
		if v, ok := memo[n]; ok {
			return v
		}
		onPath[n], seen[n] = true, true
		excl := false
		if i, ok := g.index(n); ok && !n.Disabled {
			excl = g.exclusiveOutputs(i)
		}
		ways := map[int]int{} // an output the item takes alone (-1: the error output) → its attempts
		for _, e := range g.Out(n) {
			if e.Type != ConnMain || onPath[e.To] || g.dead(e) {
				continue
			}
			k := 0
			switch {
			case e.Error:
				k = -1
			case excl:
				k = e.Output
			}
			ways[k] = addAttempts(ways[k], walk(e.To))
		}
		best := 0
		for _, v := range ways {
			best = max(best, v)
		}
		onPath[n] = false
		memo[n] = addAttempts(weight[n], best)
		return memo[n]
	}
	worst := 0
	for _, t := range starts {
		worst = max(worst, walk(t))
	}
	for r, v := range weight {
		if !seen[r] {
			worst = addAttempts(worst, v)
		}
	}
	return worst
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

// addAttempts adds counts, saturating at AttemptCap.
func addAttempts(a, b int) int { return min(a+b, AttemptCap) }
