package n8nschema

import (
	"strconv"
	"strings"
)

// keyHeaders and keyQueries are the header and query names that carry an
// API key or token: a provider that reads one refuses a request whose
// value is not a key it issued.
var (
	keyHeaders = map[string]bool{"authorization": true, "x-api-key": true, "api-key": true, "apikey": true,
		"api_key": true, "x-goog-api-key": true, "xi-api-key": true}
	keyQueries = map[string]bool{"api_key": true, "apikey": true, "api-key": true, "access_token": true}
)

// literalKey reports an HTTP Request with no credential that sends an
// API key header or query parameter whose value holds {{ }} but does not
// start with "=": n8n evaluates only a string that starts with "="
// (n8n-workflow/dist/cjs/expressions/expression-helpers.js isExpression),
// so the braces are sent as written ("Bearer {{ $env.OPENAI_API_KEY }}")
// and the provider refuses the key on every item. Headers and query
// parameters are sent only with sendHeaders or sendQuery, from the
// key-value list by default (nodes-base HttpRequest/V3/HttpRequestV3.node.js
// L175–187, L326–345). A node with a credential is left out: the
// credential's header is set after these and may replace it (L390).
func literalKey(n *Node) (Refusal, bool) {
	r, _, ok := literalKeyAt(n)
	return r, ok
}

// literalKeyAt is literalKey with the value it names.
func literalKeyAt(n *Node) (Refusal, Value, bool) {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest {
		return Refusal{}, Value{}, false
	}
	if a, ok := n.Param("authentication"); ok && (a.Kind() != String || a.IsExpr() || a.Str() != "none") {
		return Refusal{}, Value{}, false
	}
	var r Refusal
	var at Value
	found := false
	// The lists the node sends (SentParams; v1 and v2 send theirs unless
	// jsonParameters is set: HttpRequest/V2/HttpRequestV2.node.js
	// L485–544, L676–679).
	SentParams(n, func(what, name string, val Value) bool {
		names := keyHeaders
		switch what {
		case "query parameter":
			names = keyQueries
		case "body parameter":
			return true
		}
		if !names[strings.ToLower(name)] || val.Kind() != String || val.IsExpr() || !bracesIn(val.Str()) || placeholderBraces(val.Str()) {
			return true
		}
		at = val
		r, found = Refusal{Why: "its " + what + " " + strconv.Quote(name) + " is the text " + strconv.Quote(Clip(val.Str(), 80)) +
			", which n8n sends as written since it does not start with \"=\", so the service refuses the key", Fails: true}, true
		return false
	})
	if found {
		return r, at, true
	}
	return Refusal{}, Value{}, false
}

// bracesIn reports whether s holds a {{ … }} pair.
func bracesIn(s string) bool {
	i := strings.Index(s, "{{")
	return i >= 0 && strings.Contains(s[i+2:], "}}")
}

// placeholderBraces reports a text whose every {{ … }} pair holds a bare
// name ("Bearer {{DEEPSEEK_API_KEY}}", "/apps/{{ APP_TOKEN }}/"): the
// mustache fill-in a shared template or a redacted export leaves for its
// owner, not an expression that lost its "=" (which reads $json, $env or
// a call). Marked with "=", a bare name is no variable n8n's expressions
// know either, so it is the owner's blank (BlankKeyText, blankURLPart),
// not literalKey's or literalURL's refusal.
func placeholderBraces(s string) bool {
	pairs := 0
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return pairs > 0
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			return false
		}
		if !bareName(strings.TrimSpace(s[i+2 : i+2+j])) {
			return false
		}
		pairs++
		s = s[i+2+j+2:]
	}
}

// FillInID reports an id that is wholly a template's mustache fill-in
// ("{{WORKFLOW_ID}}", placeholderBraces): a redacted export leaves it
// where the workflow's id was, so no instance holds it and two files that
// carry it share no id.
func FillInID(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "{{") && strings.HasSuffix(s, "}}") && placeholderBraces(s)
}

// bareName reports a name of letters, digits, "_" and "-" that starts
// with a letter or "_".
func bareName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c|0x20 < 'a' || c|0x20 > 'z' {
			if c != '_' && c != '-' && (c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}

// Clip shortens a value quoted in a message to n runes, with "…" after.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// LiteralKey reports an HTTP Request that sends an API key as literal
// braces (literalKey).
func LiteralKey(n *Node) bool {
	_, ok := literalKey(n)
	return ok
}

// LiteralKeyValue is the header or query parameter value LiteralKey
// reports.
func LiteralKeyValue(n *Node) (Value, bool) {
	_, v, ok := literalKeyAt(n)
	return v, ok
}
