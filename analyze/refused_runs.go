package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// RefusedRun reports a node that no run n8n accepts reaches, and the
// blank n8n refuses those runs for: before an execution starts n8n checks
// its start node and every node after it (n8n-core workflow-execute.js
// checkForWorkflowIssues, L780-797, called at L1159) and throws
// WorkflowHasIssuesError, before any node runs, when one misses a required
// parameter (refusedStarts). That holds of every node of a workflow whose
// every trigger is refused, or that n8n refuses to publish (SetupBlank,
// all false), and of a node that only refused triggers' runs reach (every
// false: the workflow's other triggers run, but never reach it). What a
// finding says such a run does happens only once the blank is filled in.
// A sub-node takes its root's answer.
func (g *Graph) RefusedRun(n *n8nschema.Node) (node, param string, publish, every, ok bool) {
	if node, param, publish, ok := g.SetupBlank(); ok {
		return node, param, publish, true, true
	}
	g.refusedOnce.Do(g.refusedReach)
	if g.refusedOnly == nil || n == nil {
		return "", "", false, false, false
	}
	for depth := 0; g.IsSubNode(n) && depth <= maxRootLevel; depth++ {
		if n = g.Root(n); n == nil {
			return "", "", false, false, false
		}
	}
	i, in := g.index(n)
	if !in {
		return "", "", false, false, false
	}
	is, found := g.refusedOnly[int32(i)]
	if !found {
		return "", "", false, false, false
	}
	return is.node.Name, is.param, false, false, true
}

// refusedReach fills refusedOnly: the nodes the runs of refused triggers
// reach (along the edges Reachable follows) that no other trigger's run
// reaches, each with the blank of the first refused trigger (file order,
// then nearest) that reaches it. Two walks: linear in the graph.
func (g *Graph) refusedReach() {
	if g.setupOnly == nil || len(g.Unloadable) > 0 {
		return // none refused, or n8n cannot build it: no run starts at all
	}
	var refused, others []int32
	for _, s := range g.starts(nil) {
		if g.setupOnly[s] {
			if _, ok := g.issueAt[s]; ok {
				refused = append(refused, s)
				continue
			}
		}
		others = append(others, s)
	}
	if len(refused) == 0 {
		return
	}
	open := make([]bool, len(g.Nodes))
	g.bfs(others, open, make([]int32, 0, len(g.Nodes)), func(e *Edge) bool { return !g.dead(e) })
	for i, src := range g.onlyPast(refused, open) {
		if g.refusedOnly == nil {
			g.refusedOnly = map[int32]issue{}
		}
		g.refusedOnly[i] = g.issueAt[src]
	}
}

// onlyPast returns the nodes a walk from sources reaches (along main
// edges that are not dead) that open does not hold, each with the source
// that reached it first: sources in the order given, then the nearest.
// One walk: linear in the graph.
func (g *Graph) onlyPast(sources []int32, open []bool) map[int32]int32 {
	label := make([]int32, len(g.Nodes)) // 1 + the source that reached it first
	queue := make([]int32, 0, len(g.Nodes))
	for _, s := range sources {
		if label[s] == 0 {
			label[s] = s + 1
			queue = append(queue, s)
		}
	}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		for _, e := range g.outs(int(u)) {
			if e.Type != ConnMain || g.dead(e) || label[e.to] != 0 {
				continue
			}
			label[e.to] = label[u]
			queue = append(queue, e.to)
		}
	}
	var out map[int32]int32
	for i, l := range label {
		if l == 0 || open[i] {
			continue
		}
		if out == nil {
			out = map[int32]int32{}
		}
		out[int32(i)] = l - 1
	}
	return out
}
