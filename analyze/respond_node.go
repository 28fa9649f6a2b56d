package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// A Webhook or Form Trigger whose Respond setting does not match the
// Respond to Webhook nodes after it refuses every request.

// Why a Webhook or Form Trigger refuses every request (respondMismatch).
const (
	noRespondWhy           = "it is set to answer through a Respond to Webhook node (Respond \"Using 'Respond to Webhook' Node\") and none follows it: n8n refuses every request with \"No Respond to Webhook node found in the workflow\""
	unusedRespondWhy       = "a Respond to Webhook node follows it but its Respond setting is not \"Using 'Respond to Webhook' Node\": n8n refuses every request with \"Unused Respond to Webhook node found in the workflow\""
	formNoRespondWhy       = "it is set to answer through a Respond to Webhook node (Respond When \"Using 'Respond to Webhook' Node\") and none follows it: n8n refuses to show or take the form with \"No Respond to Webhook node found in the workflow\""
	formUnusedRespondWhy   = "a Respond to Webhook node follows it but its Respond When setting is not \"Using 'Respond to Webhook' Node\" (\"Form Is Submitted\" when unset): n8n refuses to show or take the form with \"Unused Respond to Webhook node found in the workflow\""
	formUnsupportedRespWhy = "a Respond to Webhook node follows it, which Form Trigger v2.2 and later do not support: n8n refuses to show or take the form with \"The \"Respond to Webhook\" node is not supported in workflows initiated by the \"n8n Form Trigger\"\""
)

// RespondKind says how a trigger's Respond setting fails to match the
// Respond to Webhook nodes after it (Graph.RespondMismatch).
type RespondKind int

const (
	RespondMissing     RespondKind = iota + 1 // set to answer through one, and none follows
	RespondUnused                             // one follows, and the setting does not use it
	RespondUnsupported                        // one follows a Form Trigger that supports none
)

// respondMismatch reports node i when it is an enabled Webhook v2 or
// later, or an enabled Form Trigger (their stored typeVersion: both test
// the version the workflow holds, and an export with none is not judged),
// whose Respond setting does not match the nodes after it, and why.
//
// On every request the Webhook's webhook method first calls
// checkResponseModeConfiguration (n8n-nodes-base/dist/nodes/Webhook/utils.js;
// Webhook.node.js webhook, for nodeVersion >= 2), which lists the nodes
// after it (getChildNodes: every stored main connection, disabled nodes
// included, n8n-workflow/dist/cjs/common/get-connected-nodes.js) and throws
//
//   - "No Respond to Webhook node found in the workflow" when responseMode
//     is "responseNode" and none of them is a Respond to Webhook node;
//   - "Unused Respond to Webhook node found in the workflow" when one of
//     them is and responseMode is neither "responseNode" nor "streaming"
//     ("onReceived" by default), unless a Wait node after the webhook that
//     resumes on a webhook or form call and answers through a Respond node
//     owns it: a workflow with such a Wait is not judged.
//
// The Form Trigger (v1 and v2, formWebhook) calls
// validateResponseModeConfiguration (n8n-nodes-base Form/utils/utils.ts)
// on every request, the GET that shows the form included, with the same
// list and no Wait or streaming exception, and throws "No Respond to
// Webhook node found" as above; "Unused Respond to Webhook node found"
// when one follows, responseMode is not "responseNode" ("onReceived" by
// default at every version) and the version is 2.1 or less; and "The
// \"Respond to Webhook\" node is not supported ..." when one follows a
// version above 2.1, whatever responseMode says.
//
// The caller gets an error, and n8n records an execution that fails at
// the trigger (n8n/dist/webhooks/webhook-helpers.js keeps the error and
// rethrows it when the webhook node runs), so nothing after it runs.
// follows is respondFollows' answer.
func (g *Graph) respondMismatch(i int, follows []bool, resumable bool) (string, bool) {
	nd := g.Nodes[i]
	if !respondJudged(nd) {
		return "", false
	}
	mode := "onReceived"
	if m, ok := nd.Param("responseMode"); ok {
		if m.Kind() != n8nschema.String || m.IsExpr() {
			return "", false
		}
		mode = m.Str()
	}
	respond := follows != nil && follows[i]
	if nd.Type == n8nschema.TypeFormTrigger {
		switch {
		case mode == "responseNode" && !respond:
			return formNoRespondWhy, true
		case respond && nd.TypeVersion > 2.1:
			return formUnsupportedRespWhy, true
		case respond && mode != "responseNode":
			return formUnusedRespondWhy, true
		}
		return "", false
	}
	switch {
	case mode == "responseNode" && !respond:
		return noRespondWhy, true
	case mode != "responseNode" && mode != "streaming" && respond && !resumable:
		return unusedRespondWhy, true
	}
	return "", false
}

