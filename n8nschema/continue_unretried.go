package n8nschema

import "strings"

// errorBesideJSON are the nodes that, when they continue on fail, catch a
// failed item's error in their own loop and hand on {json: {}, error}: the
// error beside json, not in it (ClickUp.node.js, ZohoCrm.node.js, … in
// their execute's catch; the same in n8n 2.8.4 and 2.41.1). Baserow does
// too, but it first fetches the table's fields outside that loop, which
// throws when the service is down, so its retry still fires then.
var errorBesideJSON = map[string]bool{
	"n8n-nodes-base.beeminder":  true,
	"n8n-nodes-base.bitly":      true,
	"n8n-nodes-base.Brandfetch": true,
	"n8n-nodes-base.chargebee":  true,
	"n8n-nodes-base.circleCi":   true,
	"n8n-nodes-base.ciscoWebex": true,
	"n8n-nodes-base.clearbit":   true,
	"n8n-nodes-base.clickUp":    true,
	"n8n-nodes-base.clockify":   true,
	"n8n-nodes-base.coinGecko":  true,
	"n8n-nodes-base.contentful": true,
	"n8n-nodes-base.convertKit": true,
	"n8n-nodes-base.copper":     true,
	"n8n-nodes-base.deepL":      true,
	"n8n-nodes-base.zohoCrm":    true,
	"n8n-nodes-base.zoom":       true,
}

// RetryNeverRepeats reports a node whose Retry On Fail never sends a
// failed call again: it continues on fail and is one of the nodes that
// hand the error on beside json. n8n's main loop repeats a node that threw,
// or whose first output item has json.error (n8n-core workflow-execute.js
// L1205–1236 in 2.41.1, L877–888 in 2.8.4); such a node neither throws nor
// sets json.error, so it runs once (observed: testdata/engine/onerror-zoho-*).
// Every other node that continues puts the error in json ({json: {error}})
// and is repeated like one that throws.
func RetryNeverRepeats(n *Node) bool {
	return n.ContinuesOnFail() && errorBesideJSON[strings.TrimSuffix(n.Type, "Tool")]
}
