package n8nschema

import "testing"

func TestBilledService(t *testing.T) {
	cases := []struct {
		js   string
		want string
	}{
		{`{"name":"a","type":"@apify/n8n-nodes-apify.apify","parameters":{"operation":"Run actor and get dataset"}}`, "Apify"},
		{`{"name":"a","type":"@apify/n8n-nodes-apify.apify","parameters":{"operation":"Scrape single URL"}}`, "Apify"},
		{`{"name":"a","type":"@apify/n8n-nodes-apify.apify","parameters":{"resource":"Datasets","operation":"Get items"}}`, ""},
		{`{"name":"a","type":"@mendable/n8n-nodes-firecrawl.firecrawl","parameters":{"operation":"scrape"}}`, "Firecrawl"},
		{`{"name":"a","type":"@mendable/n8n-nodes-firecrawl.firecrawl","parameters":{"operation":"getCrawlStatus"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/acts/x~y/runs"}}`, "Apify"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"=https://api.apify.com/v2/acts/x~y/run-sync-get-dataset-items?token=t"}}`, "Apify"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.apify.com/v2/acts/x~y/runs/last"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.apify.com/v2/datasets/d/items"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.firecrawl.dev/v1/scrape"}}`, "Firecrawl"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.firecrawl.dev/v1/crawl/abc"}}`, ""},
	}
	for _, c := range cases {
		got, _ := BilledService(node(t, c.js))
		if got != c.want {
			t.Errorf("BilledService(%s) = %q, want %q", c.js, got, c.want)
		}
	}
}
