package n8nschema

import "strings"

// errorBesideJSON are the nodes that, when they continue on fail, catch a
// failed item's error in their own loop and hand on the error beside json,
// not in it, from the typeVersion given (0: every one): {json: {}, error}
// (ClickUp.node.js, ZohoCrm.node.js, … in their execute's catch; the same
// in n8n 2.8.4 and 2.41.1), or the input item's json with the error beside
// it, in the versioned routers ({json: getInputData(i)[0].json, error}:
// Google/Sheet/v2/actions/router.js L87-88, run from typeVersion 3 by
// GoogleSheets.node.js L60-70; SeaTable/v2/actions/router.js L71-72, from
// 2; Mattermost/v1, BambooHr/v1 and DataTable/actions/router.js; Ldap.node.js
// L381). Baserow does too, but it first fetches the table's fields outside
// that loop, which throws when the service is down, so its retry still
// fires then.
var errorBesideJSON = map[string]float64{
	"n8n-nodes-base.beeminder":    0,
	"n8n-nodes-base.bitly":        0,
	"n8n-nodes-base.Brandfetch":   0,
	"n8n-nodes-base.chargebee":    0,
	"n8n-nodes-base.circleCi":     0,
	"n8n-nodes-base.ciscoWebex":   0,
	"n8n-nodes-base.clearbit":     0,
	"n8n-nodes-base.clickUp":      0,
	"n8n-nodes-base.clockify":     0,
	"n8n-nodes-base.coinGecko":    0,
	"n8n-nodes-base.contentful":   0,
	"n8n-nodes-base.convertKit":   0,
	"n8n-nodes-base.copper":       0,
	"n8n-nodes-base.deepL":        0,
	"n8n-nodes-base.zohoCrm":      0,
	"n8n-nodes-base.zoom":         0,
	"n8n-nodes-base.googleSheets": 3,
	"n8n-nodes-base.seaTable":     2,
	"n8n-nodes-base.mattermost":   0,
	"n8n-nodes-base.bambooHr":     0,
	"n8n-nodes-base.dataTable":    0,
	"n8n-nodes-base.ldap":         0,
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
	from, ok := errorBesideJSON[strings.TrimSuffix(n.Type, "Tool")]
	return ok && n.ContinuesOnFail() && n.TypeVersion >= from
}
