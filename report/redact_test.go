package report

import (
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestRedact(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// Authorization schemes.
		{`Authorization: Bearer abcdef0123456789`, `Authorization: Bearer [REDACTED]`},
		{`"Basic dXNlcjpwYXNzd29yZA=="`, `"Basic [REDACTED]"`},
		{`token ghx_0123456789abcdefABCD`, `token [REDACTED]`},
		// JSON members, also as escaped JSON inside a string.
		{`{"x-api-key": "k3y-Zq9Wx8Vy7Ut6"}`, `{"x-api-key": "[REDACTED]"}`},
		{`{"access_token": "abcd1234"}`, `{"access_token": "[REDACTED]"}`},
		{`"jsonHeaders": "{\"Authorization\": \"Token abc\", \"X-Trace\": \"1\"}"`, `"jsonHeaders": "{\"Authorization\": \"[REDACTED]\", \"X-Trace\": \"1\"}"`},
		{`{"password": "={{ $env.DB_PASSWORD }}"}`, `{"password": "={{ $env.DB_PASSWORD }}"}`},
		// name/value pairs of header and query parameters.
		{`{"name": "X-API-Key", "value": "k3y-Zq9Wx8Vy7Ut6"}`, `{"name": "X-API-Key", "value": "[REDACTED]"}`},
		{`{"name": "page", "value": "2"}`, `{"name": "page", "value": "2"}`},
		// URLs: query keys and userinfo.
		{`https://api.x.io/v1?api_key=Sk9Xq2Lm&page=2`, `https://api.x.io/v1?api_key=[REDACTED]&page=2`},
		{`https://x.io/a?sig=abc123&key=AIzaSyA`, `https://x.io/a?sig=[REDACTED]&key=[REDACTED]`},
		{`https://ops:Hunter2@db.x.io/`, `https://ops:[REDACTED]@db.x.io/`},
		{`https://ghp_abcdefghijklmnop1234@github.com/o/r.git`, `https://[REDACTED]@github.com/o/r.git`},
		{`mailto:ops@x.io and https://host/path`, `mailto:ops@x.io and https://host/path`},
		// Well-known prefixes and long random strings.
		{`key sk-proj-abcdefghijklmnopqrstu`, `key [REDACTED]`},
		{`xoxb-1234567890-abcdefghij`, `[REDACTED]`},
		{`AKIAIOSFODNN7EXAMPLE`, `[REDACTED]`},
		{`jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIzNA`, `jwt [REDACTED]`},
		{`opaque Xk29vLq8Zr4Tn7Wc1Yb5Hs3Jd6Mf0Pa2`, `opaque [REDACTED]`},
		{`sha 3f786850e387550fdab836ed7e6dc881de23001b`, `sha [REDACTED]`},
		// What must stay: ids, URLs, names, numbers, expressions.
		{`node "OpenAI" (gpt-4o) makes 15 attempts`, `node "OpenAI" (gpt-4o) makes 15 attempts`},
		{`webhook 3f2a6c1e-1111-4aaa-8bbb-123456789abc`, `webhook 3f2a6c1e-1111-4aaa-8bbb-123456789abc`},
		{`https://api.openai.com/v1/chat/completions`, `https://api.openai.com/v1/chat/completions`},
		{`"maxTokens": "1000"`, `"maxTokens": "1000"`},
		{`$('HTTP Request').item.json.orderIdentifier`, `$('HTTP Request').item.json.orderIdentifier`},
	} {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestRedactorMasksSplitPairs(t *testing.T) {
	src := n8nschema.NewSource("w.json", []byte(`{
  "name": "W",
  "nodes": [
    {
      "name": "Call",
      "type": "n8n-nodes-base.httpRequest",
      "parameters": {
        "headerParameters": {"parameters": [
          {
            "name": "X-API-Key",
            "value": "k3y-Zq9Wx8Vy7Ut6"
          },
          {
            "name": "Accept",
            "value": "application/json"
          }
        ]},
        "password": "plain-secret-9",
        "note": "ünïcode before a secret", "token": "tök3n-abc"
      }
    }
  ],
  "connections": {}
}`))
	f := n8nschema.Parse(src)
	r := NewRedactor(&analyze.Set{Workflows: f.Workflows})
	for _, tt := range []struct {
		line int
		want string
	}{
		{11, `            "value": "****************"`},
		{15, `            "value": "application/json"`},
		{18, `        "password": "**************",`},
		// One star per rune keeps the caret's column.
		{19, `        "note": "ünïcode before a secret", "token": "*********"`},
	} {
		if got, _ := r.Snippet(src, n8nschema.Pos{Line: tt.line, Col: 1}); got != tt.want {
			t.Errorf("line %d\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
}
