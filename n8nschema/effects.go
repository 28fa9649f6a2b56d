package n8nschema

import "strings"

// WriteOp reports whether a node changes state outside n8n when it runs (a
// retried write may commit twice), and names the operation ("POST",
// "message.post"). It reads the node catalog's write operations.
func WriteOp(n *Node) (bool, string) {
	switch strings.TrimSuffix(n.Type, "Tool") {
	case "n8n-nodes-base.httpRequest":
		m := httpMethod(n)
		switch m {
		case "POST", "PUT", "PATCH", "DELETE":
			return true, m
		}
		return false, m
	}
	return false, ""
}

// httpMethod returns the HTTP Request node's method in upper case. The
// parameter is omitted when it is the default GET (n8n-semantics.md §1.6);
// v1/v2 call it requestMethod (nodes-base/nodes/HttpRequest/V2).
func httpMethod(n *Node) string {
	v, ok := n.Param("method")
	if !ok {
		v, ok = n.Param("requestMethod")
	}
	if !ok {
		return "GET"
	}
	m := strings.TrimSpace(strings.TrimPrefix(v.Str(), "="))
	m = strings.Trim(m, "{} \"'")
	return strings.ToUpper(m)
}
