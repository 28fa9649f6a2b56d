package analyze

import (
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestWebhookGateFalse: an If fed by a Webhook whose condition reads a key
// the Webhook's item lacks passes no item when the string test is false
// on "" (equals a literal, is not empty); is empty is true on "".
func TestWebhookGateFalse(t *testing.T) {
	for _, tc := range []struct {
		left, op, right string
		want            bool
	}{
		{"={{ $json.organizer.name }}", "equals", "Digitalise Agency", true},
		{"={{ $json.serviceTier }}", "equals", "enterprise", true},
		{"={{ $json.organizer.name }}", "notEmpty", "", true},
		{"={{ $json.organizer.name }}", "empty", "", false},
		{"={{ $json.organizer.name }}", "notEquals", "x", false},
		{"={{ $json.organizer.name }}", "equals", "", false},
		{"={{ $json.body.organizer.name }}", "equals", "Digitalise Agency", false},
		{"={{ $json.query.a }}", "equals", "x", false},
	} {
		src := fmt.Sprintf(`{"nodes":[
{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":2,"parameters":{"path":"p","httpMethod":"POST"}},
{"name":"If","type":"n8n-nodes-base.if","typeVersion":2,"parameters":{"conditions":{"combinator":"and","conditions":[
 {"leftValue":%q,"rightValue":%q,"operator":{"type":"string","operation":%q}}]}}}],
"connections":{"Webhook":{"main":[[{"node":"If","type":"main","index":0}]]}}}`, tc.left, tc.right, tc.op)
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))
		o := DefaultOptions()
		g := buildGraph(f.Workflows[0], o.Version())
		i, _ := g.index(f.Workflows[0].Node("If"))
		if got := g.webhookGateFalse(i); got != tc.want {
			t.Errorf("%s %s %q: webhookGateFalse = %v, want %v", tc.left, tc.op, tc.right, got, tc.want)
		}
	}
}
