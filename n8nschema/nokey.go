package n8nschema

import "strings"

// noKey reports an HTTP Request to a model API endpoint (ComputeOnlyCall:
// generation, embeddings, audio, OCR; each refuses a request without a
// key) that sends no key. The node reads a credential only for the
// authentication it is set to, and "none" is every version's default: v1
// fetches one only for basicAuth … oAuth2 (nodes-base
// HttpRequest/V1/HttpRequestV1.node.js L579–597), v2 and v3 only for
// genericCredentialType or predefinedCredentialType (V2/HttpRequestV2.node.js
// L584–655, V3/HttpRequestV3.node.js L73–76, L108–157), and with "none"
// send the bare request (V3 L535–552). So a credential left in the node's
// credentials block is not read. When no header, query parameter, body
// field or URL names a key either, the provider answers 401 (Gemini 403)
// on every item and bills nothing.
//
// Any header, query or body entry whose name is an expression or reads as
// a key (key, auth, token), headers or a query written as JSON that may
// hold one, and a URL that names one, leave the node unjudged, whether or
// not the node sends them.
func noKey(n *Node) (Refusal, bool) {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest {
		return Refusal{}, false
	}
	// The authentication first: most calls set one, and the endpoint
	// (ComputeOnlyCall) costs more to read.
	auth := `its authentication is "none", the default`
	if a, ok := n.Param("authentication"); ok {
		if a.Kind() != String || a.IsExpr() || a.Str() != "none" {
			return Refusal{}, false
		}
		auth = `its authentication is "none"`
	}
	// A v1 node storing v3's "method" sends a GET to the same endpoint,
	// refused alike (RS010 says it sends GET).
	if _, _, ignored := IgnoredMethod(n); !ComputeOnlyCall(n) && !(ignored && modelAPIOnly(n)) {
		return Refusal{}, false
	}
	url := strings.ToLower(paramStr(n, "url"))
	if strings.Contains(url, "key") || strings.Contains(url, "token") || strings.Contains(url, "auth") {
		return Refusal{}, false
	}
	if q := strings.IndexByte(url, '?'); q >= 0 && strings.Contains(url[q:], "{{") {
		return Refusal{}, false // a query an expression builds
	}
	for _, list := range [...]string{"headerParameters.parameters", "headerParametersUi.parameter",
		"queryParameters.parameters", "queryParametersUi.parameter",
		"bodyParameters.parameters", "bodyParametersUi.parameter"} {
		l, ok := n.Param(list)
		if ok && l.Kind() != Array {
			return Refusal{}, false
		}
		for _, e := range l.ElemsSeq() {
			name := e.Get("name")
			if name.Kind() != String || name.IsExpr() || strings.Contains(name.Str(), "{{") || keyName(name.Str()) {
				return Refusal{}, false
			}
		}
	}
	for _, p := range [...]string{"jsonHeaders", "headerParametersJson", "jsonQuery", "queryParametersJson"} {
		if v, ok := n.Param(p); ok && (v.Kind() != String || strings.Contains(v.Str(), "{{") || keyName(v.Str())) {
			return Refusal{}, false
		}
	}
	for _, p := range [...]string{"jsonBody", "body", "bodyParametersJson"} {
		b := strings.ToLower(paramStr(n, p))
		if strings.Contains(b, "api_key") || strings.Contains(b, "apikey") || strings.Contains(b, "api-key") || strings.Contains(b, "authorization") {
			return Refusal{}, false
		}
	}
	urls, _ := literalURLs(paramStr(n, "url"))
	host := ""
	if len(urls) > 0 {
		host, _, _ = strings.Cut(strings.TrimPrefix(strings.ToLower(urls[0]), "https://"), "/")
	}
	why := "it calls " + host + " with no key: " + auth
	if len(n.Credentials) > 0 {
		why += ", so n8n does not read its credential " + quoteList(n.Credentials)
	}
	status := "401"
	if host == "generativelanguage.googleapis.com" {
		status = "403"
	}
	return Refusal{Why: why + ", and no header, query parameter or body field carries a key, so the API answers " + status + " on every item and bills nothing",
		Fails: !IgnoresStatus(n)}, true
}

// keyName reports a name (or JSON text) that may carry a key: it holds
// "key", "auth" or "token" in any case.
// CredentialField reports a header, query or body field name that reads
// as one carrying a key (key, auth, token).
func CredentialField(s string) bool { return keyName(s) }

func keyName(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "key") || strings.Contains(s, "auth") || strings.Contains(s, "token")
}

// NoKey reports an HTTP Request to a model API that sends no key (noKey).
func NoKey(n *Node) bool {
	_, ok := noKey(n)
	return ok
}

// IgnoresCredentials reports an HTTP Request node that reads none of the
// credentials its export lists: its authentication is "none", as set or by
// every version's default, and the node fetches a credential only for the
// authentication it is set to (the versions' code cited at noKey). Its
// calls carry whatever the headers and query hold, not that credential.
func IgnoresCredentials(n *Node) bool {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest || len(n.Credentials) == 0 {
		return false
	}
	a, ok := n.Param("authentication")
	return !ok || a.Kind() == String && !a.IsExpr() && a.Str() == "none"
}
