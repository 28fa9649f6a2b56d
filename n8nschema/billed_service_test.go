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
		// An existing run's abort, metamorph or resurrect starts no billed work.
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/acts/x~y/runs/r1/abort"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/actor-tasks/t/runs/last/metamorph"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/actor-tasks/t/runs?token=t"}}`, "Apify"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/acts/x~y/runs/"}}`, "Apify"},
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

func TestSendsAccount(t *testing.T) {
	const url = `"url":"https://api.apify.com/v2/acts/x~y/run-sync-get-dataset-items`
	cases := []struct {
		params string
		want   bool
	}{
		{url + `"`, false},
		{url + `","authentication":"none"`, false},
		{url + `","authentication":"predefinedCredentialType","nodeCredentialType":"apifyApi"`, true},
		{url + `","authentication":"genericCredentialType","genericAuthType":"httpHeaderAuth"`, true},
		{url + `?token=YOUR_APIFY_TOKEN"`, false},
		{url + `?token=APIFY_TOKEN"`, false},
		{url + `?token=apify_api_9fQ2xLmR4tWcZ8vN1bK7"`, true},
		{`"url":"=https://api.apify.com/v2/acts/x~y/runs?token={{ $env.APIFY_TOKEN }}"`, true},
		{url + `","queryParameters":{"parameters":[{"name":"token","value":"<your token>"}]}`, false},
		{url + `","queryParameters":{"parameters":[{"name":"token","value":"={{ $vars.apify }}"}]}`, true},
		{url + `","headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer YOUR_API_KEY"}]}`, false},
		{url + `","headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer apify_api_9fQ2xLmR4tWcZ8vN1bK7"}]}`, true},
		{url + `","headerParameters":{"parameters":[{"name":"Accept","value":"application/json"}]}`, false},
		{url + `","jsonHeaders":"{\"Authorization\": \"Bearer k\"}"`, true},
	}
	for _, c := range cases {
		js := `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST",` + c.params + `}}`
		if got := SendsAccount(node(t, js)); got != c.want {
			t.Errorf("SendsAccount(%s) = %v, want %v", c.params, got, c.want)
		}
	}
}
