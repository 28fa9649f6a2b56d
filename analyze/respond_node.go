package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// A Webhook whose Respond setting does not match the Respond to Webhook
// nodes after it refuses every request.

// Why a Webhook refuses every request (respondMismatch).
const (
	noRespondWhy     = "it is set to answer through a Respond to Webhook node (Respond \"Using 'Respond to Webhook' Node\") and none follows it: n8n refuses every request with \"No Respond to Webhook node found in the workflow\""
	unusedRespondWhy = "a Respond to Webhook node follows it but its Respond setting is not \"Using 'Respond to Webhook' Node\": n8n refuses every request with \"Unused Respond to Webhook node found in the workflow\""
)

// respondMismatch reports node i when it is an enabled Webhook v2 or
// later (its stored typeVersion: the Webhook tests the version the
// workflow holds, and an export with none is not judged) whose Respond
// setting does not match the nodes after it, and why. On every request
// its webhook method first calls checkResponseModeConfiguration
// (n8n-nodes-base/dist/nodes/Webhook/utils.js; Webhook.node.js webhook,
// for nodeVersion >= 2), which lists the nodes after it (getChildNodes:
// every stored main connection, disabled nodes included,
// n8n-workflow/dist/cjs/common/get-connected-nodes.js) and throws
//
//   - "No Respond to Webhook node found in the workflow" when responseMode
//     is "responseNode" and none of them is a Respond to Webhook node;
//   - "Unused Respond to Webhook node found in the workflow" when one of
//     them is and responseMode is neither "responseNode" nor "streaming"
//     ("onReceived" by default), unless a Wait node after the webhook that
//     resumes on a webhook or form call and answers through a Respond node
//     owns it: a workflow with such a Wait is not judged.
//
// The caller gets an error, and n8n records an execution that fails at
// the webhook (n8n/dist/webhooks/webhook-helpers.js keeps the error and
// rethrows it when the webhook node runs), so nothing after it runs.
// follows is respondFollows' answer.
func (g *Graph) respondMismatch(i int, follows []bool, resumable bool) (string, bool) {
	nd := g.Nodes[i]
	if nd.Type != n8nschema.TypeWebhook || nd.Disabled || !nd.TypeVersionSet || nd.TypeVersion < 2 {
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
	switch {
	case mode == "responseNode" && !respond:
		return noRespondWhy, true
	case mode != "responseNode" && mode != "streaming" && respond && !resumable:
		return unusedRespondWhy, true
	}
	return "", false
}

// respondFollows marks the nodes from which a Respond to Webhook node
// (disabled or not) is reached along stored main connections, the
// connections at outputs the node does not have included (n8n's
// getChildNodes reads the stored connections), and reports whether the
// workflow holds a Wait node that resumes on a webhook or form call and
// answers through a Respond node (which may own a Respond node); nil when
// the workflow holds no Webhook to judge. One backward walk: linear.
func (g *Graph) respondFollows() (follows []bool, resumable bool) {
	judged := false
	for _, nd := range g.Nodes {
		switch {
		case nd.Type == n8nschema.TypeWebhook && !nd.Disabled && nd.TypeVersionSet && nd.TypeVersion >= 2:
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

// RespondMismatch reports a Webhook that refuses every request because
// its Respond setting does not match the Respond to Webhook nodes after
// it (respondMismatch), and whether none follows it.
func (g *Graph) RespondMismatch(n *n8nschema.Node) (missing, ok bool) {
	i, found := g.index(n)
	if !found || g.respondWhy == nil {
		return false, false
	}
	why, ok := g.respondWhy[int32(i)]
	return why == noRespondWhy, ok
}
