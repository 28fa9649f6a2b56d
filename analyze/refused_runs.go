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
	if len(g.triggers) == 0 && len(g.Unloadable) == 0 {
		g.editorRefusedReach()
		return
	}
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

// editorRefusedReach is refusedReach for a workflow with no trigger, whose
// runs start at its nodes without main inputs (starts): a person's from
// the editor, or a caller's. n8n checks before any node runs either the
// start and every node after it (a run from a start) or every node before
// the one the person runs to, and that one (a run to a destination node,
// the editor's "execute step": n8n-core workflow-execute.js
// checkReadyForExecution, getParentNodes; checkForWorkflowIssues L780-797,
// called at L1159), and throws WorkflowHasIssuesError when one misses a
// required parameter (n8nschema.MissingRequired; a node the export pins
// is not checked: node-helpers.js getNodeParametersIssues). So no run
// reaches a node that misses one or lies after one along main
// connections, when every start that reaches it reaches such a node too:
// those are refusedOnly, each with the nearest such node before it (file
// order between nodes as near), its "every" false. Linear in the graph.
func (g *Graph) editorRefusedReach() {
	missingParam := n8nschema.MissingRequired
	if g.Workflow.ParametersLost {
		missingParam = n8nschema.MissingRequiredAlways
	}
	var blanks []int32
	var missing map[int32]string
	for i, nd := range g.Nodes {
		if g.sub[i] || g.isPinned(i) {
			continue // no run's check reads a sub-node (reportToolBlanks) or a pinned node
		}
		if p, ok := missingParam(nd); ok {
			if missing == nil {
				missing = map[int32]string{}
			}
			missing[int32(i)] = p
			blanks = append(blanks, int32(i))
		}
	}
	if len(blanks) == 0 {
		return
	}
	// The starts a walk back from the blank nodes meets are refused (a
	// run from them checks the blank node); every other start's run is
	// accepted, and so is a run to a node no blank node lies before.
	before := make([]bool, len(g.Nodes))
	queue := append([]int32(nil), blanks...)
	for _, b := range blanks {
		before[b] = true
	}
	for h := 0; h < len(queue); h++ {
		for _, e := range g.ins(int(queue[h])) {
			if e.Type == ConnMain && !before[e.from] {
				before[e.from] = true
				queue = append(queue, e.from)
			}
		}
	}
	var refused, others []int32
	for _, s := range g.starts(nil) {
		if before[s] {
			refused = append(refused, s)
		} else {
			others = append(others, s)
		}
	}
	if len(refused) == 0 {
		return
	}
	open := make([]bool, len(g.Nodes))
	g.bfs(others, open, make([]int32, 0, len(g.Nodes)), func(e *Edge) bool { return !g.dead(e) })
	only := g.onlyPast(refused, open)
	// after labels each node a blank node lies before (or that is one)
	// with the nearest such node.
	for i, b := range g.onlyPast(blanks, make([]bool, len(g.Nodes))) {
		if _, ok := only[i]; !ok {
			continue
		}
		if g.refusedOnly == nil {
			g.refusedOnly = map[int32]issue{}
		}
		g.refusedOnly[i] = issue{g.Nodes[b], missing[b]}
	}
}

// EditorRefused reports a workflow with no trigger whose runs n8n refuses
// for a blank required parameter at the node RefusedRun gives
// (editorRefusedReach): the runs a person starts in the editor are
// refused too, and no other run starts.
func (g *Graph) EditorRefused(n *n8nschema.Node) bool {
	_, _, _, _, ok := g.RefusedRun(n)
	return ok && len(g.triggers) == 0
}
