package rules

import (
	"fmt"
	"slices"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about which nodes an execution reaches.

// reaches reports whether to is reachable from from along main edges (or
// is a sub-node of a node that is).
func reaches(g *analyze.Graph, from, to *n8nschema.Node) bool {
	target := map[*n8nschema.Node]bool{to: true}
	for _, r := range g.Roots(to) {
		target[r] = true
	}
	seen := map[*n8nschema.Node]bool{from: true}
	queue := []*n8nschema.Node{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if target[u] {
			return true
		}
		for _, e := range g.OutOfType(u, analyze.ConnMain) {
			if !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return false
}

// unreachedWhy says, as a clause for a message, why what node n does
// matters less than its every run would make it: the workflow is
// archived, a node that fails on every run (RS010) lies before it, no
// trigger's run reaches it, only a run a person starts from the editor
// does, or every run reaches it on what a node that does none of its work
// passed on. It is "" when a run other than a person's reaches n and
// does its work: a finding about what n sends is then a warning (RS011,
// RS012).
func unreachedWhy(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node) string {
	first, behind := g.FailsBefore(n)
	switch {
	case analyze.RunStateOf(pass.Workflow) == analyze.RunNever:
		return " (the workflow is archived: n8n runs none of its triggers)"
	case behind:
		// What the node sends matters once the node that fails before
		// it is mended (RS010 names it).
		return fmt.Sprintf(" (once %q, which fails on every run before it, is fixed)", first.Name)
	case !g.Reachable(n):
		return " (no trigger's run reaches it)"
	case untriggered(pass) || watched(pass, n):
		return " (only a run a person starts from the editor reaches it)"
	}
	if c := noWorkBefore(g, n); c != nil {
		// Every run reaches it on what a node that does none of its work
		// passed on (RS010 names it): what it sends matters once that
		// node is mended.
		return fmt.Sprintf(" (once %q, which does none of its work before it, is fixed)", c.Name)
	}
	return ""
}

// noWorkBefore returns a node that does none of its work
// (analyze.Graph.DoesNoWork) before n, when such nodes lie on every main
// path from the workflow's triggers to n (a walk from the triggers that
// does not pass them does not reach n), or nil. Asked only for a warning,
// so once or twice a workflow.
func noWorkBefore(g *analyze.Graph, n *n8nschema.Node) *n8nschema.Node {
	var cuts []*n8nschema.Node
	if reachesAvoiding(g, g.Triggers(), n, func(m *n8nschema.Node) bool {
		if _, none := g.DoesNoWork(m); none {
			cuts = append(cuts, m)
			return true
		}
		return false
	}) {
		return nil
	}
	for _, c := range cuts {
		if reaches(g, c, n) {
			return c
		}
	}
	return nil
}

// reachesAvoiding reports whether a walk along main connections from
// starts reaches n without going past a node stop holds of.
func reachesAvoiding(g *analyze.Graph, starts []*n8nschema.Node, n *n8nschema.Node, stop func(*n8nschema.Node) bool) bool {
	seen := map[*n8nschema.Node]bool{}
	queue := slices.Clone(starts)
	for _, t := range queue {
		seen[t] = true
	}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if m == n {
			return true
		}
		if stop(m) {
			continue
		}
		for _, e := range g.OutOfType(m, analyze.ConnMain) {
			if !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return false
}
