package analyze

import (
	"encoding/json"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestURLHostReadsBody(t *testing.T) {
	for url, want := range map[string]bool{
		`=https://{{ $json.body.domain || "YOUR_STORE" }}.myshopify.com/admin/api/2024-01/orders.json`: true,
		`={{ $json.body.url }}`: true,
		`=https://{{$json["body"]["data"]["options"][0]["value"]}}`: false, // "https:///": the path is read as the host
		`=https://api.example.com/items/{{ $json.body.id }}`:        false, // the path, not the host
		`=https://api.example.com?shop={{ $json.body.shop }}`:       false,
		`=https://{{ $json.body?.domain }}.myshopify.com/admin`:     false, // undefined, no throw
		`=https://{{ $json.domain }}.myshopify.com/admin`:           false,
		`=https://{{ $json.bodyText.x }}/a`:                         false,
		`=https://api.{{ $json.body.region }}..example.com/v1`:      true,
		`=https://{{ $json.env }}.{{ $json.body.shop }}/x`:          false,
	} {
		if _, got := urlHostReadsBody(url); got != want {
			t.Errorf("urlHostReadsBody(%s) = %v, want %v", url, got, want)
		}
	}
}

// TestBodylessRead: a recipient that is only a read of a body field off
// a Shopify Trigger's item (by $json after it, or by the trigger's name)
// throws (a fallback after it never runs), so the message goes to no
// one; the read as a fallback, an optional chain, the order's own field
// or a Webhook's body reads something.
func TestBodylessRead(t *testing.T) {
	const (
		shopify = `{"name":"Order","type":"n8n-nodes-base.shopifyTrigger","typeVersion":1,"position":[0,0],"parameters":{"topic":"orders/create"}}`
		webhook = `{"name":"Order","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"httpMethod":"POST","path":"order"}}`
	)
	whatsApp := func(to string) string {
		b, _ := json.Marshal(to)
		return `{"name":"Send","type":"n8n-nodes-base.whatsApp","typeVersion":1.1,"position":[200,0],"parameters":{"resource":"message","operation":"send","phoneNumberId":"1","recipientPhoneNumber":` + string(b) + `,"textBody":"shipped"}}`
	}
	cases := []struct {
		name, trigger, send string
		want                Consequence
	}{
		{"$json.body under Shopify", shopify, whatsApp("={{ $json.body.phone }}"), NoEffect},
		{"the trigger by name", shopify, whatsApp("={{ $('Order').item.json.body.phone }}"), NoEffect},
		{"$node by name", shopify, whatsApp(`={{ $node["Order"].json["body"]["phone"] }}`), NoEffect},
		{"a fallback after the read", shopify, whatsApp("={{ $json.body.phone || $json.phone }}"), NoEffect},
		{"the read as a fallback", shopify, whatsApp("={{ $json.phone || $json.body.phone }}"), Harm},
		{"an optional chain", shopify, whatsApp("={{ $json.body?.phone }}"), Harm},
		{"the order's own field", shopify, whatsApp("={{ $json.phone }}"), Harm},
		{"a Webhook's body", webhook, whatsApp("={{ $json.body.phone }}"), Harm},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `{"name":"W","nodes":[` + c.trigger + `,` + c.send + `],"connections":{"Order":{"main":[[{"node":"Send","type":"main","index":0}]]}}}`
			s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, DefaultOptions())
			g := s.Graph(s.Workflows[0])
			if e := ConsequenceIn(g, g.Node("Send")); e.Consequence != c.want {
				t.Errorf("ConsequenceIn = %v (%q), want %v", e.Consequence, e.Duplicate, c.want)
			}
		})
	}
}
