package analyze

import "testing"

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
