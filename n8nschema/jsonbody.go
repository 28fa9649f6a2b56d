package n8nschema

import (
	"encoding/json"
	"errors"
	"strings"
)

// brokenJSONBody reports an HTTP Request node (v3 and later) that sends a
// JSON body written as text that no value of its expressions makes valid
// JSON. The node reads the body with getNodeParameter (the expressions
// resolved) and, unless the result is already an object, parses it with
// JSON.parse for every item, throwing "The value in the \"JSON Body\"
// field is not valid JSON" before any request
// (n8n-nodes-base/dist/nodes/HttpRequest/V3/HttpRequestV3.node.js
// parseJsonParameter). It does so when sendBody is true, the content type
// is JSON (the default) and specifyBody is "json"; an empty body (the
// default is the empty string) does not parse either.
//
// An expression is judged by its place in the text (brokenTemplate): in a
// JSON string it is taken for a plain letter, after a key's colon for a
// number; where it could yield a key, several members or several values
// (after "{", "[" or ",", or the whole body), the body is not judged.
func brokenJSONBody(n *Node) (Refusal, bool) {
	if n.Type != TypeHTTPRequest {
		return Refusal{}, false
	}
	if n.TypeVersion < 3 {
		return brokenJSONParameters(n, "")
	}
	if v, ok := n.Param("sendBody"); !ok || v.Kind() != Bool || !v.True() {
		return Refusal{}, false
	}
	if v, ok := n.Param("specifyBody"); !ok || v.Kind() != String || v.Str() != "json" {
		return Refusal{}, false
	}
	if v, ok := n.Param("contentType"); ok && (v.Kind() != String || v.Str() != "json") {
		return Refusal{}, false
	}
	body := ""
	if v, ok := n.Param("jsonBody"); ok {
		if v.Kind() != String {
			return Refusal{}, false // an object is sent as it is
		}
		body = v.Str()
	}
	why, ok := brokenTemplate(body)
	if !ok {
		return Refusal{}, false
	}
	what := "its JSON body is not valid JSON (" + why + ")"
	switch text, expr := strings.CutPrefix(body, "="); {
	case strings.TrimSpace(text) == "":
		what = "its JSON body is empty"
	case expr && strings.Contains(text, "{{"):
		what = "its JSON body is not valid JSON whatever its expressions yield (" + why + ")"
	}
	return Refusal{Why: what + ": n8n fails every item with \"not valid JSON\" before it sends anything", Fails: true, NoCall: true}, true
}

// jsonParameters are the HTTP Request v1 and v2 parameters that "JSON/RAW
// Parameters" shows, in the order the node reads them, with the name its
// error gives each.
var jsonParameters = []struct{ param, display string }{
	{"bodyParametersJson", "Body Parameters"},
	{"headerParametersJson", "Headers"},
	{"queryParametersJson", "Query Parameters"},
}

// brokenJSONParameters reports an HTTP Request v1 or v2 with "JSON/RAW
// Parameters" on (jsonParameters true) whose body, headers or query
// parameters are text that no value of its expressions makes valid JSON.
// For every item the node reads each with getNodeParameter (expressions
// resolved), skips the empty string, and parses any other value that is
// not an object with JSON.parse unless options.bodyContentType is "raw",
// throwing "The data in \"Body Parameters\" is no valid JSON" before any
// request (n8n-nodes-base/dist/nodes/HttpRequest/V1/HttpRequestV1.node.js
// L639, L695-765; V2/HttpRequestV2.node.js L818-835, the same code). n8n
// drops a parameter its display options hide when it loads the workflow,
// so the body counts only for PATCH, POST, PUT or DELETE (the method
// defaults to GET) and when sendBinaryData is not on (V1 L403-416, L156,
// V2 L417-430); headers and query parameters show whenever jsonParameters
// is on (V1 L461-468, L512-519). Each text is judged as brokenTemplate
// judges a v3 body; a whole-value expression may yield an object and is
// not judged.
//
// method, when not "", is judged in place of the stored requestMethod.
func brokenJSONParameters(n *Node, method string) (Refusal, bool) {
	if v, ok := n.Param("jsonParameters"); !ok || v.Kind() != Bool || !v.True() {
		return Refusal{}, false
	}
	if v, ok := n.Param("options.bodyContentType"); ok && (v.Kind() != String || v.IsExpr() || v.Str() == "raw") {
		return Refusal{}, false
	}
	if method == "" {
		method = "GET"
		if v, ok := n.Param("requestMethod"); ok {
			method = ""
			if v.Kind() == String && !v.IsExpr() {
				method = v.Str()
			}
		}
	}
	body := method == "PATCH" || method == "POST" || method == "PUT" || method == "DELETE"
	if v, ok := n.Param("sendBinaryData"); ok && (v.Kind() != Bool || v.True()) {
		body = false
	}
	for k, p := range jsonParameters {
		if k == 0 && !body {
			continue
		}
		v, ok := n.Param(p.param)
		if !ok || v.Kind() != String {
			continue // absent or empty is skipped; an object is sent as it is
		}
		text := v.Str()
		if text == "" || text == "=" {
			continue // n8n skips an empty value
		}
		why, ok := brokenTemplate(text)
		if !ok {
			continue
		}
		what := "its JSON " + p.display + " are not valid JSON (" + why + ")"
		if strings.HasPrefix(text, "=") && strings.Contains(text, "{{") {
			what = "its JSON " + p.display + " are not valid JSON whatever its expressions yield (" + why + ")"
		}
		return Refusal{Why: what + ": n8n fails every item with \"The data in " + p.display + " is no valid JSON\" before it sends anything", Fails: true, NoCall: true}, true
	}
	return Refusal{}, false
}

