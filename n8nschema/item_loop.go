package n8nschema

import "strings"

// sendsEveryItem are the nodes whose execute() starts every input item's
// request before it reads an answer, so that each try sends all items and
// then throws: HTTP Request (Promise.allSettled, HttpRequestV1–V3), MQTT
// (Mqtt.node.js L132), RabbitMQ (RabbitMQ.node.js L397, L453), Peekalink
// (L63), Google Cloud Firestore (GoogleFirebaseCloudFirestore.node.js L146,
// L211, L266) and MySQL v1 (MySqlV1.node.js L283, L347); n8n-nodes-base
// 2.8.4.
var sendsEveryItem = map[string]bool{
	TypeHTTPRequest:                               true,
	TypeToolHTTPRequest:                           true,
	"n8n-nodes-base.mqtt":                         true,
	"n8n-nodes-base.rabbitmq":                     true,
	"n8n-nodes-base.peekalink":                    true,
	"n8n-nodes-base.googleFirebaseCloudFirestore": true,
}

// StopsAtFirstFailedItem reports a node whose try ends at its first failed
// item: it runs its items one after another (for (let i = 0; i <
// items.length; i++) with a throw when it does not continue on fail, as
// nearly every app node does), so while its dependency is down each try
// sends one item's request whatever the items (observed:
// testdata/engine/onerror-zoho-items-stop, 2 items and 3 tries: 3 requests).
// A node that continues on fail tries every item; the nodes of
// sendsEveryItem send every item before they throw.
func StopsAtFirstFailedItem(n *Node) bool {
	if n.ContinuesOnFail() {
		return false
	}
	typ := strings.TrimSuffix(n.Type, "Tool")
	if typ == "n8n-nodes-base.mySql" {
		return n.TypeVersion >= 2
	}
	return !sendsEveryItem[typ]
}
