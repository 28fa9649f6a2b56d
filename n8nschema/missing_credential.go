package n8nschema

import (
	"slices"
	"strings"
)

// MissingCredential reports a required credential the node does not name,
// one n8n 2.x refuses to publish the workflow over when the node is
// enabled and connected, or a trigger (n8n-workflow/dist/cjs/node-validation.js
// validateNodeCredentials L11-41: "missing" when node.credentials has no
// entry of that type; called by n8n/dist/workflows/workflow-validation.service.js
// validateNodeConfiguration L32-66). Only what the node table decides is
// read: a credential required and shown always, or required for the value
// its credential parameter holds as a stored literal (AuthCredentials).
// The check passes the stored parameters to displayParameter, so a
// credential parameter left at its default shows no credential (RS007
// says what then happens at run time). A credential that is optional, or shown only for
// values of several parameters ("?" in the table), is not: n8n may not ask
// for it. An authentication set by an expression is not judged.
func MissingCredential(n *Node) (string, bool) {
	d, ok := n.Describe()
	if !ok || d.e == nil || d.e.creds == "" {
		return "", false
	}
	auth, authOK := "", false
	for c := range strings.FieldsSeq(d.e.creds) {
		if strings.HasSuffix(c, "?") {
			continue
		}
		name, vals, gated := strings.Cut(c, ":")
		if slices.Contains(n.Credentials, name) {
			continue
		}
		if !gated {
			return name, true
		}
		if !authOK {
			// The check reads the stored parameters: a parameter left
			// at its default is absent there and shows no credential.
			v, lit := literalParam(n, d.CredentialParam())
			if _, set := n.Param(d.CredentialParam()); !lit || !set {
				continue
			}
			auth, authOK = v, true
		}
		if (AuthCredential{name, vals}).For(auth) {
			return name, true
		}
	}
	return "", false
}

// TriggerLike reports a node n8n validates for publication even when it
// has no connection: one with a trigger, webhook or poll method
// (n8n-workflow/dist/cjs/node-validation.js isTriggerLikeNode L61-63).
func (d NodeVersion) TriggerLike() bool {
	return d.has(flagTrigger) || d.has(flagWebhook) || d.has(flagPolling)
}

// TypeExecuteCommand is the Execute Command node.
const TypeExecuteCommand = "n8n-nodes-base.executeCommand"

// ExcludedByDefault reports a node type that release v ships but leaves
// out unless the instance says otherwise: from 2.0, NODES_EXCLUDE
// defaults to Execute Command and the Local File Trigger
// (@n8n/config/dist/configs/nodes.config.js L34; n8n's own 2.0
// breaking-change rule, n8n/dist/modules/breaking-changes/rules/v2/
// disabled-nodes.rule.js L13-16). The loader skips an excluded type
// (n8n-core/dist/nodes-loader/directory-loader.js loadNodeFromFile
// L138-140), so getNode throws UnrecognizedNodeTypeError for it (L199),
// as for a type n8n does not ship.
func ExcludedByDefault(typ string, v Version) bool {
	return v.Major >= 2 && (typ == TypeExecuteCommand || typ == TypeLocalFileTrigger)
}
