package analyze

import (
	"strconv"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Unpublishable is why n8n 2.x refuses to publish (activate) a workflow:
// a node it validates lacks a required credential, or misses a required
// parameter. n8n names that node when the owner publishes; RS007 reads it
// for its own severity. It does not make the workflow's other findings a
// person's: the owner fills in what n8n names, publishes, and whatever else
// fails then fails unattended (readings 9-M1, 9-M2, 9-M3 in
// docs/precision.md, part CM).
type Unpublishable struct {
	Node       *n8nschema.Node   // the first node it refuses
	Nodes      []*n8nschema.Node // every node it refuses, Node first
	Credential string            // the required credential type it lacks, or ""
	Param      string            // the required parameter it misses, or ""
}

// Why says it for a message.
func (u *Unpublishable) Why() string {
	if u.Credential != "" {
		return "n8n refuses to publish the workflow: node " + strconv.Quote(u.Node.Name) + " has no credential of the type it requires (" + strconv.Quote(u.Credential) + ")"
	}
	return "n8n refuses to publish the workflow: node " + strconv.Quote(u.Node.Name) + " misses its required parameter " + strconv.Quote(u.Param)
}

// publishRefusal finds the first node n8n 2.x's publication check refuses:
// every enabled node that has a connection of any type (sub-nodes
// included) or is a trigger, webhook or poller is checked for its
// required credentials and parameters (n8n/dist/workflows/
// workflow-validation.service.js validateNodeConfiguration L32-66, called
// by validateForActivation L197-207 when the workflow is published,
// workflow.service.js L1082). n8n 1.x has no such check.
func publishRefusal(g *Graph) *Unpublishable {
	if g.ver.Major < 2 || len(g.Unloadable) > 0 {
		return nil
	}
	// n8n's export keeps each node's credential reference; a file with
	// none at all may have had them taken out (a template, a shared
	// sample), and whoever imports it selects them before publishing. A
	// missing credential is read only where the export keeps others.
	keeps := g.keepsCredentials()
	var u *Unpublishable
	for i, nd := range g.Nodes {
		if nd.Disabled {
			continue
		}
		d, ok := n8nschema.DescribeNode(nd.Type, nd.TypeVersion)
		if !ok || len(g.ins(i)) == 0 && len(g.outs(i)) == 0 && !d.TriggerLike() {
			continue
		}
		c, cred := n8nschema.MissingCredential(nd)
		cred = cred && keeps
		p, param := n8nschema.MissingRequired(nd)
		switch {
		case !cred && !param:
			continue
		case u == nil && cred:
			u = &Unpublishable{Node: nd, Credential: c}
		case u == nil:
			u = &Unpublishable{Node: nd, Param: p}
		}
		u.Nodes = append(u.Nodes, nd)
	}
	return u
}

// Unpublishable reports why n8n 2.x refuses to publish the workflow, when
// it does and the export does not show it active or published (such an
// export ran, on an n8n that let it: its runs are not a person's).
func (g *Graph) Unpublishable() (*Unpublishable, bool) {
	if g.unpublishable == nil || RunStateOf(g.Workflow) == RunShown {
		return nil, false
	}
	return g.unpublishable, true
}

// keepsCredentials reports an export in which some node names a
// credential: one whose credentials were not all taken out.
func (g *Graph) keepsCredentials() bool {
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
	return c, ok && g.keepsCredentials()
}
