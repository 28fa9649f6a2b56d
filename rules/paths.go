package rules

import (
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
