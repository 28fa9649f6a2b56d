package rules

import (
	"slices"
	"strconv"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about the credentials a node names.

// authMismatch is a node that names a credential its authentication (or
// the parameter its credentials hang on) does not take (RS007), and what
// it takes instead.
type authMismatch struct {
	named  string   // the credential named, one the node takes for another authentication
	param  string   // the parameter credentials hang on: authentication, Ghost's source
	auth   string   // its value, as set or by default
	how    string   // where auth comes from
	stored bool     // auth is set on the node
	want   []string // the credentials auth requires, sorted
}

// credentialMismatch reports an enabled node, connected or a trigger
// (n8n checks only those), whose credential is one the node takes for
// another authentication than its own (or another value of the parameter
// its credentials hang on), as set or by the default of its version. An
// authentication set by an expression is not judged.
func credentialMismatch(g *analyze.Graph, n *n8nschema.Node) (authMismatch, bool) {
	if n.Disabled || len(n.Credentials) == 0 {
		return authMismatch{}, false
	}
	d, ok := n.Describe()
	if !ok {
		return authMismatch{}, false
	}
	m := authMismatch{}
	for _, c := range n.Credentials {
		if _, gated := d.AuthCredentialOf(c); gated {
			m.named = c
			break
		}
	}
	if m.named == "" || len(g.Out(n)) == 0 && len(g.In(n)) == 0 && !g.WiredUnrun(n) && !d.Trigger() {
		return authMismatch{}, false
	}
	m.param, m.auth = d.CredentialParam(), d.DefaultAuthentication()
	if v, set := n.Param(m.param); set {
		if v.Kind() != n8nschema.String || v.IsExpr() {
			return authMismatch{}, false
		}
		m.auth, m.how, m.stored = v.Str(), "set on the node", true
	}
	for t := range d.AuthCredentialsFor(m.auth) {
		if !slices.Contains(n.Credentials, t) {
			m.want = append(m.want, t)
		}
	}
	if len(m.want) == 0 {
		return authMismatch{}, false
	}
	slices.Sort(m.want)
	switch {
	case m.stored: // the wording of a mismatch, made once there is one
	case !n.TypeVersionSet:
		m.how = "the default of v" + strconv.FormatFloat(d.Version, 'f', -1, 64) + ", the version n8n runs a node with no typeVersion at; not stored on the node"
	default:
		m.how = "the default of v" + strconv.FormatFloat(d.Version, 'f', -1, 64) + ", not stored on the node"
	}
	return m, true
}

// publishRefused returns the nodes (at most two, in file order) for whose
// credential n8n refuses to publish the workflow, and the credential type
// each lacks: an enabled node
// that is connected or a trigger (n8n checks no other) and names a
// credential, but not one of a type it requires in every configuration (a
// WhatsApp Trigger given a "whatsAppApi" credential where it takes only
// "whatsAppTriggerApi"), or whose stored authentication requires a type
// it does not name (credentialMismatch, stored). A node that names no
// credential at all is a template's blank the owner fills in, not read.
func publishRefused(g *analyze.Graph) (nodes []*n8nschema.Node, creds []string) {
	for _, n := range g.Nodes {
		if len(nodes) == 2 {
			break
		}
		if n.Disabled || len(n.Credentials) == 0 {
			continue
		}
		d, ok := n.Describe()
		if !ok || len(g.Out(n)) == 0 && len(g.In(n)) == 0 && !d.Trigger() {
			continue
		}
		if c, ok := lacksRequired(n, d); ok {
			nodes, creds = append(nodes, n), append(creds, c)
		} else if m, ok := credentialMismatch(g, n); ok && m.stored {
			nodes, creds = append(nodes, n), append(creds, m.want[0])
		}
	}
	return nodes, creds
}

// lacksRequired returns a credential type n requires in every
// configuration and does not name.
func lacksRequired(n *n8nschema.Node, d n8nschema.NodeVersion) (string, bool) {
	for _, c := range d.RequiredCredentials() {
		if !slices.Contains(n.Credentials, c) {
			return c, true
		}
	}
	return "", false
}
