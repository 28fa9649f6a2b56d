package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// Walked is the number of nodes g's walks have visited.
func Walked(g *Graph) int64 { return g.walked.Load() }

// SetClassMin sets classMin, the webhooks a graph needs before they are
// put in classes, and returns the function that puts it back.
func SetClassMin(n int) func() {
	old := classMin
	classMin = n
	return func() { classMin = old }
}

// NeverDone reports whether n is a Loop Over Items whose done output never
// fires because nothing runs it a second time (see neverDone).
func (g *Graph) NeverDone(n *n8nschema.Node) bool {
	i, ok := g.index(n)
	return ok && g.deadDone != nil && g.deadDone[i]
}

// ReachOf is the Reach of g that holds nodes and nothing else.
func ReachOf(g *Graph, nodes ...*n8nschema.Node) Reach {
	r := g.newReach()
	for _, n := range nodes {
		r.add(n)
	}
	return r
}
