package n8nschema

import "strings"

// MethodToken returns s, trimmed and upper-cased, when it is one of the
// methods HTTP Request offers at every version: the options of Request
// Method (requestMethod, HttpRequest/V1/HttpRequestV1.node.js L124-156,
// V2 alike) and of Method (method, HttpRequest/V3/Description.js L46-70).
// Any other text ("bearer", "whatever", an expression) is no method.
func MethodToken(s string) (string, bool) {
	m := strings.ToUpper(strings.TrimSpace(s))
	switch m {
	case "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT":
		return m, true
	}
	return "", false
}

// HoldsMethod reports a parameter name that holds a request method:
// requestMethod (HTTP Request v1 and v2), method (v3 and later) and
// httpMethod (the Webhook's name, which no HTTP Request version reads).
// authMethod, paginationMethod and the like name a kind, not a method.
func HoldsMethod(name string) bool {
	switch strings.ToLower(name) {
	case "method", "requestmethod", "httpmethod":
		return true
	}
	return false
}

// methodParam is the name an HTTP Request (or its Tool variant) reads its
// method from: requestMethod below v3, method from v3 (HttpRequestV1 L638,
// V2 L698, V3/HttpRequestV3.node.js L174).
func methodParam(n *Node) string {
	if readsRequestMethod(n) {
		return "requestMethod"
	}
	return "method"
}

// readsRequestMethod reports an HTTP Request below v3, whose method
// parameter is requestMethod.
func readsRequestMethod(n *Node) bool {
	return strings.TrimSuffix(n.Type, "Tool") == TypeHTTPRequest && n.TypeVersion < 3
}

// SentMethod returns the method an HTTP Request sends, as stored: the
// parameter its version reads (methodParam), or GET, the default of every
// version, when it stores none (def then true). It is not known (ok
// false) when an expression or a value that is no method sets it.
func SentMethod(n *Node) (m string, def, ok bool) {
	v, stored := n.Param(methodParam(n))
	if !stored {
		return "GET", true, true
	}
	if v.Kind() != String || v.IsExpr() {
		return "", false, false
	}
	m, ok = MethodToken(v.Str())
	return m, false, ok
}

// HTTPMethod returns the method an HTTP Request node sends, in upper case,
// read as SentMethod reads it but looking inside an expression: the rules
// that ask what an endpoint does take "={{ 'POST' }}" for a POST.
// HTTP Request v1 and v2 (and the Tool variant at those versions) read
// requestMethod; v3 and later, and the LangChain HTTP Request tool, read
// method (HttpRequest/V1/HttpRequestV1.node.js L638, V2 L698,
// V3/HttpRequestV3.node.js L174; ToolHttpRequest.node.js L239). Each
// defaults to GET, and n8n drops the other name when it builds the
// workflow (see IgnoredMethod), so a v1 node storing "method": "POST"
// sends a GET. A node with no typeVersion runs at the default version
// (4.5), which the parser has set. An expression such as "=POST" or
// "={{ 'POST' }}" yields the literal inside.
func HTTPMethod(n *Node) string {
	v, ok := n.Param(methodParam(n))
	if !ok {
		return "GET"
	}
	m := strings.TrimSpace(strings.TrimPrefix(v.Str(), "="))
	m = strings.Trim(m, "{} \"'`")
	return strings.ToUpper(m)
}

// DroppedMethod reports a method an HTTP Request stores under a name that
// holds one (HoldsMethod) but that its version does not read ("method" on
// v1, "requestMethod" on v4, "httpMethod" on any), as a literal method:
// the method stored, and the one the node sends ("" when not known, see
// SentMethod). n8n drops the parameter when it builds the workflow
// (DroppedParams), so what the node sends is its own method parameter's.
func DroppedMethod(n *Node, name string) (stored, sends string, ok bool) {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest || !HoldsMethod(name) || name == methodParam(n) {
		return "", "", false
	}
	v, has := n.Param(name)
	if !has || v.Kind() != String || v.IsExpr() {
		return "", "", false
	}
	stored, ok = MethodToken(v.Str())
	if !ok {
		return "", "", false
	}
	sends, _, _ = SentMethod(n)
	return stored, sends, true
}
