package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// maxRunFailers bounds the nodes quietAfter reads the dominance of (one
// walk each): past it every node counts as repeated, as before.
const maxRunFailers = 8

// quietAfter marks in quiet the main nodes of g whose calls the retry of a
// node that runs g as a sub-workflow (Execute Workflow, a workflow tool)
// never repeats: the caller's retry reruns the whole sub-workflow only
// when its execution fails, or when its last node's first item has
// json.error (n8n-core workflow-execute.js L877–888 in 2.8.4; the sub-workflow
// hands its last node's outputs back, n8n workflow-helpers.js
// getDataLastExecutedNodeData, ExecuteWorkflow.node.js L390–412). A node is
// quiet when no node that can fail the run (runFails) runs at or after it:
// none is reachable from it, and each one lies on every path to it, so it
// ran, and did not fail, before the node did (observed:
// testdata/engine/caller-exec-retry-*). quiet is indexed as g.Nodes.
func quietAfter(g *Graph, quiet []bool) {
	n := len(g.Nodes)
	var bad []int
	for i, nd := range g.Nodes {
		if g.reach[i] && !nd.Disabled && !g.IsSubNode(nd) && runFails(g, i) {
			if len(bad) == maxRunFailers {
				return
			}
			bad = append(bad, i)
		}
	}
	// after: the nodes from which a node that fails the run is reachable.
	after := make([]bool, n)
	stack := make([]int, 0, n)
	for _, b := range bad {
		after[b] = true
		stack = append(stack, b)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.ins(i) {
			if e.Type == ConnMain && !after[e.from] {
				after[e.from] = true
				stack = append(stack, int(e.from))
			}
		}
	}
	// around: the nodes some path from a start reaches without passing
	// one of them.
	around := make([]bool, n)
	seen := make([]bool, n)
	for _, b := range bad {
		clear(seen)
		stack = stack[:0]
		for i, nd := range g.Nodes {
			if i != b && g.reach[i] && !g.IsSubNode(nd) && !hasMainIn(g, i) {
				seen[i] = true
				stack = append(stack, i)
			}
		}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			around[i] = true
			for _, e := range g.outs(i) {
				if e.Type == ConnMain && int(e.to) != b && !seen[e.to] {
					seen[e.to] = true
					stack = append(stack, int(e.to))
				}
			}
		}
	}
	for i, nd := range g.Nodes {
		quiet[i] = g.reach[i] && !nd.Disabled && !g.IsSubNode(nd) && !after[i] && !around[i]
	}
}

func hasMainIn(g *Graph, i int) bool {
	for _, e := range g.ins(i) {
		if e.Type == ConnMain {
			return true
		}
	}
	return false
}

// runFails reports a node that can make its sub-workflow's caller retry
// while a dependency is down: one that calls out, runs a model or a
// sub-workflow, a Stop and Error, or code that throws, and that either
// throws or hands on {json: {error}}, which reaches the caller when it
// flows to the last node (continueRegularOutput, the legacy
// continueOnFail, or an error output that is connected). A node that hands
// the error beside json (n8nschema.RetryNeverRepeats), or an error output
// connected to nothing, hands the caller no error.
func runFails(g *Graph, i int) bool {
	nd := g.Nodes[i]
	switch role := g.specs[i].Role; {
	case role == n8nschema.RoleExternal, role == n8nschema.RoleModel, role == n8nschema.RoleAgent,
		role == n8nschema.RoleCallWorkflow, nd.Type == n8nschema.TypeStopAndError:
	case n8nschema.IsCode(nd.Type):
		code := codeOf(nd)
		if !strings.Contains(code, "throw") && !strings.Contains(code, "raise") {
			return false
		}
	default:
		return false
	}
	switch {
	case !nd.ContinuesOnFail():
		return true
	case n8nschema.RetryNeverRepeats(nd):
		return false
	case nd.OnError == "continueErrorOutput":
		for _, e := range g.outs(i) {
			if e.Error {
				return true
			}
		}
		return false
	}
	return true
}
