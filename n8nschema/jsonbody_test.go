package n8nschema

import "testing"

// TestBrokenTemplate: a JSON body is judged broken only when no value of
// its expressions can make it JSON.
func TestBrokenTemplate(t *testing.T) {
	for _, c := range []struct {
		body   string
		broken bool
	}{
		{`{"a": 1}`, false},
		{`{"a": 1,}`, true},
		{``, true},
		{`=`, true},
		{`={"a": 1}`, false},
		{`={'a': 1}`, true},
		{`={"model": "{{ $json.model }}", "n": {{ $json.n }}}`, false},
		{`={"text": {{ JSON.stringify($json.text) }} }`, false},
		{`={"content": "Today is " + new Date().toLocaleString() + " ok", "user": "{{ $json.q }}"}`, true},
		{`={"content": "say \"{{ $json.q }}\" now"}`, false},
		{`={"a": "{{ $json.q }}" "b": 1}`, true},
		{`={ {{ $json.fields }} }`, false},
		{`={"ids": [ {{ $json.list }} ]}`, false},
		{`={"a": 1, {{ $json.more }} }`, false},
		{`={{ JSON.stringify($json) }}`, false},
		{`={{ $json.body }},`, false},
		{`={"a": {{ $json.x }} "b": 2}`, false},
		{`={"a": {{ {b: 1} }} }`, false},
		{`={"a": "x\\y {{ $json.q }}"}`, false},
		{`={"a": "\{{ $json.q }}"}`, false},
		{`={"a": "{{ $json.q "}`, false},
		{`={"a": "{{ $json.q }}",}`, true},
	} {
		if _, got := brokenTemplate(c.body); got != c.broken {
			t.Errorf("%s: broken %v, want %v", c.body, got, c.broken)
		}
	}
}

// TestBrokenJSONBodyRefuses: the HTTP Request fails with no call only when
// it sends that body.
func TestBrokenJSONBodyRefuses(t *testing.T) {
	node := func(ver, extra string) *Node {
		f := Parse(NewSource("t.json", []byte(`{"nodes":[{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":`+ver+
			`,"parameters":{"method":"POST","url":"https://api.example.org/v1/x"`+extra+`}}],"connections":{}}`)))
		return f.Workflows[0].Nodes[0]
	}
	bad := `,"jsonBody":"={\"a\": \"x\" + \"{{ $json.q }}\"}"`
	for _, c := range []struct {
		name  string
		n     *Node
		fails bool
	}{
		{"json body", node("4.2", `,"sendBody":true,"specifyBody":"json"`+bad), true},
		{"empty json body", node("4.2", `,"sendBody":true,"specifyBody":"json"`), true},
		{"body not sent", node("4.2", `,"specifyBody":"json"`+bad), false},
		{"body as fields", node("4.2", `,"sendBody":true`+bad), false},
		{"form body", node("4.2", `,"sendBody":true,"contentType":"form-urlencoded","specifyBody":"json"`+bad), false},
		{"version 2 reads no jsonBody", node("2", `,"sendBody":true,"specifyBody":"json"`+bad), false},
	} {
		r, ok := RefusedCall(c.n)
		if got := ok && r.Fails && r.NoCall; got != c.fails {
			t.Errorf("%s: fails %v (%q), want %v", c.name, got, r.Why, c.fails)
		}
	}
}

// TestBrokenJSONParameters: an HTTP Request v1 or v2 with JSON/RAW
// Parameters parses each non-empty text with JSON.parse (V1 L746-763):
// the body only where its display options show it (PATCH, POST, PUT or
// DELETE; not with sendBinaryData), and not with Body Content Type raw.
func TestBrokenJSONParameters(t *testing.T) {
	node := func(ver, extra string) *Node {
		f := Parse(NewSource("t.json", []byte(`{"nodes":[{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":`+ver+
			`,"parameters":{"url":"https://api.example.org/v1/x","jsonParameters":true`+extra+`}}],"connections":{}}`)))
		return f.Workflows[0].Nodes[0]
	}
	bad := `,"bodyParametersJson":"={\"a\": \"x\" + $json.q}"`
	for _, c := range []struct {
		name  string
		n     *Node
		fails bool
	}{
		{"v1 POST", node("1", `,"requestMethod":"POST"`+bad), true},
		{"v2 DELETE", node("2", `,"requestMethod":"DELETE"`+bad), true},
		{"v1 at GET, the default: the body is hidden", node("1", bad), false},
		{"v3's method parameter is not v1's", node("1", `,"method":"POST"`+bad), false},
		{"method from an expression", node("1", `,"requestMethod":"={{ $json.m }}"`+bad), false},
		{"raw body", node("2", `,"requestMethod":"POST","options":{"bodyContentType":"raw"}`+bad), false},
		{"binary body", node("2", `,"requestMethod":"POST","sendBinaryData":true`+bad), false},
		{"jsonParameters off", node("2", `,"requestMethod":"POST","jsonParameters":false`+bad), false},
		{"empty body", node("1", `,"requestMethod":"POST","bodyParametersJson":""`), false},
		{"whole expression", node("1", `,"requestMethod":"POST","bodyParametersJson":"={{ $json.body }}"`), false},
		{"valid body", node("1", `,"requestMethod":"POST","bodyParametersJson":"{\"a\": 1}"`), false},
		{"headers at GET", node("2", `,"headerParametersJson":"{\"Accept\": \"json\",}"`), true},
		{"query text", node("1", `,"queryParametersJson":"a=1&b=2"`), true},
	} {
		r, ok := RefusedCall(c.n)
		if got := ok && r.Fails && r.NoCall; got != c.fails {
			t.Errorf("%s: fails %v (%q), want %v", c.name, got, r.Why, c.fails)
		}
	}
}
