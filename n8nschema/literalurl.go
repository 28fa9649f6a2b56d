package n8nschema

import (
	"strconv"
	"strings"
)

// literalURL reports an HTTP Request whose URL holds {{ }} but does not
// start with "=": n8n evaluates only a string that starts with "="
// (n8n-workflow/dist/cjs/expressions/expression-helpers.js isExpression,
// expression.js resolveSimpleParameterValue L564–569), so the URL is used
// as written. Every version trims it and refuses one that does not start
// with "http://" or "https://" before any request (nodes-base
// HttpRequest/V3/HttpRequestV3.node.js L158–169, V2/HttpRequestV2.node.js
// L701–712, V1/HttpRequestV1.node.js L641–652: "Invalid URL: … URL must
// start with "http" or "https"."), then passes it as uri to the request,
// which parses it as a WHATWG URL (axios/lib/adapters/http.js L830):
//
//   - braces in the host: a name no server has (with a space the URL does
//     not even parse), so no request reaches a server;
//   - braces in the path: they are percent-encoded (%7B%7B) and the request
//     asks the host for a path with the braces in it, a resource no API
//     has: 404 on every item;
//   - braces in the value of a query parameter that carries an API key
//     (literalQueryKey): the braces are sent as the key, which the service
//     refuses, as literalKey says of the parameter lists;
//   - braces only elsewhere in the query string or in the fragment: the
//     request is made with a literal value, which is no failure, and is
//     not judged.
//
// A host that only holds a place (PlaceholderHost) is left to what reads
// placeholders: it is a fill-in, not a failure.
func literalURL(n *Node) (Refusal, bool) {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest {
		return Refusal{}, false
	}
	v, ok := n.Param("url")
	if !ok || v.Kind() != String || v.IsExpr() {
		return Refusal{}, false
	}
	u := strings.TrimSpace(v.Str())
	if !bracesIn(u) || placeholderBraces(u) {
		return Refusal{}, false // a fill-in's braces are BlankURL's
	}
	sent := "its URL is the text " + strconv.Quote(Clip(shownURL(u), 80)) + ", which n8n uses as written since it does not start with \"=\""
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return Refusal{Why: sent + `, and refuses before any request: "URL must start with "http" or "https""`, Fails: true, NoCall: true}, true
	}
	_, rest, _ := strings.Cut(u, "://")
	authority, path := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	host := authority
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		host = authority[i+1:]
	}
	if PlaceholderHost(strings.ToLower(host)) {
		return Refusal{}, false
	}
	if strings.Contains(host, "{{") || strings.Contains(host, "}}") {
		return Refusal{Why: sent + ": the braces stand in its host, so the request reaches no server", Fails: true, NoCall: true}, true
	}
	if strings.ContainsAny(authority, "{}") || host == "" {
		return Refusal{}, false // braces in the user name: not judged
	}
	query := ""
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path, query = path[:i], path[i:]
	}
	if !strings.Contains(path, "{{") && !strings.Contains(path, "}}") {
		if name, ok := literalQueryKey(query, host); ok {
			return Refusal{Why: sent + ": its query parameter " + strconv.Quote(name) + " holds the braces, not a key, so the service refuses the key on every item",
				Fails: !IgnoresStatus(n)}, true
		}
		return Refusal{}, false
	}
	return Refusal{Why: sent + ": it asks " + strconv.Quote(host) + " for a path with the braces in it (percent-encoded), a resource no API has, and gets 404 on every item",
		Fails: !IgnoresStatus(n)}, true
}

// literalQueryKey finds, in a URL's query string, a parameter that
// carries an API key (keyQueries; "key" on Google's APIs, which read the
// key from it) and holds {{ }}: the braces are sent as the key. Other
// parameters send a literal value, which is no failure.
func literalQueryKey(query, host string) (string, bool) {
	query, _, _ = strings.Cut(strings.TrimPrefix(query, "?"), "#")
	google := strings.HasSuffix(strings.ToLower(host), ".googleapis.com")
	for _, kv := range strings.Split(query, "&") {
		name, val, _ := strings.Cut(kv, "=")
		lower := strings.ToLower(strings.TrimSpace(name))
		if (keyQueries[lower] || google && lower == "key") && bracesIn(val) {
			return name, true
		}
	}
	return "", false
}

// shownURL is a URL as a message quotes it: without a user name and
// password or a query string, either of which may hold a secret.
func shownURL(u string) string {
	tail := ""
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u, tail = u[:i], "?…"
	}
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		authority, path := rest, ""
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			authority, path = rest[:i], rest[i:]
		}
		if i := strings.LastIndex(authority, "@"); i >= 0 {
			authority = authority[i+1:]
		}
		u = scheme + "://" + authority + path
	}
	return u + tail
}

// LiteralURL reports an HTTP Request whose URL holds {{ }} without the
// leading "=" where that makes it fail (literalURL).
func LiteralURL(n *Node) bool {
	_, ok := literalURL(n)
	return ok
}
