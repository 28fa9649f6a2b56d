package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// ItemsMultiplied maps each node that runs after a node that may hand on
// several items for each item it gets (a read that lists or searches
// records: a calendar's getAll, a sheet's rows, a feed's entries; or a
// Split Out of a list) to the nearest such node before it on main
// connections. A node there runs once per item that node emits, so a
// figure counted per item of the workflow's start is a floor for it, not
// a ceiling. One walk from all of them at once: linear in the graph.
func ItemsMultiplied(g *Graph) map[*n8nschema.Node]*n8nschema.Node {
	var out map[*n8nschema.Node]*n8nschema.Node
	var queue []*n8nschema.Node
	for _, n := range g.Nodes { // file order: deterministic
		if !n.Disabled && (n.Type == "n8n-nodes-base.splitOut" || listsRecords(n)) {
			queue = append(queue, n)
		}
	}
	from := map[*n8nschema.Node]*n8nschema.Node{}
	for _, n := range queue {
		from[n] = n
	}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		if oneItem(u) && from[u] != u {
			continue // the items are one again past it
		}
		for _, e := range g.OutOfType(u, ConnMain) {
			v := e.To
			if _, ok := from[v]; ok {
				continue
			}
			from[v] = from[u]
			if out == nil {
				out = map[*n8nschema.Node]*n8nschema.Node{}
			}
			out[v] = from[u]
			queue = append(queue, v)
		}
	}
	return out
}

// oneItem reports a node that hands on one item however many it gets: an
// Aggregate or a Summarize (one item of all, with no field to split by),
// a Limit to one. A node after it runs once a run, not once per record.
// (A disabled node passes its items on; a node set to execute once runs
// once, but may still answer with many items.)
func oneItem(n *n8nschema.Node) bool {
	if n.Disabled {
		return false
	}
	switch n.Type {
	case "n8n-nodes-base.aggregate":
		return true
	case "n8n-nodes-base.summarize":
		f, _ := n.Param("fieldsToSplitBy")
		return f.Kind() == n8nschema.Missing || f.Kind() == n8nschema.String && f.Str() == ""
	case "n8n-nodes-base.limit":
		v, ok := n.Param("maxItems")
		m, lit := v.Num()
		return !ok || lit && m == 1 // absent: the default, 1
	}
	return false
}

// MultipliedBy is the node of ItemsMultiplied's map m that multiplies the
// runs of n: n's own, or for an AI sub-node that of a root it feeds (a
// model or tool runs once per item its root gets). nil when none.
func MultipliedBy(g *Graph, m map[*n8nschema.Node]*n8nschema.Node, n *n8nschema.Node) *n8nschema.Node {
	if len(m) == 0 {
		return nil
	}
	seen := map[*n8nschema.Node]bool{n: true}
	level := []*n8nschema.Node{n}
	for depth := 0; len(level) > 0 && depth <= maxRootLevel; depth++ {
		var next []*n8nschema.Node
		for _, x := range level {
			if by := m[x]; by != nil {
				return by
			}
			for _, r := range g.Roots(x) {
				if !seen[r] { // tools of tools share roots: each once
					seen[r] = true
					next = append(next, r)
				}
			}
		}
		level = next
	}
	return nil
}
