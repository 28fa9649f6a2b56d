package n8nschema

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestBlankKeyText: a key typed as a template's blank is one; a key a
// service issues (random letters and digits, with a prefix at most) never
// is, nor a literal {{ }} (literalKey's), nor an empty value.
func TestBlankKeyText(t *testing.T) {
	for s, want := range map[string]bool{
		"Bearer YOUR_API_KEY_ENVIRONMENTTIPS":   true,
		"YOUR_API_KEY_SUSTAINABLEWORLD":         true,
		"<your_api_key>":                        true,
		"<YOUR_TOKEN>":                          true,
		"Bearer <api-key>":                      true,
		"[Your PiAPI Key]":                      true,
		"{YOUR-API-KEY}":                        true,
		"AddYourAPIKeyHere":                     true,
		"yourApiKeyGoesHere":                    true,
		"-put-your-api-key-":                    true,
		"replace-with-value":                    true,
		"Bearer key_XXXXXXXXX":                  true,
		"Bearer PUBLIC_TRANSIT_API_KEY":         true,
		"$OPENAI_API_KEY":                       true,
		"Basic YOUR_DID_API_KEY_BASE64":         true,
		"sk_live_51HxYz2eZvKYlo2C0aBcDeFgH":     false,
		"Bearer sk-proj-4fA9bC2dE7fG1hJ6kL3m":   false,
		"apify_api_TZIb2yKKetN4gclE8oTTpB4t":    false,
		"AIzaSyB7x3Qm9Lp2Rt5Vw8Yz1Ab4Cd7Ef0Gh":  false,
		"Bearer 9f3b2c71d4e8a6b5c0d1e2f3a4b5c6": false,
		"zm_9f3b2c71d4e8a6":                     false,
		"Bearer {{ $env.OPENAI_API_KEY }}":      false,
		"Bearer {{DEEPSEEK_API_KEY}}":           true, // a redacted export's mustache fill-in
		"{{ OPENAI_API_KEY }}":                  true,
		"Bearer {{ user.key }}":                 false,
		"":                                      false,
		"Bearer ":                               false,
	} {
		if got := BlankKeyText(s); got != want {
			t.Errorf("BlankKeyText(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestBlankKeyAndCredential: an HTTP Request v1 header, a v4 query
// parameter and a URL's query string that send a blank key; a header a
// v4 node does not send, a node with a credential, an idempotency key;
// a credential id n8n never generates, or one with neither id nor name, on a
// node that reads it, and not on one that ignores it nor one stored by
// name alone (the owner's, bound by name on import).
func TestBlankKeyAndCredential(t *testing.T) {
	for _, c := range []struct {
		name, node, where string
		cred              bool
	}{
		{"v1 header", `{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"url":"https://api.tips.org/daily","headerParametersUi":{"parameter":[{"name":"Authorization","value":"Bearer YOUR_API_KEY"}]}}}`, `header "Authorization"`, false},
		{"v4 query", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://generativelanguage.googleapis.com/v1beta/files","sendQuery":true,"queryParameters":{"parameters":[{"name":"key","value":"<your_api_key>"}]}}}`, `query parameter "key"`, false},
		{"url query", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://newsapi.org/v2/top?country=us&apiKey=YOUR_NEWSAPI_KEY"}}`, `query parameter "apiKey"`, false},
		{"v2 header", `{"type":"n8n-nodes-base.httpRequest","typeVersion":2,"parameters":{"url":"https://api.tips.org/daily","authentication":"none","headerParametersUi":{"parameter":[{"name":"x-api-key","value":"YOUR_API_KEY_SUSTAINABLEWORLD"}]}}}`, `header "x-api-key"`, false},
		{"v4 header", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendHeaders":true,"headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer YOUR_API_KEY"}]}}}`, `header "Authorization"`, false},
		{"v1 JSON header", `{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"url":"https://api.tips.org/daily","jsonParameters":true,"headerParametersJson":"{\"Accept\": \"application/json\", \"Authorization\": \"Bearer YOUR_API_KEY\"}"}}`, `header "Authorization"`, false},
		{"v1 JSON query", `{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"url":"https://api.tips.org/daily","jsonParameters":true,"queryParametersJson":"{\"api_key\": \"<your_api_key>\"}"}}`, `query parameter "api_key"`, false},
		{"v1 JSON header not sent", `{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"url":"https://api.tips.org/daily","headerParametersJson":"{\"Authorization\": \"Bearer YOUR_API_KEY\"}"}}`, "", false},
		{"v4 JSON header", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendHeaders":true,"specifyHeaders":"json","jsonHeaders":"={\"X-Api-Key\": \"YOUR_API_KEY\"}"}}`, `header "X-Api-Key"`, false},
		{"v4 JSON query", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendQuery":true,"specifyQuery":"json","jsonQuery":"{\"token\": \"REPLACE_WITH_TOKEN\"}"}}`, `query parameter "token"`, false},
		{"v4 JSON header, a real key", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendHeaders":true,"specifyHeaders":"json","jsonHeaders":"{\"Authorization\": \"Bearer sk-proj-4fA9bC2dE7fG1hJ6kL3m\"}"}}`, "", false},
		{"v4 JSON header, an expression", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendHeaders":true,"specifyHeaders":"json","jsonHeaders":"={\"Authorization\": \"Bearer {{ $env.TIPS_KEY }}\"}"}}`, "", false},
		{"v4 header stripped to its scheme", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.apify.com/v2/acts/x/runs","sendHeaders":true,"headerParameters":{"parameters":[{"name":"Accept","value":""},{"name":"Authorization","value":"Bearer "}]}}}`, `header "Authorization"`, false},
		{"v4 key header left empty", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://evo.example.org/message","sendHeaders":true,"headerParameters":{"parameters":[{"name":"apikey","value":""}]}}}`, `header "apikey"`, false},
		{"v4 key header with no value", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.piapi.ai/api/v1/task","method":"POST","sendHeaders":true,"headerParameters":{"parameters":[{"name":"x-api-key"}]}}}`, `header "x-api-key"`, false},
		{"v4 key header from an expression", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.piapi.ai/api/v1/task","method":"POST","sendHeaders":true,"headerParameters":{"parameters":[{"name":"x-api-key","value":"={{ $env.PIAPI_KEY }}"}]}}}`, "", false},
		{"v4 key header with no value under a credential", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.piapi.ai/api/v1/task","authentication":"genericCredentialType","genericAuthType":"httpHeaderAuth","sendHeaders":true,"headerParameters":{"parameters":[{"name":"x-api-key"}]}},"credentials":{"httpHeaderAuth":{"id":"Xk2fP9qLm4Rt7wZa","name":"PiAPI"}}}`, "", false},
		{"v4 empty page token with no value", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendQuery":true,"queryParameters":{"parameters":[{"name":"pageToken"}]}}}`, "", false},
		{"v4 empty page token in the query", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendQuery":true,"queryParameters":{"parameters":[{"name":"pageToken","value":""}]}}}`, "", false},
		{"v4 JSON header stripped to its scheme", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendHeaders":true,"specifyHeaders":"json","jsonHeaders":"{\"Authorization\": \"Bearer\"}"}}`, `header "Authorization"`, false},
		{"v4 JSON header as key-value", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","sendHeaders":true,"jsonHeaders":"{\"Authorization\": \"Bearer YOUR_API_KEY\"}"}}`, "", false},
		{"headers not sent", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer YOUR_API_KEY"}]}}}`, "", false},
		{"credential sets it", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily","authentication":"genericCredentialType","genericAuthType":"httpHeaderAuth","sendHeaders":true,"headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer YOUR_API_KEY"}]}},"credentials":{"httpHeaderAuth":{"id":"Xk2fP9qLm4Rt7wZa","name":"Tips"}}}`, "", false},
		{"idempotency key", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.stripe.com/v1/charges","sendHeaders":true,"headerParameters":{"parameters":[{"name":"Idempotency-Key","value":"<idempotency-key>"}]}}}`, "", false},
		{"blank credential id", `{"type":"n8n-nodes-base.postgres","typeVersion":2.4,"parameters":{"operation":"executeQuery","query":"SELECT 1"},"credentials":{"postgres":{"id":"POSTGRES_PORTFOLIO_CREDENTIAL_ID","name":"Postgres"}}}`, "", true},
		{"generated credential id", `{"type":"n8n-nodes-base.postgres","typeVersion":2.4,"parameters":{"operation":"executeQuery","query":"SELECT 1"},"credentials":{"postgres":{"id":"Qw8eR5tY2uI9oP3a","name":"Postgres"}}}`, "", false},
		{"trigger credential blank", `{"type":"n8n-nodes-base.googleSheetsTrigger","typeVersion":1,"parameters":{},"credentials":{"googleSheetsTriggerOAuth2Api":{"id":"GOOGLE_SHEETS_PORTFOLIO_CREDENTIAL_ID","name":"Sheets"}}}`, "", true},
		{"credential by name alone: the owner's, bound by name on import", `{"type":"n8n-nodes-base.postgres","typeVersion":2.4,"parameters":{"operation":"executeQuery","query":"SELECT 1"},"credentials":{"postgres":"Postgres account"}}`, "", false},
		{"credential with a null id", `{"type":"n8n-nodes-base.postgres","typeVersion":2.4,"parameters":{"operation":"executeQuery","query":"SELECT 1"},"credentials":{"postgres":{"id":null,"name":"Postgres account"}}}`, "", false},
		{"credential with a null id and no name", `{"type":"n8n-nodes-base.postgres","typeVersion":2.4,"parameters":{"operation":"executeQuery","query":"SELECT 1"},"credentials":{"postgres":{"id":null}}}`, "", true},
		{"null credential", `{"type":"n8n-nodes-base.postgres","typeVersion":2.4,"parameters":{"operation":"executeQuery","query":"SELECT 1"},"credentials":{"postgres":null}}`, "", false},
		{"credential by name alone, authentication not chosen", `{"type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"authentication":"serviceAccount"},"credentials":{"gmailOAuth2":"Gmail account"}}`, "", false},
		{"credential of an authentication not chosen", `{"type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"authentication":"serviceAccount"},"credentials":{"gmailOAuth2":{"id":"YOUR_GMAIL_CREDENTIAL_ID","name":"Gmail"}}}`, "", false},
		{"ignored by an HTTP Request", `{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.tips.org/daily"},"credentials":{"httpHeaderAuth":{"id":"REPLACE_WITH_CREDENTIAL_ID","name":"Tips"}}}`, "", false},
	} {
		f := parseString(t, `{"name":"w","nodes":[`+c.node[:1]+`"name":"N",`+c.node[1:]+`],"connections":{}}`)
		n := f.Workflows[0].Nodes[0]
		where, ok := BlankKey(n)
		if ok != (c.where != "") || where != c.where {
			t.Errorf("%s: BlankKey = %q %v, want %q", c.name, where, ok, c.where)
		}
		if _, ok := BlankCredential(n); ok != c.cred {
			t.Errorf("%s: BlankCredential = %v, want %v", c.name, ok, c.cred)
		}
	}
}

// TestBlankURL: a path segment or query value that is a fill-in token or
// a bracketed name is a blank; capitals, a {{ }} span, JSON data in a
// query value and the host (FillInHost's) are not.
func TestBlankURL(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://mybusiness.googleapis.com/v4/YOUR_ACCOUNT/locations/YOUR_LOCATION/reviews", `path segment "YOUR_ACCOUNT"`},
		{"https://api.trustpilot.com/v1/business-units/YOUR_UNIT_ID/reviews", `path segment "YOUR_UNIT_ID"`},
		{"https://googleads.googleapis.com/v17/customers/{customer_id}/googleAds:search", `path segment "{customer_id}"`},
		{"https://gitlab.com/api/v4/projects/<projectid>/merge_requests", `path segment "<projectid>"`},
		{"https://sheets.googleapis.com/v4/spreadsheets/YourSheetId:batchUpdate", `path segment "YourSheetId"`},
		{"https://api.monday.com/v2/boards/REPLACE_WITH_BOARD_ID", `path segment "REPLACE_WITH_BOARD_ID"`},
		{"https://api.trello.com/1/boards/xxx/cards", `path segment "xxx"`},
		{"https://api.trello.com/1/boards/your%20board/cards", `path segment "your%20board"`},
		{"https://api.example.net/v1/items?filter={{x}}", ""},
		{"https://open.feishu.cn/open-apis/bitable/v1/apps/{{BITABLE_APP_TOKEN}}/tables", `path segment "{{BITABLE_APP_TOKEN}}"`},
		{"https://api.example.net/v1/items/{{ $json.id }}", ""},
		{"https://graph.facebook.com/v20.0/%5Byour-page-id%5D/photos", `path segment "%5Byour-page-id%5D"`},
		{"https://api.openweathermap.org/data/2.5/weather?q=Paris&appid=YOUR_OPENWEATHERMAP_API_KEY", `query parameter "appid" ("YOUR_OPENWEATHERMAP_API_KEY")`},
		{"=https://api.trustpilot.com/v1/reviews/{{ $json.reviewId }}/reply", ""},
		{"=https://api.example.org/{{ $json.YOUR_FIELD }}/items", ""},
		{"https://api.trustpilot.com/v1/business-units/UNIT_42/REVIEWS?status=NEW", ""},
		{"https://api.example.org/v1/yourself/replacements?sort=xml", ""},
		{"https://api.example.org/v1/REPLACEMENTS/YOURS", ""},
		{"https://www.zillow.com/sold/?searchQueryState=%7B%22pagination%22%3A%7B%7D%7D", ""},
		{"https://your-instance.app/api/v1/items", ""},
	} {
		f := parseString(t, `{"name":"w","nodes":[{"name":"N","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":`+strconv.Quote(c.url)+`}}],"connections":{}}`)
		if got, ok := BlankURL(f.Workflows[0].Nodes[0]); ok != (c.want != "") || got != c.want {
			t.Errorf("%s: BlankURL = %q %v, want %q", c.url, got, ok, c.want)
		}
	}
}

// TestMayBlankURL: every URL text whose part blankURLIn reads as a blank
// passes mayBlankURL: 200,000 texts made of hosts, separators and pieces
// of fill-ins (each word of fillInWords in three cases, brackets, braces,
// escapes, runs of x and dots) among ordinary segments; and real URLs do
// not pass (the prefilter says no to most). It fails when a word or a
// byte is left out of mayBlankURL.
func TestMayBlankURL(t *testing.T) {
	pieces := []string{
		"api", "v1", "users", "example.com", "items", "search", "id", "42", "q=paris", "appid",
		"your", "YOUR", "Your", "_ACCOUNT", "-location", "UnitId", "replace", "REPLACE", "Replace", "_WITH_ID",
		"placeholder", "PLACEHOLDER", "PlaceHolder", "changeme", "CHANGEME", "ChangeMe", "x", "X", "xx", "XXX",
		".", "..", "...", "<", ">", "[", "]", "{", "}", "{{", "}}", "%20", "%5B", "%79our", "%3C", " ", "\t",
		"/", "/", "/", "?", "&", "=", ":", "#", "://", "https://",
	}
	r := rand.New(rand.NewPCG(35, 4))
	found := 0
	for range 200_000 {
		var b strings.Builder
		for range 1 + r.IntN(9) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		u := b.String()
		if _, ok := blankURLIn(u); ok {
			found++
			if !mayBlankURL(u) {
				t.Fatalf("%q: blankURLIn reads a blank, mayBlankURL says no", u)
			}
		}
	}
	if found < 5_000 {
		t.Errorf("only %d texts hold a blank: the test reads too few", found)
	}
	for _, u := range []string{
		"https://api.openai.com/v1/chat/completions", "api.telegram.org/bot/sendMessage?chat_id=1",
		"https://www.googleapis.com/calendar/v3/calendars/primary/events?maxResults=10",
		"https://hooks.slack.com/services/T0/B0/abc", "https://api.example.org/v1/REPLACEMENT", "http://localhost:5678/webhook/x",
	} {
		if mayBlankURL(u) && !strings.Contains(strings.ToLower(u), "replace") {
			t.Errorf("%q: mayBlankURL says yes", u)
		}
	}
	for _, u := range []string{"https://api.x.com/YOUR_ID", "https://a.b/%5Bid%5D", "https://a.b/{id}", "https://a.b/c?k=...", "https://a.b/xXx", "https://a.b/PlaceHolder", "https://a.b/ChangeMe", "https://a.b/<id>", "https://a.b/[id]", "https://a.b/Replace_Me"} {
		if !mayBlankURL(u) {
			t.Errorf("%q: mayBlankURL says no", u)
		}
	}
}
