package n8nschema

import (
	"strings"
	"testing"
)

// TestLiteralURL: a URL with {{ }} but no leading "=" fails where the
// braces stand in its host or path, or make it not start with http;
// braces only in the query string, a URL that starts with "=", a
// placeholder host and a node that keeps error statuses are not failures.
func TestLiteralURL(t *testing.T) {
	for _, c := range []struct {
		params      string
		typeVersion string
		why         string // "" when not refused
		fails, call bool
	}{
		{`{"url":"https://api.github.com/repos/a/b/issues/{{ $json.n }}"}`, "4.2", `for a path with the braces in it`, true, true},
		{`{"url":"https://api.github.com/repos/a/b/issues/{{ $json.n }}","options":{"response":{"response":{"neverError":true}}}}`, "4.2", `for a path`, false, true},
		{`{"url":"https://api.github.com/repos/a/b/issues/{{ $json.n }}","options":{"ignoreResponseCode":true}}`, "1", `for a path`, false, true},
		{`{"url":"  https://{{ $json.shop }}.myshopify.com/admin/orders.json"}`, "4.2", `stand in its host`, true, false},
		{`{"url":"https://user:secret@api.x.io:{{ $json.port }}/v1?token=abc"}`, "3", `"https://api.x.io:{{ $json.port }}/v1?…"`, true, false},
		{`{"url":"{{ $json.link }}"}`, "1", `"URL must start with "http" or "https""`, true, false},
		{`{"url":"{{ $json.link }}"}`, "2", `must start with`, true, false},
		{`{"url":"https://api.x.io/v1/items/{{ $json.id ? 1 : 2 }}"}`, "4.2", `for a path`, true, true},
		{`{"url":"=https://api.github.com/repos/a/b/issues/{{ $json.n }}"}`, "4.2", "", false, false},
		{`{"url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?key={{ $env.GEMINI_KEY }}"}`, "4.2", `its query parameter "key" holds the braces`, true, true},
		{`{"url":"https://api.x.io/v1/feed?format=json&api_key={{$env.K}}"}`, "4.2", `"api_key"`, true, true},
		{`{"url":"https://api.x.io/v1/feed?key={{ $json.k }}"}`, "4.2", "", false, false},
		{`{"url":"https://api.github.com/search/issues?q={{ $json.term }}"}`, "4.2", "", false, false},
		{`{"url":"https://api.example.com/items/{{ $json.id }}"}`, "4.2", "", false, false},
		{`{"url":"https://yourdomain.com/webhook/{{ $json.id }}"}`, "4.2", "", false, false},
		{`{"url":"https://{{user}}@api.x.io/v1"}`, "4.2", "", false, false},
		{`{"url":"https://api.x.io/v1/{ id }"}`, "4.2", "", false, false},
	} {
		node := `{"name":"n","type":"n8n-nodes-base.httpRequest","typeVersion":` + c.typeVersion + `,"parameters":` + c.params + `}`
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`)))
		r, refused := RefusedCall(f.Workflows[0].Nodes[0])
		if refused != (c.why != "") || !strings.Contains(r.Why, c.why) || refused && (r.Fails != c.fails || r.NoCall == c.call) {
			t.Errorf("%s: refused %v, fails %v, no call %v (%s); want %q, fails %v, call %v", node, refused, r.Fails, r.NoCall, r.Why, c.why, c.fails, c.call)
		}
	}
}

// TestNoKey: an HTTP Request to a model API whose authentication is "none"
// (set or by default) and that sends no key anywhere fails with 401, its
// credential unread; a credential the authentication asks for, a key in a
// header, the query string or the body, an expression that may build one,
// a generic host and a GET that is no model call are not judged. Any
// other API at a real host is judged when the node holds a credential it
// does not read; with no credential, a placeholder or an expression for a
// host, it is not.
func TestNoKey(t *testing.T) {
	const body = `"sendBody":true,"specifyBody":"json","jsonBody":"={\"model\":\"gpt-4o-mini\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"{{ $json.q }}\"}]}"`
	const openai = `"method":"POST","url":"https://api.openai.com/v1/chat/completions",` + body
	for _, c := range []struct {
		node string
		why  string // "" when not refused
	}{
		{`{"typeVersion":4.2,"parameters":{` + openai + `},"credentials":{"openAiApi":{"id":"1"}}}`, `it calls api.openai.com with no key: its authentication is "none", the default, so n8n does not read its credential "openAiApi"`},
		{`{"typeVersion":4.2,"parameters":{` + openai + `,"authentication":"none"}}`, `its authentication is "none", and no header`},
		{`{"typeVersion":1,"parameters":{"requestMethod":"POST","url":"https://api.openai.com/v1/embeddings"},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, `does not read its credential "httpHeaderAuth"`},
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"}}`, `answers 403`},
		{`{"typeVersion":4.2,"parameters":{` + openai + `,"authentication":"predefinedCredentialType","nodeCredentialType":"openAiApi"}}`, ""},
		{`{"typeVersion":4.2,"parameters":{` + openai + `,"authentication":"genericCredentialType","genericAuthType":"httpHeaderAuth"}}`, ""},
		{`{"typeVersion":1,"parameters":{"requestMethod":"POST","url":"https://api.openai.com/v1/embeddings","authentication":"headerAuth"}}`, ""},
		// v3's header list on a v1 node is dropped at load (RS011): its key never goes.
		{`{"typeVersion":1,"parameters":{"requestMethod":"POST","url":"https://api.openai.com/v1/embeddings","sendHeaders":true,"headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer k"}]}}}`, `it calls api.openai.com with no key`},
		{`{"typeVersion":1,"parameters":{"requestMethod":"POST","url":"https://api.openai.com/v1/embeddings","headerParametersUi":{"parameter":[{"name":"Authorization","value":"Bearer k"}]}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{` + openai + `,"sendHeaders":true,"headerParameters":{"parameters":[{"name":"Authorization","value":"=Bearer {{ $env.KEY }}"}]}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{` + openai + `,"sendHeaders":true,"headerParameters":{"parameters":[{"name":"={{ $json.h }}","value":"x"}]}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{` + openai + `,"sendHeaders":true,"specifyHeaders":"json","jsonHeaders":"={{ $json.headers }}"}}`, ""},
		{`{"typeVersion":1,"parameters":{"requestMethod":"POST","url":"https://api.anthropic.com/v1/messages","jsonParameters":true,"headerParametersJson":"{\"x-api-key\":\"k\"}"}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"=https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?key={{ $env.K }}"}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent","sendQuery":true,"queryParameters":{"parameters":[{"name":"key","value":"={{ $env.K }}"}]}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"https://llm.internal.io/v1/chat/completions"}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://api.openai.com/v1/models"}}`, ""},
		{`{"typeVersion":4.2,"parameters":{` + openai + `,"authentication":"={{ $json.auth }}"}}`, ""},
		// Any API: a credential held and not read.
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.xero.com/api.xro/2.0/Invoices","sendBody":true,"specifyBody":"json","jsonBody":"{}"},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, `it calls api.xero.com with no key: its authentication is "none", the default, so n8n does not read its credential "httpHeaderAuth", and no header, query parameter or body field carries a key, so an API that asks for that credential answers 401`},
		{`{"typeVersion":1,"parameters":{"url":"https://api.linkedin.com/v2/search"},"credentials":{"linkedinApi":{"id":"1"}}}`, `does not read its credential "linkedinApi"`},
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.xero.com/api.xro/2.0/Invoices"}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.xero.com/api.xro/2.0/Invoices","authentication":"genericCredentialType","genericAuthType":"httpHeaderAuth"},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://api.yoursmarthome.com/sensors"},"credentials":{"httpBasicAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"={{ $json.url }}"},"credentials":{"httpBasicAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://api.example.com/v1"},"credentials":{"httpBasicAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://newsapi.org/v2/everything?apiKey=k"},"credentials":{"newsApi":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://api.weather.com/v3","sendHeaders":true,"headerParameters":{"parameters":[{"name":"X-Api-Key","value":"k"}]}},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"http://api.acme.io/v1/orders"},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, `it calls api.acme.io with no key`},
		// A user:password@ is basic authentication; a client certificate,
		// a body with a password, a null entry or httpSslAuth alone are
		// not a credential left unread.
		{`{"typeVersion":4.2,"parameters":{"url":"https://bob:s3cret@api.acme.io/v1/orders"},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"https://mtls.bank.co.uk/pay","provideSslCertificates":true},"credentials":{"httpSslAuth":{"id":"1"},"httpHeaderAuth":{"id":"2"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://mtls.bank.co.uk/pay"},"credentials":{"httpSslAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.acme.io/login","sendBody":true,"specifyBody":"json","jsonBody":"{\"user\":\"a\",\"password\":\"b\"}"},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://api.acme.io/v1/orders"},"credentials":{"httpHeaderAuth":null}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://api.acme.io/v1/orders","sendHeaders":true,"headerParameters":{"parameters":[{"name":"Cookie","value":"sid=1"}]}},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, ""},
		{`{"typeVersion":4.2,"parameters":{"url":"https://api.acme.io/v1/orders","sendQuery":true,"queryParameters":{"parameters":[{"name":"password","value":"p"}]}},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, ""},
	} {
		node := strings.Replace(c.node, `{`, `{"name":"n","type":"n8n-nodes-base.httpRequest",`, 1)
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`)))
		r, refused := noKey(f.Workflows[0].Nodes[0])
		if refused != (c.why != "") || !strings.Contains(r.Why, c.why) || refused && (!r.Fails || r.NoCall) {
			t.Errorf("%s: refused %v, fails %v (%s); want %q", node, refused, r.Fails, r.Why, c.why)
		}
	}
}

// TestURLHost: the host of a literal URL, never the user and password
// before it, whatever they hold ("@" in a password too).
func TestURLHost(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.acme.io/v1?x=1":            "api.acme.io",
		"http://api.acme.io:8080/v1":            "api.acme.io:8080",
		"https://bob:s3cret@api.acme.io/v1":     "api.acme.io",
		"https://bob:p@ss@w0rd@api.acme.io/v1":  "api.acme.io",
		"https://bob:p@ss@api.acme.io?next=a@b": "api.acme.io",
		"={{ $json.url }}":                      "",
		"https://{{ $json.host }}/v1":           "",
	} {
		if got := URLHost(in); got != want {
			t.Errorf("URLHost(%q) = %q, want %q", in, got, want)
		}
	}
}
