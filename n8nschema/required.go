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
// ("" or absent when its default is ""; a resource locator whose value
// is "", n8nschema's "~" entries), at the resources its display depends
// on when it depends on one (":sheet"). Every execution whose start
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
	for name := range strings.FieldsSeq(e.required) { // no slice for every node
		name, filled := strings.CutPrefix(name, "+")
		name, locator := strings.CutPrefix(name, "~")
		name, resources, gated := strings.Cut(name, ":")
		if name == "path" && webhookPaths[n.Type] {
			continue
		}
		if gated && !atResource(n, e.resource, resources) {
			continue
		}
		v, ok := n.Param(name)
		switch {
		case !ok && !filled:
			return name, true
		case ok && v.Kind() == String && v.Raw() == `""`:
			// The stored text itself: "=" is an expression, not empty.
			return name, true
		case ok && locator && v.Kind() == Object:
			// n8n-workflow type-guards.js isValidResourceLocatorParameterValue:
			// a number is a value, else the value must be truthy.
			if x := v.Get("value"); !x.Exists() || x.Kind() == Null || x.Kind() == String && x.Raw() == `""` {
				return name, true
			}
		}
	}
	return "", false
}

// atResource reports a node certainly at one of resources (comma
// separated): its resource is that literal, or absent with the default
// def among them. An expression is not judged.
func atResource(n *Node, def, resources string) bool {
	r := def
	if v, ok := n.Param("resource"); ok {
		if v.Kind() != String || v.IsExpr() {
			return false
		}
		r = v.Str()
	}
	if r == "" {
		return false
	}
	for _, x := range strings.Split(resources, ",") {
		if x == r {
			return true
		}
	}
	return false
}
