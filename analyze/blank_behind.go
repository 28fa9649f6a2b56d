package analyze

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A template leaves some resources for its owner to name: a sheet
// "YOUR_SPREADSHEET_ID", a calendar "<your-calendar>" (n8nschema.BlankTarget),
// or an API key a config Set node holds as "" for the owner to fill in
// (blankKey). As exported, the node that asks its service for such a
// resource, or with such a key, fails on every item, and a run that must
// pass it stops there: what lies behind it happens only once the owner
// fills the blank in, as for a required parameter left blank (RefusedRun).

// BehindBlank reports a node that every run reaches only past a node of
// the main flow that names a template's blank (a target or a key) and
// stops the run when its call fails (it does not continue on failure),
// with that node and what fills the blank in, as a clause ("node "Get
// rows"'s "documentId", a template's blank, names a real resource"). A
// sub-node takes its root's answer.
func (g *Graph) BehindBlank(n *n8nschema.Node) (blank *n8nschema.Node, fill string, ok bool) {
	g.blankOnce.Do(g.blankReach)
	if g.blankOnly == nil || n == nil {
		return nil, "", false
	}
	for depth := 0; g.IsSubNode(n) && depth <= maxRootLevel; depth++ {
		if n = g.Root(n); n == nil {
			return nil, "", false
		}
	}
	i, in := g.index(n)
	if !in {
		return nil, "", false
	}
	b, found := g.blankOnly[int32(i)]
	if !found {
		return nil, "", false
	}
	blank = g.Nodes[b]
	if param, ok := n8nschema.BlankTarget(blank); ok {
		return blank, fmt.Sprintf("node %q's %q, a template's blank, names a real resource", blank.Name, param), true
	}
	where, _ := g.blankKey(blank)
	return blank, fmt.Sprintf("node %q's %s carries a key (it reads a field a Set node leaves blank for the owner)", blank.Name, where), true
}

// blankKey reports an HTTP Request whose key, a header or query parameter
// named for one (key, auth, token), takes its value from a field that the
// Set node it reads writes as "" or as a template's blank ("YOUR_API_KEY"):
// a config node the owner has not filled in, so the service refuses every
// call. It names the parameter (header "Authorization").
func (g *Graph) blankKey(n *n8nschema.Node) (string, bool) {
	if !n8nschema.IsHTTPRequest(n.Type) {
		return "", false
	}
	blank := func(v string) bool { return strings.TrimSpace(v) == "" || n8nschema.Placeholder(v) }
	for _, l := range [...]struct{ list, kind string }{{"headerParameters.parameters", "header"}, {"queryParameters.parameters", "query parameter"}} {
		for _, q := range n.Params().Get(l.list).Elems() {
			name, val := q.Get("name").Str(), q.Get("value").Str()
			if !n8nschema.CredentialField(name) {
				continue
			}
			for _, x := range exprRE.FindAllString(val, -1) {
				if setFixes(g, n, strings.TrimSpace(x[2:len(x)-2]), blank) {
					return fmt.Sprintf("%s %q", l.kind, name), true
				}
			}
		}
	}
	return "", false
}

// blankReach fills blankOnly: the nodes the runs reach (along the edges
// Reachable follows) only past a blank node, each with the nearest blank
// node that leads to it (file order between blank nodes as near), by
// onlyPast. Two walks: linear in the graph.
func (g *Graph) blankReach() {
	var blank []bool
	var blanks []int32
	for i, n := range g.Nodes {
		if n.Disabled || n.ContinuesOnFail() || n8nschema.IgnoresStatus(n) || g.specs[i].Role != n8nschema.RoleExternal || g.IsSubNode(n) {
			continue // it does not stop the run: its items go on
		}
		if _, ok := n8nschema.BlankTarget(n); !ok {
			if _, ok := g.blankKey(n); !ok {
				continue
			}
		}
		if blank == nil {
			blank = make([]bool, len(g.Nodes))
		}
		blank[i] = true
		blanks = append(blanks, int32(i))
	}
	if blank == nil {
		return
	}
	// What the runs reach without passing a blank node; the blank nodes
	// themselves are reached.
	open := make([]bool, len(g.Nodes))
	g.bfs(g.starts(nil), open, make([]int32, 0, len(g.Nodes)), func(e *Edge) bool { return !g.dead(e) && !blank[e.from] })
	var reached []int32
	for _, b := range blanks {
		if open[b] {
			reached = append(reached, b)
		}
	}
	g.blankOnly = g.onlyPast(reached, open)
}
