package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// ReachBeforeModel is what runs started at t reach by a way on which no
// model generates first (ReachFrom, less the nodes that every way from t
// reaches only through a generating node, modelWaits): the nodes whose
// calls in executions that start together also start together.
//
// n8n hands a node's items on only when its run has ended: runNode is
// awaited (n8n-core dist/execution-engine/workflow-execute.js L1230), and
// only then are the nodes its outputs feed put on the stack
// (addNodeToBeExecuted, L1344-1363). A node behind a model's generation
// (an AI Agent or chain with its chat model, a vendor model node, an HTTP
// Request to a model API's generation endpoint) thus starts when that
// generation ends, which takes seconds to minutes and differs request by
// request: executions that start together reach it spread apart. Their
// items leave one node together, so the items of one execution stay
// together (what a node does with several items is the caller's to read).
// The sub-nodes of a reached root are reached, those of a generating root
// included: its chat model is called as the run reaches it.
func ReachBeforeModel(g *Graph, t *n8nschema.Node) map[*n8nschema.Node]bool {
	i, ok := g.index(t)
	if !ok {
		return map[*n8nschema.Node]bool{t: true}
	}
	queue := g.reachBeforeModel(i, make([]bool, len(g.Nodes)), nil)
	reached := make(map[*n8nschema.Node]bool, len(queue))
	for _, j := range queue {
		reached[g.Nodes[j]] = true
	}
	return reached
}

// FirstReachBeforeModel maps each node that runs started at one of
// starts reach by a way on which no model generates first
// (ReachBeforeModel) to the first of starts, in their order, that so
// reaches it. What a node so reaches depends on the node alone, so a
// walk stops at a node an earlier start reached: each node is walked
// once, however many starts reach it.
func FirstReachBeforeModel(g *Graph, starts []*n8nschema.Node) map[*n8nschema.Node]*n8nschema.Node {
	first := map[*n8nschema.Node]*n8nschema.Node{}
	seen := make([]bool, len(g.Nodes))
	var queue []int
	for _, t := range starts {
		i, ok := g.index(t)
		if !ok {
			if first[t] == nil {
				first[t] = t
			}
			continue
		}
		if seen[i] {
			continue // an earlier start reached t, and all t reaches
		}
		queue = g.reachBeforeModel(i, seen, queue[:0])
		for _, j := range queue {
			first[g.Nodes[j]] = t
		}
	}
	return first
}

// reachBeforeModel appends to queue node i and the nodes it reaches
// (ReachBeforeModel) that seen does not mark, marking them.
func (g *Graph) reachBeforeModel(i int, seen []bool, queue []int) []int {
	seen[i] = true
	h := len(queue)
	queue = append(queue, i)
	for ; h < len(queue); h++ {
		u := queue[h]
		waits := g.waitsForModel(u)
		for _, e := range g.outs(u) {
			// A generating node's error output carries the failures,
			// which come when the model refuses, not when it has answered.
			if e.Type == ConnMain && !seen[e.to] && !g.failsOnEdge(e) && (!waits || e.Error) {
				seen[e.to] = true
				queue = append(queue, int(e.to))
			}
		}
		for _, e := range g.ins(u) {
			if e.Type != ConnMain && !seen[e.from] {
				seen[e.from] = true
				queue = append(queue, int(e.from))
			}
		}
	}
	return queue
}

// waitsForModel is modelWaits of node i, each node's decided once per
// graph (modelWaitOnce): ReachBeforeModel walks once per trigger.
func (g *Graph) waitsForModel(i int) bool {
	g.modelWaitOnce.Do(func() {
		g.modelWait = make([]bool, len(g.Nodes))
		for j := range g.Nodes {
			g.modelWait[j] = g.modelWaits(j)
		}
	})
	return g.modelWait[i]
}

// modelWaits reports a node that hands its items on only after a model
// has generated for them: a LangChain agent or chain (modelRoots) with an
// enabled chat model on its ai_languageModel input, a vendor model node
// whose resource and operation run a model (n8nschema.RunsModel), or an
// HTTP Request posting to a model API's generation endpoint
// (n8nschema.HTTPModelCallOf). A disabled node passes its items on without
// running; a node that continues on failure on its regular output
// (continueRegularOutput, the legacy continueOnFail) hands a refused
// call's error item on at once, so neither waits for a generation.
func (g *Graph) modelWaits(i int) bool {
	n := g.Nodes[i]
	if n.Disabled || n.OnError == "continueRegularOutput" || n.OnError == "" && n.ContinueOnFail {
		return false
	}
	if name, ok := strings.CutPrefix(n.Type, langchain); ok && modelRoots[name] {
		_, none := g.noModel(i)
		return !none
	}
	if g.sub[i] {
		return false
	}
	switch n8nschema.Lookup(n.Type).Role {
	case n8nschema.RoleModel:
		return n8nschema.RunsModel(n)
	case n8nschema.RoleExternal:
		_, ok := n8nschema.HTTPModelCallOf(n)
		return ok
	}
	return false
}
