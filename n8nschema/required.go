package n8nschema

import "strings"

// webhookPaths are the node types whose empty path the editor fills in
// with the node's webhookId when it imports a workflow
// (n8n-editor-ui useCanvasOperations resolveNodeWebhook), so an export
// with none is not judged by it.
var webhookPaths = map[string]bool{
	"n8n-nodes-base.webhook": true, "n8n-nodes-base.formTrigger": true, "@n8n/n8n-nodes-langchain.mcpTrigger": true,
}

// MissingRequired returns a parameter of n that n8n finds missing
// whatever n's other values: required, shown for every value, and empty
// ("" or absent when its default is ""). Every execution whose start
// reaches n along main connections fails on it before any node runs,
// production ones included (n8n-core workflow-execute.js
// checkForWorkflowIssues, WorkflowHasIssuesError), and n8n refuses to
// publish the workflow (cli workflow-validation.service.js
// validateNodeConfiguration). Only a version the node table lists
// exactly is judged, and not a tool variant, whose description n8n
// rewrites.
func MissingRequired(n *Node) (string, bool) {
	if n.Disabled {
		return "", false
	}
	es, ok := nodeTable()[n.Type]
	if !ok {
		return "", false
	}
	var e *nodeEntry
	for i := range es {
		for _, v := range es[i].v {
			if v == n.TypeVersion {
				e = &es[i]
			}
		}
	}
	if e == nil || e.required == "" {
		return "", false
	}
	for _, name := range strings.Fields(e.required) {
		name, filled := strings.CutPrefix(name, "+")
		if name == "path" && webhookPaths[n.Type] {
			continue
		}
		v, ok := n.Param(name)
		switch {
		case !ok && !filled:
			return name, true
		case ok && v.Kind() == String && v.Raw() == `""`:
			// The stored text itself: "=" is an expression, not empty.
			return name, true
		}
	}
	return "", false
}
