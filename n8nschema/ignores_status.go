package n8nschema

// IgnoresStatus reports an HTTP Request that returns an error status as its
// output instead of failing, or may (an expression): v3 and later with
// Never Error (options.response.response.neverError, HttpRequestV3.node.js
// L225–227), v1 and v2 with Ignore Response Code (options.ignoreResponseCode,
// HttpRequestV2.node.js L751–753, HttpRequestV1.node.js L679–681). Both set
// simple: false, which accepts every status (@n8n/backend-network
// http/axios/legacy.js L211–212); only a request that gets no answer (a
// refused connection, a failed DNS lookup, a timeout, a reset) still throws
// (http/legacy-request.js L63–98). So the node's Retry On Fail never fires
// on a 429 or a 5xx: the answer is an item for the nodes after it.
func IgnoresStatus(n *Node) bool {
	if !IsHTTPRequest(n.Type) {
		return false
	}
	path := "options.response.response.neverError"
	if n.TypeVersion < 3 {
		path = "options.ignoreResponseCode"
	}
	v, ok := n.Param(path)
	return ok && (v.Kind() != Bool || v.True())
}

// AnswersStatusAsItem reports an HTTP Request v3+ whose error answer (a 429,
// a 5xx) certainly ends no try of its Retry On Fail: Never Error is on
// (IgnoresStatus, as a literal) and Full Response too, so the item is
// {body, headers, statusCode, statusMessage} (HttpRequestV3.node.js L72,
// L736–811). Without Full Response the item is the answer's body, and n8n
// retries a node whose first output item has an "error" field (n8n-core
// workflow-execute.js L1205–1236 in 2.41.1, L877–888 in 2.8.4): OpenAI's or
// Google's error body is retried. What still ends a try is a request with no answer (a refused
// connection, a timeout, a reset) and a body that the JSON format cannot
// parse (a proxy's HTML page, L794–804).
func AnswersStatusAsItem(n *Node) bool {
	if !IsHTTPRequest(n.Type) || n.TypeVersion < 3 {
		return false
	}
	p := n.Params()
	return p.Get("options.response.response.neverError").True() &&
		p.Get("options.response.response.fullResponse").True() &&
		p.Get("options.response.response.outputPropertyName").Str() != "error" // the text body's key
}
