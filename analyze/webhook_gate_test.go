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
		typ             string // "string" when empty
		single          bool
	}{
		{"={{ $json.organizer.name }}", "equals", "Digitalise Agency", true, "", false},
		{"={{ $json.serviceTier }}", "equals", "enterprise", true, "", false},
		{"={{ $json.organizer.name }}", "notEmpty", "", true, "", false},
		{"={{ $json.organizer.name }}", "empty", "", false, "", false},
		{"={{ $json.organizer.name }}", "notEquals", "x", false, "", false},
		{"={{ $json.organizer.name }}", "equals", "", false, "", false},
		{"={{ $json.body.organizer.name }}", "equals", "Digitalise Agency", false, "", false},
		{"={{ $json.query.a }}", "equals", "x", false, "", false},
		{"={{ $json.properties.rdv_date }}", "notEmpty", "", true, "boolean", true},
		{"={{ $json.properties.rdv_date }}", "exists", "", true, "number", true},
		{"={{ $json.properties.rdv_date }}", "notEmpty", "", true, "object", true},
		{"={{ $json.properties.rdv_date }}", "true", "", true, "boolean", true},
		{"={{ $json.properties.rdv_date }}", "empty", "", false, "boolean", true},
		{"={{ $json.properties.rdv_date }}", "notExists", "", false, "number", true},
		{"={{ $json.properties.rdv_date }}", "false", "", false, "boolean", true},
		{"={{ $json.properties.rdv_date }}", "notEmpty", "", false, "boolean", false},
		{"={{ $json.body.properties.rdv_date }}", "notEmpty", "", false, "boolean", true},
		{"={{ $input.item.json.properties.rdv_date }}", "notEmpty", "", true, "boolean", true},
		{"={{ $('Webhook').item.json.properties.rdv_date }}", "notEmpty", "", true, "boolean", true},
		{"={{ $input.item.json.body.properties.rdv_date }}", "notEmpty", "", false, "boolean", true},
		{"={{ $('Other').item.json.properties.rdv_date }}", "notEmpty", "", false, "boolean", true},
	} {
		if tc.typ == "" {
			tc.typ = "string"
		}
		src := fmt.Sprintf(`{"nodes":[
{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":2,"parameters":{"path":"p","httpMethod":"POST"}},
{"name":"If","type":"n8n-nodes-base.if","typeVersion":2,"parameters":{"conditions":{"combinator":"and","conditions":[
 {"leftValue":%q,"rightValue":%q,"operator":{"type":%q,"operation":%q,"singleValue":%t}}]}}}],
"connections":{"Webhook":{"main":[[{"node":"If","type":"main","index":0}]]}}}`, tc.left, tc.right, tc.typ, tc.op, tc.single)
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))
		o := DefaultOptions()
		g := buildGraph(f.Workflows[0], o.Version())
		i, _ := g.index(f.Workflows[0].Node("If"))
		if got := g.webhookGateFalse(i); got != tc.want {
			t.Errorf("%s %s %s %q: webhookGateFalse = %v, want %v", tc.left, tc.typ, tc.op, tc.right, got, tc.want)
		}
	}
}
