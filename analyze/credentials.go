package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// KeepsCredentials reports an export in which some node names a
// credential: one whose credentials were not all taken out.
func (g *Graph) KeepsCredentials() bool {
	for _, nd := range g.Nodes {
		if len(nd.Credentials) > 0 {
			return true
		}
	}
	return false
}

// LacksCredential reports a required credential node n does not name
// (n8nschema.MissingCredential) in an export that keeps credentials: n
// then fails at its first getCredentials call
// (n8n-core/dist/execution-engine/node-execution-context/node-execution-context.js
// L223-233, "Node does not have any credentials set").
func (g *Graph) LacksCredential(n *n8nschema.Node) (string, bool) {
	c, ok := n8nschema.MissingCredential(n)
	return c, ok && g.KeepsCredentials()
}
