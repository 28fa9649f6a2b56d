package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// UnreachedBy returns the node whose outputs keep every run from n, a
// node no run reaches: the nearest node before it along main connections
// (walking back; a sub-node from its root) that a run reaches, which sends
// no item on toward n (a gate its literals decide, a node that fails on
// every item: RS010 names it), or nil when none lies before it (no
// trigger's run leads there at all). Nearest is the walk back's: the
// fewest connections back, then the first in the order of each node's
// main connections in, then its Unrun ones.
//
// The answers for every node no run reaches are found together on the
// first ask (unreachedByAll), so a rule that asks of each such node walks
// the graph once, not once per node.
func (g *Graph) UnreachedBy(n *n8nschema.Node) *n8nschema.Node {
	for depth := 0; n != nil && g.IsSubNode(n) && depth < 8; depth++ {
		n = g.Root(n)
	}
	if n == nil {
		return nil
	}
	if g.Reachable(n) {
		// The walk back from a node a run reaches skips that node when
		// a cycle meets it again; the table, made for the nodes no run
		// reaches, would not. No rule asks this of such a node.
		return g.unreachedByWalk(n)
	}
	g.unreachedOnce.Do(g.unreachedByAll)
	return g.unreachedBy[n]
}

// unreachedInto returns the connections a walk back from n follows: its main
// connections in, then the Unrun ones that end at it.
func (g *Graph) unreachedInto(n *n8nschema.Node, unrun map[*n8nschema.Node][]*Edge) []*Edge {
	return append(g.InOfType(n, ConnMain), unrun[n]...)
}

func unrunByTarget(g *Graph) map[*n8nschema.Node][]*Edge {
	var unrun map[*n8nschema.Node][]*Edge
	for _, e := range g.Unrun {
		if unrun == nil {
			unrun = map[*n8nschema.Node][]*Edge{}
		}
		unrun[e.To] = append(unrun[e.To], e)
	}
	return unrun
}

// unreachedByWalk is UnreachedBy's walk back, breadth first, from one
// node: the first node a run reaches that it meets.
func (g *Graph) unreachedByWalk(n *n8nschema.Node) *n8nschema.Node {
	unrun := unrunByTarget(g)
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	for h := 0; h < len(queue); h++ {
		for _, e := range g.unreachedInto(queue[h], unrun) {
			if seen[e.From] {
				continue
			}
			if g.Reachable(e.From) {
				return e.From
			}
			seen[e.From] = true
			queue = append(queue, e.From)
		}
	}
	return nil
}

// unreachedByAll fills the unreachedBy table with unreachedByWalk's
// answer for each node no run reaches, in one pass. That walk returns,
// among the nodes nearest n that have a connection in from a node a run
// reaches, the first its queue holds, and from it the first such
// connection. Its queue holds each level in the order of the first
// shortest path to each node, compared connection by connection. So:
// a node with such a connection in answers with the first one's node
// (distance 0); every other node, at distance d, answers as its first
// connection in from a node at distance d-1 does, that path being its
// first shortest one. One walk forward from the distance-0 nodes finds
// the distances, and the answers follow in that walk's order.
func (g *Graph) unreachedByAll() {
	unrun := unrunByTarget(g)
	// The nodes the walks back can meet: every node, and each end of a
	// connection (a node not in Nodes is not reached, as the walk takes it).
	var all []*n8nschema.Node
	known := map[*n8nschema.Node]bool{}
	add := func(n *n8nschema.Node) {
		if n != nil && !known[n] {
			known[n] = true
			all = append(all, n)
		}
	}
	for _, n := range g.Nodes {
		add(n)
	}
	for _, e := range g.Edges {
		add(e.From)
		add(e.To)
	}
	for _, e := range g.Unrun {
		add(e.From)
		add(e.To)
	}
	by := map[*n8nschema.Node]*n8nschema.Node{}
	into := map[*n8nschema.Node][]*Edge{}
	next := map[*n8nschema.Node][]*n8nschema.Node{} // the unreached nodes each unreached node leads to
	dist := map[*n8nschema.Node]int{}
	var queue []*n8nschema.Node
	for _, n := range all {
		if g.Reachable(n) {
			continue
		}
		in := g.unreachedInto(n, unrun)
		into[n] = in
		for _, e := range in {
			if g.Reachable(e.From) {
				if _, ok := by[n]; !ok {
					by[n] = e.From
					dist[n] = 0
					queue = append(queue, n)
				}
				continue
			}
			next[e.From] = append(next[e.From], n)
		}
	}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		if dist[u] > 0 {
			for _, e := range into[u] {
				if d, ok := dist[e.From]; ok && d == dist[u]-1 && !g.Reachable(e.From) {
					by[u] = by[e.From]
					break
				}
			}
		}
		for _, w := range next[u] {
			if _, ok := dist[w]; !ok {
				dist[w] = dist[u] + 1
				queue = append(queue, w)
			}
		}
	}
	g.unreachedBy = by
}
