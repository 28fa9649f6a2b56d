package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// ItemsMultiplyBefore returns a node on the main path into n that may hand
// on several items for each item it gets: a read that lists or searches
// records (a calendar's getAll, a sheet's rows, a feed's entries) or a
// Split Out of a list (for an AI sub-node, on the path into the root it
// feeds). n then runs once per item that node emits, so a
// figure counted per item of the workflow's start is a floor there, not
// a ceiling. nil when none does; each node is visited once.
func ItemsMultiplyBefore(g *Graph, n *n8nschema.Node) *n8nschema.Node {
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	for h := 0; h < len(queue); h++ {
		// A model or tool runs once per item its root gets.
		for _, r := range g.Roots(queue[h]) {
			if !seen[r] {
				seen[r] = true
				queue = append(queue, r)
			}
		}
		for _, e := range g.InOfType(queue[h], ConnMain) {
			m := e.From
			if seen[m] || m.Disabled {
				continue
			}
			seen[m] = true
			if m.Type == "n8n-nodes-base.splitOut" || listsRecords(m) {
				return m
			}
			queue = append(queue, m)
		}
	}
	return nil
}