// brokenTemplate reports a parameter value that is not JSON whatever its
// {{ }} expressions yield, and JSON's complaint. A value without "=" is
// the text itself. An expression's text is split as n8n's expression
// parser splits it (n8n-workflow extensions/expression-parser.js and
// @n8n/tournament ExpressionSplitter: from each "{{" to the next "}}");
// a backslash before the brackets or doubled in the text (which the two
// parsers treat differently) or an unclosed expression is not judged.
func brokenTemplate(s string) (string, bool) {
	text, ok := strings.CutPrefix(s, "=")
	if !ok {
		return invalidJSON(s)
	}
	var out strings.Builder
	inString, escaped := false, false
	write := func(t string) {
		for i := 0; i < len(t); i++ {
			c := t[i]
			switch {
			case escaped:
				escaped = false
			case inString && c == '\\':
				escaped = true
			case c == '"':
				inString = !inString
			}
		}
		out.WriteString(t)
	}
	for {
		open := strings.Index(text, "{{")
		if open < 0 {
			write(text)
			break
		}
		before := text[:open]
		if strings.HasSuffix(before, "\\") || strings.Contains(before, `\\`) {
			return "", false
		}
		write(before)
		rest := text[open+2:]
		end := strings.Index(rest, "}}")
		if end < 0 || strings.HasSuffix(rest[:end], "\\") || !balanced(rest[:end]) {
			return "", false
		}
		text = rest[end+2:]
		switch {
		case inString:
			write("a")
		case lastNonSpace(out.String()) == ':' && nextFitsValue(text):
			write("0")
		default:
			return "", false // a key, members or values could go here
		}
	}
	return invalidJSON(out.String())
}

// invalidJSON reports text that JSON.parse refuses, with the reason.
// Valid text is most bodies: json.Valid checks it without building the
// value (Unmarshal runs the same check first, and its complaint is kept).
func invalidJSON(s string) (string, bool) {
	b := []byte(s)
	if json.Valid(b) {
		return "", false
	}
	var v any
	err := json.Unmarshal(b, &v)
	if err == nil {
		return "", false
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return syn.Error(), true
	}
	return "", false
}

func lastNonSpace(s string) byte {
	s = strings.TrimRight(s, " \t\r\n")
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

// nextFitsValue reports text after a value that goes on as JSON after
// one value: a comma or the end of an object or array.
func nextFitsValue(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	return s != "" && strings.IndexByte(",}]", s[0]) >= 0
}

// balanced reports an expression whose brackets pair up outside its
// string literals: one that does not was cut at a "}}" inside it.
func balanced(code string) bool {
	depth := 0
	var quote byte
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '{' || c == '[' || c == '(':
			depth++
		case c == '}' || c == ']' || c == ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0 && quote == 0
}

// BrokenJSONBody reports an HTTP Request whose JSON body n8n fails to
// parse on every item (brokenJSONBody).
func BrokenJSONBody(n *Node) bool {
	_, ok := brokenJSONBody(n)
	return ok
}

// IgnoredMethod reports an HTTP Request v1 or v2 that stores a method
// other than GET under "method" (the name v3 and later read) and sends
// GET: v1 and v2 read only requestMethod, whose default is GET
// (HttpRequest/V1/HttpRequestV1.node.js L124-156, V2 alike), and n8n drops
// a parameter a node does not define, and one its display options hide
// at GET, the JSON body among them, when it builds the workflow
// (n8n-workflow workflow.js L86, node-helpers.js getNodeParameters
// L655-667): the node sends a GET with no body. It returns the stored
// method, and whether GET is Request Method's default (no requestMethod
// stored) rather than a stored "GET". DroppedMethod is the general fact.
func IgnoredMethod(n *Node) (m string, def bool, ok bool) {
	if !readsRequestMethod(n) {
		return "", false, false
	}
	stored, sends, ok := DroppedMethod(n, "method")
	if !ok || sends != "GET" || stored == "GET" {
		return "", false, false
	}
	_, def, _ = SentMethod(n)
	return stored, def, true
}

// BrokenJSONBodyAt reports an HTTP Request v1 or v2 whose JSON parameters
// would fail as not JSON, before any request, once it sends with method
// (see brokenJSONParameters): the cause n8n meets first after its
// Request Method is set.
func BrokenJSONBodyAt(n *Node, method string) bool {
	if n.Type != TypeHTTPRequest || n.TypeVersion >= 3 || method == "" {
		return false
	}
	_, ok := brokenJSONParameters(n, method)
	return ok
}
