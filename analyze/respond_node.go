package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// A Webhook set to answer through a Respond to Webhook node that follows
// none refuses every request.

// noRespondNode reports node i when it is an enabled Webhook v2 or later
// (its stored typeVersion: the Webhook tests the version the workflow
// holds, and an export with none is not judged) whose Respond parameter
// is "Using 'Respond to Webhook' Node" (responseMode "responseNode") and
// that no Respond to Webhook node follows along main connections. On
// every request its webhook method first calls
// checkResponseModeConfiguration (n8n-nodes-base/dist/nodes/Webhook/utils.js,
// Webhook.node.js webhook: nodeVersion >= 2), which lists the nodes after
// it (getChildNodes: every main output, disabled nodes included,
// n8n-workflow/dist/cjs/common/get-connected-nodes.js) and throws "No
// Respond to Webhook node found in the workflow" when none is a Respond to
// Webhook node, whatever else the workflow holds. The caller gets an
// error, and n8n records an execution that fails at the webhook
// (n8n/dist/webhooks/webhook-helpers.js: the error is kept and rethrown
// when the webhook node runs), so nothing after it runs.
//
// reachesRespond marks the nodes a Respond to Webhook node follows
// (respondFollows).
func (g *Graph) noRespondNode(i int, reachesRespond []bool) bool {
	nd := g.Nodes[i]
	if nd.Type != n8nschema.TypeWebhook || nd.Disabled || !nd.TypeVersionSet || nd.TypeVersion < 2 {
		return false
	}
	m, ok := nd.Param("responseMode")
	if !ok || m.Kind() != n8nschema.String || m.IsExpr() || m.Str() != "responseNode" {
		return false
	}
	return reachesRespond == nil || !reachesRespond[i]
}

// noRespondWhy says why noRespondNode's webhook fails.
const noRespondWhy = "it is set to answer through a Respond to Webhook node (Respond \"Using 'Respond to Webhook' Node\") and none follows it: n8n refuses every request with \"No Respond to Webhook node found in the workflow\""

// respondFollows marks the nodes from which a Respond to Webhook node
// (disabled or not) is reached along stored main connections, the
// connections at outputs the node does not have included (n8n's
// getChildNodes reads the stored connections); nil when the workflow
// holds no answering Webhook to judge. One backward walk: linear.
func (g *Graph) respondFollows() []bool {
	judged := false
	for i := range g.Nodes {
		if g.noRespondNode(i, nil) {
			judged = true
			break
		}
	}
	if !judged {
		return nil
	}
	reaches := make([]bool, len(g.Nodes))
	var queue []int
	for i, nd := range g.Nodes {
		if nd.Type == n8nschema.TypeRespondToWebhook {
			queue = append(queue, i)
		}
	}
	if len(queue) == 0 {
		return reaches
	}
	// The connections at outputs a node does not have, by their target.
	unrun := map[*n8nschema.Node][]*Edge{}
	for _, e := range g.Unrun {
		unrun[e.To] = append(unrun[e.To], e)
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range g.ins(v) {
			if u := int(e.from); e.Type == ConnMain && !reaches[u] {
				reaches[u] = true
				queue = append(queue, u)
			}
		}
		for _, e := range unrun[g.Nodes[v]] {
			if u, ok := g.index(e.From); ok && !reaches[u] {
				reaches[u] = true
				queue = append(queue, u)
			}
		}
	}
	return reaches
}

// AnswersThroughMissingRespond reports a Webhook that refuses every
// request because no Respond to Webhook node follows it (noRespondNode).
func (g *Graph) AnswersThroughMissingRespond(n *n8nschema.Node) bool {
	i, ok := g.index(n)
	return ok && g.noRespond != nil && g.noRespond[i]
}
