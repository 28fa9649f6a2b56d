package rules

import (
	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// What an HTTP call does, read from its endpoint, is decided in
// analyze/endpoint.go; here only the call into n8n itself.

// selfWebhookCall reports whether a node is a call into n8n itself (a
// webhook of this instance or of a workflow in the set): what it re-sends
// is an execution, and RS102/RS101 speak for it.
func selfWebhookCall(pass *analyze.Pass, n *n8nschema.Node) bool {
	for _, c := range pass.Set.Calls {
		if c.Node == n && c.Kind == analyze.CallWebhook && (c.Resolved() || c.Instance) {
			return true
		}
	}
	return false
}
