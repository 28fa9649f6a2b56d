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
// on every item and bills nothing. Any other API at a real host is judged
// the same way when the node holds a credential it does not read.
//
// Any header, query or body entry whose name is an expression or reads as
// a key (key, auth, token), headers or a query written as JSON that may
// hold one, and a URL that names one, leave the node unjudged, whether or
// not the node sends them; so do a user:password@ in the URL (basic
// authentication), a client certificate (provideSslCertificates: V3
// L170-173 reads httpSslAuth whatever the authentication) and, for an API
// other than a model's, a body that names a key, a password or a secret.
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
	// refused alike (RS010 says it sends GET). Any other API is judged
	// only when the node holds a credential it does not read: the owner
	// made one because the API asks for it.
	_, _, ignored := IgnoredMethod(n)
	modelAPI := ComputeOnlyCall(n) || ignored && modelAPIOnly(n)
	if !modelAPI && (len(UnreadCredentials(n)) == 0 || realHost(paramStr(n, "url")) == "") {
		return Refusal{}, false
	}
	if p, _ := n.Param("provideSslCertificates"); p.True() || p.IsExpr() {
		return Refusal{}, false // a client certificate, read whatever the authentication (V3 L170-173)
	}
	url := strings.ToLower(paramStr(n, "url"))
	if strings.Contains(url, "key") || strings.Contains(url, "token") || strings.Contains(url, "auth") || userInfo(url) {
		return Refusal{}, false // a user:password@ is sent as basic authentication
	}
	if q := strings.IndexByte(url, '?'); q >= 0 && strings.Contains(url[q:], "{{") {
		return Refusal{}, false // a query an expression builds
	}
	// A list the node's version does not have is dropped when n8n loads
	// the workflow (RS011): a key there is never sent.
	var dropped map[string]bool
	for _, d := range DroppedParams(n) {
		if dropped == nil {
			dropped = map[string]bool{}
		}
		dropped[d.Name] = true
	}
	for _, list := range [...]string{"headerParameters.parameters", "headerParametersUi.parameter",
		"queryParameters.parameters", "queryParametersUi.parameter",
		"bodyParameters.parameters", "bodyParametersUi.parameter"} {
		if top, _, _ := strings.Cut(list, "."); dropped[top] {
			continue
		}
		l, ok := n.Param(list)
		if ok && l.Kind() != Array {
			return Refusal{}, false
		}
		for _, e := range l.ElemsSeq() {
			name := e.Get("name")
			if name.Kind() != String || name.IsExpr() || strings.Contains(name.Str(), "{{") || secretName(name.Str()) {
				return Refusal{}, false
			}
		}
	}
	for _, p := range [...]string{"jsonHeaders", "headerParametersJson", "jsonQuery", "queryParametersJson"} {
		if v, ok := n.Param(p); ok && !dropped[p] && (v.Kind() != String || strings.Contains(v.Str(), "{{") || secretName(v.Str())) {
			return Refusal{}, false
		}
	}
	for _, p := range [...]string{"jsonBody", "body", "bodyParametersJson"} {
		b := strings.ToLower(paramStr(n, p))
		if strings.Contains(b, "api_key") || strings.Contains(b, "apikey") || strings.Contains(b, "api-key") || strings.Contains(b, "authorization") {
			return Refusal{}, false
		}
		if !modelAPI && (keyName(b) || strings.Contains(b, "password") || strings.Contains(b, "secret")) {
			return Refusal{}, false // a login or session body that carries its own secret
		}
	}
	host := ""
	if urls, _ := literalURLs(paramStr(n, "url")); len(urls) > 0 {
		host = URLHost(strings.ToLower(urls[0]))
	}
	why := "it calls " + host + " with no key: " + auth
	if held := UnreadCredentials(n); len(held) > 0 {
		why += ", so n8n does not read its credential " + quoteList(held)
	}
	if !modelAPI {
		return Refusal{Why: why + ", and no header, query parameter or body field carries a key, so an API that asks for that credential answers 401 on every item",
			Fails: !IgnoresStatus(n)}, true
	}
	status := "401"
	if host == "generativelanguage.googleapis.com" {
		status = "403"
	}
	return Refusal{Why: why + ", and no header, query parameter or body field carries a key, so the API answers " + status + " on every item and bills nothing",
		Fails: !IgnoresStatus(n)}, true
}

// UnreadCredentials returns the credential types a node's export holds a
// credential for (not a null entry, which names none) that its
// authentication "none" leaves unread: every one but httpSslAuth, a client
// certificate, which carries no key and which the node reads, apart from
// its authentication, when provideSslCertificates is set.
func UnreadCredentials(n *Node) []string {
	var out []string
	creds := n.Field("credentials")
	for _, t := range n.Credentials {
		if t != "httpSslAuth" && creds.Get(t).Kind() != Null {
			out = append(out, t)
		}
	}
	return out
}

// URLHost returns the host[:port] of a literal URL, or "" when the URL
// does not start with a literal scheme and host. A user:password@ before
// the host is left out: never report credentials in a URL.
func URLHost(url string) string {
	if strings.HasPrefix(url, "{{") {
		return ""
	}
	auth, ok := urlAuthority(url)
	if !ok || strings.Contains(auth, "{{") {
		return ""
	}
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = auth[at+1:] // a password may hold "@": the host follows the last
	}
	return auth
}

// userInfo reports a literal URL that names a user (and password) before
// its host: the request sends them as basic authentication.
func userInfo(url string) bool {
	auth, ok := urlAuthority(url)
	return ok && strings.Contains(auth, "@")
}

// urlAuthority returns what stands between a URL's "://" and its path,
// query or fragment: [user[:password]@]host[:port].
func urlAuthority(url string) (string, bool) {
	_, rest, ok := strings.Cut(url, "://")
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}

// realHost returns the host of a URL that starts with a literal http(s)
// host that is not a template's placeholder (PlaceholderHost): the server
// a request reaches is known; "" otherwise.
func realHost(url string) string {
	url = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(url), "=")))
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return ""
	}
	host, _, _ := strings.Cut(URLHost(url), ":")
	if !strings.Contains(host, ".") || PlaceholderHost(host) {
		return ""
	}
	return host
}

// CredentialField reports a header, query or body field name that reads
// as one carrying a key (key, auth, token).
func CredentialField(s string) bool { return keyName(s) }

// secretName reports a header or query name (or their JSON text) that
// may carry any secret a request authenticates by: a key (keyName), a
// password, a secret, a cookie or a session. (A body's text is read for
// keys, passwords and secrets alone: "sessions" is a metric there.)
func secretName(s string) bool {
	if keyName(s) {
		return true
	}
	s = strings.ToLower(s)
	return strings.Contains(s, "password") || strings.Contains(s, "secret") || strings.Contains(s, "cookie") || strings.Contains(s, "session")
}

// keyName reports a name (or JSON text) that may carry a key: it holds
// "key", "auth" or "token" in any case.
func keyName(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "key") || strings.Contains(s, "auth") || strings.Contains(s, "token")
}

// NoKey reports an HTTP Request to a model API that sends no key (noKey).
func NoKey(n *Node) bool {
	_, ok := noKey(n)
	return ok
}

// NoKeyWhy is noKey's reason, for a caller that tells it apart from
// another refusal of the same node.
func NoKeyWhy(n *Node) (string, bool) {
	r, ok := noKey(n)
	return r.Why, ok
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