// respondJudged reports a trigger whose Respond setting n8n checks
// against the nodes after it on every request (respondMismatch).
func respondJudged(nd *n8nschema.Node) bool {
	if nd.Disabled || !nd.TypeVersionSet {
		return false
	}
	return nd.Type == n8nschema.TypeWebhook && nd.TypeVersion >= 2 || nd.Type == n8nschema.TypeFormTrigger
}

// respondFollows marks the nodes from which a Respond to Webhook node
// (disabled or not) is reached along stored main connections, the
// connections at outputs the node does not have included (n8n's
// getChildNodes reads the stored connections), and reports whether the
// workflow holds a Wait node that resumes on a webhook or form call and
// answers through a Respond node (which may own a Respond node); nil when
// the workflow holds no Webhook or Form Trigger to judge. One backward walk: linear.
func (g *Graph) respondFollows() (follows []bool, resumable bool) {
	judged := false
	for _, nd := range g.Nodes {
		switch {
		case respondJudged(nd):
			judged = true
		case nd.Type == "n8n-nodes-base.wait" && !nd.Disabled:
			r, rm := nd.Params().Get("resume"), nd.Params().Get("responseMode")
			if r.Str() == "webhook" || r.Str() == "form" || r.IsExpr() || rm.Str() == "responseNode" || rm.IsExpr() {
				resumable = true
			}
		}
	}
	if !judged {
		return nil, resumable
	}
	follows = make([]bool, len(g.Nodes))
	var queue []int
	for i, nd := range g.Nodes {
		if nd.Type == n8nschema.TypeRespondToWebhook {
			queue = append(queue, i)
		}
	}
	// The connections at outputs a node does not have, by their target.
	var unrun map[*n8nschema.Node][]*Edge
	if len(queue) > 0 && len(g.Unrun) > 0 {
		unrun = map[*n8nschema.Node][]*Edge{}
		for _, e := range g.Unrun {
			unrun[e.To] = append(unrun[e.To], e)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range g.ins(v) {
			if u := int(e.from); e.Type == ConnMain && !follows[u] {
				follows[u] = true
				queue = append(queue, u)
			}
		}
		for _, e := range unrun[g.Nodes[v]] {
			if u, ok := g.index(e.From); ok && !follows[u] {
				follows[u] = true
				queue = append(queue, u)
			}
		}
	}
	return follows, resumable
}

// RespondMismatch reports a Webhook or Form Trigger that refuses every
// request because its Respond setting does not match the Respond to
// Webhook nodes after it (respondMismatch), and how.
func (g *Graph) RespondMismatch(n *n8nschema.Node) (RespondKind, bool) {
	i, found := g.index(n)
	if !found || g.respondWhy == nil {
		return 0, false
	}
	why, ok := g.respondWhy[int32(i)]
	switch why {
	case noRespondWhy, formNoRespondWhy:
		return RespondMissing, ok
	case formUnsupportedRespWhy:
		return RespondUnsupported, ok
	}
	return RespondUnused, ok
}
