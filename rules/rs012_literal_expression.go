package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs012 = &analyze.Rule{
	ID:    "RS012",
	Name:  "literal-expression",
	Title: `a value holds {{ }} without the leading "=": sent as text`,
	Doc: `n8n evaluates a parameter only when its string begins with "=": isExpression is expr.charAt(0) === '='
(n8n-workflow dist/cjs/expressions/expression-helpers.js), and Expression.getParameterValue returns any other
string as it is (dist/cjs/expression.js, "if (!isExpression(parameterValue)) return parameterValue"). The
editor adds the "=" when a field is switched to Expression; workflows written by hand or by an AI often leave
it out: an HTTP Request URL of "https://api.example.com/items/{{ $json.id }}", a header "Bearer {{
$credentials.key }}", an e-mail subject "Alert: {{ $json.level }}", a record ID "{{ $json.id }}". Every run then
sends the braces as text: a URL with "{{" in it, a 401 for the literal key, a message that reads
"{{ $json.level }}", a model prompted with the template and not the data.
A value is reported when the text between its "{{" and "}}" is n8n's expression language: it reads one of the
variables n8n's WorkflowDataProxy gives an expression ($json, $('Node'), $node, $input, $now, $today, $env,
$workflow, $item, $items, $binary, $parameter, $prevNode, $runIndex, $itemIndex, $fromAI, $jmespath and the rest;
n8n-workflow dist/cjs/workflow-data-proxy.js getDataProxy) or the keys n8n-core adds ($execution, $vars,
$secrets, $executionId, $resumeWebhookUrl: dist/execution-engine/node-execution-context/utils/get-additional-keys.js;
$credentials, $version, $request, $response and $pageCount in a request's routing and pagination:
dist/execution-engine/routing-node.js). A template for another engine ("{{name}}" for SendGrid's or Postmark's
Handlebars, a prompt that asks a model to fill "{{placeholder}}") reads none, and is not reported; nor is one a
model's prompt quotes in backticks, as code in prose (a system message that tells the model the notes come from
{{ $('Notes').item.json.text }} written between two backticks).
It is a warning when the node calls out of n8n (an HTTP Request, an app node), a run other than a person's
from the editor reaches it and does its work (as RS011 reads it: not in an archived workflow, not only past a
node that fails on every run or does none of its work, which RS010 names), and the value decides where the
call goes or whom it acts for: its URL, a header, the query, an ID or a resource locator's value, a recipient
(to, cc, chatId, channel, phone). Elsewhere (a subject, a body, a prompt, a field a Set node writes) the call
works and what it carries is wrong: a note. A note says what must happen before a run sends the value: that a
node before it that fails on every run (or an agent that fails before it calls its tool) is fixed, or that only a
person's run from the editor reaches it. The notes of one workflow are one finding, at its first such
node, with the others as related places. One finding per node, at its first such value (a warning's first),
naming the others.
Left out: a node no run reaches, where nothing but a failure before it is in the way (an AI Agent wired only
to its sub-nodes, connections n8n ignores, an output its source does not have, a gate that never lets items
through): no run sends its values; a value that begins with "=" (an expression, whatever it holds); code (the Code and Function nodes'
jsCode, functionCode, pythonCode and code), a workflow's JSON (workflowJson: its own parameters carry their
"=") and a schema or schema example (jsonSchemaExample, inputSchema, jsonSchema: only its shape is read); a
sticky note; a disabled node; a type n8n does not ship (a community node may render templates itself); an
export whose parameters were lost (RS008); a top-level parameter the node's version does not have (RS011: n8n
drops it), or that its display options hide for the node's values (a legacy OpenAI prompt at an operation that
does not show it, a Send Email v2.1 text at emailFormat "html", its default; the node table's display conditions,
as a missing required parameter is read: getNodeParameters drops a hidden parameter, n8n-workflow
dist/cjs/node-helpers.js, called with returnNoneDisplayed false by workflow.js); the column values of a resource
mapper in "autoMapInputData" mode, where the node writes the input item's own fields (Google Sheets, Airtable,
Postgres: getNodeParameter('columns.mappingMode')); an HTTP Request's URL or API key whose braces make every run fail, which RS010 names (braces in
the host or the path, a key header or query parameter); an HTTP Request's header, query or body list it does
not send (its send flag off, or specified as JSON: n8n hides it, and getNodeParameters drops a hidden
parameter, n8n-workflow dist/cjs/node-helpers.js), headers stored among its options, which no version has,
the body of HTTP Request v1 or v2 that its display options hide (bodyParametersJson and bodyParametersUi at a
method other than PATCH, POST, PUT or DELETE, as requestMethod reads it; bodyParametersJson with jsonParameters
off or sendBinaryData on), and the headers of one that authenticates with a credential, whose own header is set after them and may
replace them (nodes-base HttpRequest/V3/HttpRequestV3.node.js); the prompt text of an AI Agent or chain
that reads its prompt from chatInput (promptType "auto", the default from Agent v1.3, Basic LLM Chain v1.4 and
Question and Answer Chain v1.3: @n8n/n8n-nodes-langchain dist/utils/helpers.js getPromptInputByType); and the
values a node renders {{ }} in itself, with getResolvables and evaluateExpression (n8n-nodes-base dist/nodes):
the HTML node's template (Html/Html.node.js), the Edit Fields node's JSON output and object values
(Set/v2/raw.mode.js, manual.mode.js), a form's HTML fields (Form/utils/utils.js, for the Form, Form Trigger and
Wait nodes), the SQL of Postgres (and its query parameters), MySQL, Microsoft SQL, Snowflake, BigQuery, Oracle
and the Merge node's SQL mode, and an LDAP search's filter.`,
	Fix:        `Begin the value with "=" (in the editor, switch the field to Expression), or remove the {{ }} if the text was meant to be sent as it is`,
	FixDoc:     `Unsafe: inserts "=" at the start of each value the finding names, so that n8n evaluates it. The author may have meant the braces to be sent as text (a template a service renders itself), and an expression that does not parse then fails the node. None when the braces read a node the workflow does not have: as an expression the value would fail the node.`,
	FixSafety:  analyze.Unsafe,
	Severity:   analyze.Note,
	Confidence: analyze.High,
	Tags:       []string{"input"},
	FoldMore:   literalFoldMore,
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		if w == nil || w.ParametersLost {
			return
		}
		var g *analyze.Graph
		var why *whyTable // unreachedWhy's walks, once for the workflow
		for _, n := range w.Nodes {
			// The gate, read when the parameters were parsed: most nodes
			// hold no string with "{{" that does not begin with "=".
			if !n.BareBraces || n.Disabled || n.IsSticky() || codeTypes[n.Type] {
				continue
			}
			if _, ok := n8nschema.DescribeNode(n.Type, 0); !ok {
				continue // a community node may render templates itself
			}
			lits := literalExpressions(n)
			if len(lits) == 0 {
				continue
			}
			if g == nil {
				g = pass.Set.Graph(w)
				if g.BuildFails() {
					return // n8n cannot build it: no node runs (RS010 or RS003 says why)
				}
				why = newWhyTable(pass, g)
			}
			reportLiterals(pass, g, why, n, lits)
		}
	},
}

// codeTypes are the nodes whose parameters hold code: a {{ }} there is
// JavaScript or Python, not a parameter n8n evaluates.
var codeTypes = map[string]bool{
	"n8n-nodes-base.code": true, "n8n-nodes-base.function": true, "n8n-nodes-base.functionItem": true,
	"n8n-nodes-base.aiTransform": true, "@n8n/n8n-nodes-langchain.code": true,
	"@n8n/n8n-nodes-langchain.toolCode": true,
}

// codeKeys are the parameters that hold code, or text that is not a
// value, in any node.
var codeKeys = map[string]bool{"jsCode": true, "functionCode": true, "pythonCode": true, "code": true,
	// A workflow's JSON (Execute Workflow, Call Workflow Tool with source
	// "parameter"): its own parameters say "=" where they mean it.
	"workflowJson": true,
	// A schema, or an example n8n makes one from (Information Extractor,
	// Structured Output Parser, tools): only its shape is read, nothing
	// of it is sent.
	"jsonSchemaExample": true, "inputSchema": true, "jsonSchema": true}

// renderedKeys are the parameters a node type renders {{ }} in itself,
// whether or not they begin with "=" (getResolvables, then
// evaluateExpression on each; n8n-nodes-base dist/nodes): the HTML
// template (Html/Html.node.js), Edit Fields' JSON output and object
// values (Set/v2/raw.mode.js, Set/v2/manual.mode.js), a form's HTML
// fields (Form/utils/utils.js: Form, Form Trigger, Wait), the SQL nodes'
// queries (Postgres/v2/actions/database/executeQuery.operation.js and
// its query parameters, MySql/v2/actions/database/executeQuery.operation.js,
// Microsoft/Sql/MicrosoftSql.node.js, Snowflake/Snowflake.node.js,
// Google/BigQuery/v2/actions/database/executeQuery.operation.js,
// Oracle/Sql/actions/database/executeQuery.operation.js,
// Merge/v3/actions/mode/combineBySql.js) and an LDAP search
// (Ldap/Helpers.js escapeResolvables). A <type>Tool variant runs the
// same code.
var renderedKeys = map[string][]string{
	"n8n-nodes-base.html":           {"html"},
	"n8n-nodes-base.set":            {"jsonOutput", "objectValue"},
	"n8n-nodes-base.form":           {"html"},
	"n8n-nodes-base.formTrigger":    {"html"},
	"n8n-nodes-base.wait":           {"html"},
	"n8n-nodes-base.postgres":       {"query", "queryReplacement"},
	"n8n-nodes-base.mySql":          {"query"},
	"n8n-nodes-base.microsoftSql":   {"query"},
	"n8n-nodes-base.snowflake":      {"query"},
	"n8n-nodes-base.googleBigQuery": {"sqlQuery"},
	"n8n-nodes-base.oracleDatabase": {"query"},
	"n8n-nodes-base.merge":          {"query"},
	"n8n-nodes-base.ldap":           {"searchFor", "customFilter", "searchText"},
}

// n8nVarRE is what makes the text between {{ and }} n8n's expression
// language: a variable of n8n's WorkflowDataProxy (n8n-workflow
// dist/cjs/workflow-data-proxy.js getDataProxy: $, $input, $binary,
// $data, $env, $evaluateExpression, $item, $fromAI, $items, $json,
// $node, $self, $parameter, $rawParameter, $prevNode, $runIndex, $mode,
// $workflow, $itemIndex, $now, $today, $jmesPath, $getPairedItem,
// $jmespath, $position, $thisItem, $thisItemIndex, $thisRunIndex,
// $nodeVersion, $nodeId, $agentInfo, $webhookId, $tool) or a key
// n8n-core adds ($execution, $vars, $secrets, $executionId,
// $resumeWebhookUrl: get-additional-keys.js; $credentials, $version,
// $request, $response, $pageCount: routing-node.js and pagination), or a
// function n8n's expressions add ($ifEmpty, $min, $max, $average, $not:
// n8n-workflow dist/cjs/extensions/extended-functions.js extendedFunctions).
var n8nVarRE = lazyregexp.New(`\$(?:\(|(?:json|input|binary|data|env|evaluateExpression|items?|fromA[Ii]|fromai|node|self|parameter|rawParameter|prevNode|runIndex|mode|workflow|itemIndex|now|today|jmesPath|jmespath|getPairedItem|position|thisItem|thisItemIndex|thisRunIndex|nodeVersion|nodeId|agentInfo|webhookId|tool|execution|executionId|vars|secrets|resumeWebhookUrl|credentials|version|request|response|pageCount|ifEmpty|min|max|average|not)\b)`)

// literal is a value that holds n8n's {{ }} without the leading "=".
type literal struct {
	path string // below "parameters", as the JSON holds it
	expr string // its first {{ … }} that reads n8n's variables
	part string // what of the call it is, as callPart words it; "" for content
	val  n8nschema.Value
}

// literalExpressions lists the node's string values that hold {{ }}
// reading n8n's variables and do not begin with "=", in file order,
// leaving out code, the values the node renders itself, a prompt the
// node does not read and a top-level parameter n8n drops.
func literalExpressions(n *n8nschema.Node) []literal {
	base, _ := strings.CutSuffix(n.Type, "Tool")
	rendered := renderedKeys[base]
	skipText := promptFromChat(n)
	// A model's prompt may quote an expression in backticks for the model
	// to read (n8nExpr); a message to a person does not.
	prompt := strings.HasPrefix(n.Type, "@n8n/n8n-nodes-langchain.")
	var out []literal
	n.Params().Walk(func(rel string, v n8nschema.Value) {
		if v.Kind() != n8nschema.String || v.IsExpr() {
			return
		}
		raw := v.Raw()
		if !strings.Contains(raw, "{{") || strings.HasPrefix(raw, `"=`) {
			return
		}
		key := lastKey(rel)
		if codeKeys[key] || slices.Contains(rendered, key) || skipText && rel == "text" {
			return
		}
		expr, ok := n8nExpr(v.Str(), prompt)
		if !ok {
			return
		}
		out = append(out, literal{path: rel, expr: expr, val: v})
	})
	if len(out) == 0 {
		return nil
	}
	// A top-level parameter the node's version does not have is never
	// read (RS011).
	if dropped := n8nschema.DroppedParams(n); len(dropped) > 0 {
		names := make(map[string]bool, len(dropped))
		for _, d := range dropped {
			names[d.Name] = true
		}
		out = slices.DeleteFunc(out, func(l literal) bool {
			top, _, _ := strings.Cut(l.path, ".")
			return names[top]
		})
	}
	// A top-level parameter the node's display options hide for its
	// values is never read (n8nschema.Hidden: getNodeParameters drops it),
	// nor are the column values of a resource mapper that maps the input
	// item's fields itself.
	out = slices.DeleteFunc(out, func(l literal) bool {
		top, rest, nested := strings.Cut(l.path, ".")
		return n8nschema.Hidden(n, top) || nested && autoMapped(n, top, rest)
	})
	if strings.TrimSuffix(n.Type, "Tool") == n8nschema.TypeHTTPRequest {
		out = unsentLists(n, out)
		out = unsentBody(n, out)
	}
	// A literal URL or API key that makes an HTTP Request fail on every
	// run is RS010's (n8nschema.LiteralURL, LiteralKey).
	if n8nschema.LiteralURL(n) {
		out = slices.DeleteFunc(out, func(l literal) bool { return l.path == "url" })
	}
	if key, ok := n8nschema.LiteralKeyValue(n); ok {
		out = slices.DeleteFunc(out, func(l literal) bool { return l.val.Offset() == key.Offset() })
	}
	for i := range out {
		out[i].part = callPart(n, out[i].path)
	}
	return out
}

// httpLists are the HTTP Request's key-value lists of headers, query
// parameters and body parameters (v3 and later, then v1 and v2).
var httpLists = map[string]bool{
	"headerParameters": true, "queryParameters": true, "bodyParameters": true,
	"headerParametersUi": true, "queryParametersUi": true, "bodyParametersUi": true,
}

// unsentLists leaves out the values of an HTTP Request's key-value lists
// that it does not send (n8nschema.SentParams: a list whose send flag is
// off, or that is specified as JSON; v1 and v2 with JSON parameters on):
// n8n hides them, and getNodeParameters drops a hidden parameter. A
// header of a node that authenticates with a credential is left out too:
// the credential may set the same header. So are headers stored among the options, where no version of the node
// has them (getNodeParameters keeps a collection's declared options only:
// n8n-workflow dist/cjs/node-helpers.js).
func unsentLists(n *n8nschema.Node, lits []literal) []literal {
	var sent map[int]bool
	a, ok := n.Param("authentication")
	authed := ok && (a.Kind() != n8nschema.String || a.IsExpr() || a.Str() != "none")
	return slices.DeleteFunc(lits, func(l literal) bool {
		top, rest, _ := strings.Cut(l.path, ".")
		if top == "options" && strings.HasPrefix(strings.ToLower(rest), "headers") {
			return true
		}
		if authed && strings.Contains(strings.ToLower(top), "header") {
			// The credential's headers are set after these and may
			// replace them (HttpRequest/V3/HttpRequestV3.node.js,
			// V2/HttpRequestV2.node.js), as RS010 reads a literal key.
			return true
		}
		if !httpLists[top] {
			return false
		}
		if sent == nil {
			sent = map[int]bool{}
			n8nschema.SentParams(n, func(_, _ string, v n8nschema.Value) bool {
				sent[v.Offset()] = true
				return true
			})
		}
		return !sent[l.val.Offset()]
	})
}

// autoMapped reports a value under "value" of a resource mapper (a
// parameter holding "mappingMode") whose mode is "autoMapInputData": the
// node writes the input item's own fields and never reads the columns'
// values (Google/Sheet/v2/actions/sheet/append.operation.js,
// Airtable/v2/actions/record/create.operation.js,
// Postgres/v2/actions/database/insert.operation.js: getNodeParameter
// ('columns.mappingMode'), then the item's json when it is
// autoMapInputData).
func autoMapped(n *n8nschema.Node, top, rest string) bool {
	if !strings.HasPrefix(rest, "value.") {
		return false
	}
	p, ok := n.Param(top)
	if !ok {
		return false
	}
	m := p.Get("mappingMode")
	return m.Kind() == n8nschema.String && !m.IsExpr() && m.Str() == "autoMapInputData"
}

// bodyMethods are the methods at which HTTP Request v1 and v2 show their
// body parameters (HttpRequest/V1/HttpRequestV1.node.js and
// V2/HttpRequestV2.node.js, bodyParametersJson and bodyParametersUi:
// displayOptions.show.requestMethod).
var bodyMethods = []string{"PATCH", "POST", "PUT", "DELETE"}

// unsentBody leaves out the body of an HTTP Request v1 or v2 that n8n
// hides for the node's values, so that getNodeParameters drops it when it
// builds the workflow (n8n-workflow dist/cjs/node-helpers.js
// getNodeParameters, called with returnNoneDisplayed false, skips a
// property displayParameter hides): bodyParametersJson and
// bodyParametersUi when the method the version reads (requestMethod,
// n8nschema.SentMethod: GET when none is stored; "method" or
// "httpMethod" is not read) is not PATCH, POST, PUT or DELETE, and
// bodyParametersJson when jsonParameters is not a literal true or
// sendBinaryData is (its displayOptions show and hide). A method set by
// an expression keeps the body.
func unsentBody(n *n8nschema.Node, lits []literal) []literal {
	if n.TypeVersion >= 3 {
		return lits
	}
	literalTrue := func(name string) bool {
		v, ok := n.Param(name)
		return ok && v.True()
	}
	m, _, known := n8nschema.SentMethod(n)
	atMethod := !known || slices.Contains(bodyMethods, m)
	return slices.DeleteFunc(lits, func(l literal) bool {
		top, _, _ := strings.Cut(l.path, ".")
		switch top {
		case "bodyParametersUi":
			return !atMethod
		case "bodyParametersJson":
			return !atMethod || !literalTrue("jsonParameters") || literalTrue("sendBinaryData")
		}
		return false
	})
}

// n8nExpr returns the first {{ … }} of s whose text reads one of n8n's
// variables; in a model's prompt (prompt), not one quoted in backticks.
func n8nExpr(s string, prompt bool) (string, bool) {
	for i := 0; ; {
		k := strings.Index(s[i:], "{{")
		if k < 0 {
			return "", false
		}
		start := i + k
		e := strings.Index(s[start+2:], "}}")
		if e < 0 {
			return "", false
		}
		end := start + 2 + e + 2
		// In backticks, as code in prose (a prompt that tells the model
		// where a value comes from), the braces are quoted, not a value
		// the author meant n8n to put there.
		quoted := prompt && start > 0 && s[start-1] == '`' && end < len(s) && s[end] == '`'
		if !quoted && n8nVarRE.MatchString(s[start+2:end-2]) {
			return s[start:end], true
		}
		i = end
	}
}

// lastKey is the last key of a relative path (an array index is not one:
// "parameters.0.value" ends with "value", "sendTo.0" with "sendTo").
func lastKey(rel string) string {
	for rel != "" {
		i := strings.LastIndexByte(rel, '.')
		k := rel[i+1:]
		if _, err := strconv.Atoi(k); err != nil {
			return k
		}
		if i < 0 {
			return ""
		}
		rel = rel[:i]
	}
	return ""
}

// promptFromChat reports an AI Agent or chain that reads its prompt from
// the item, not from "text": its chatInput at promptType "auto", the
// default from Agent v1.3, Basic LLM Chain v1.4 and Question and Answer
// Chain v1.3, or its guardrailsInput at "guardrails" (the older options'
// third choice) (@n8n/n8n-nodes-langchain dist/utils/helpers.js
// getPromptInputByType; utils/descriptions.js promptTypeOptions,
// promptTypeOptionsDeprecated).
func promptFromChat(n *n8nschema.Node) bool {
	var from float64
	switch n.Type {
	case "@n8n/n8n-nodes-langchain.agent", "@n8n/n8n-nodes-langchain.chainRetrievalQa":
		from = 1.3
	case "@n8n/n8n-nodes-langchain.chainLlm":
		from = 1.4
	default:
		return false
	}
	if n.TypeVersion < from {
		return false
	}
	p, ok := n.Param("promptType")
	return !ok || p.Kind() == n8nschema.String && !p.IsExpr() && (p.Str() == "auto" || p.Str() == "guardrails")
}

// recipientKeys are the parameters that name whom a message goes to.
var recipientKeys = map[string]bool{
	"to": true, "toemail": true, "torecipients": true, "sendto": true, "cc": true, "ccemail": true,
	"bcc": true, "bccemail": true, "chatid": true, "channel": true, "channelid": true, "phone": true,
	"phonenumber": true, "recipient": true, "recipients": true, "recipientphonenumber": true,
}

// callPart says, as a phrase for a message, what part of the node's call
// the value at path is, when a literal there breaks or misdirects the
// call (" in the URL it calls", " in a header of its request", " in the
// query of its request", " in place of the ID it acts on", " in place of
// the recipient");
// "" for content (a subject, a
// body, a prompt, the values a node writes into a row or record) and for
// a node that makes no call out of n8n. An ID is a top-level parameter
// ("documentId", "chatId") or a resource locator's value; a URL is "url".
func callPart(n *n8nschema.Node, path string) string {
	if s := n8nschema.Lookup(n.Type); !s.Known || s.Role != n8nschema.RoleExternal {
		return ""
	}
	top, _, nested := strings.Cut(path, ".")
	if dataRoots[top] {
		return "" // what the call writes: its content
	}
	key := lastKey(path)
	lk := strings.ToLower(key)
	lp := strings.ToLower(path)
	switch {
	case lk == "url":
		return " in the URL it calls"
	case strings.Contains(lp, "header"):
		return " in a header of its request"
	case top == "qs" || strings.Contains(lp, "queryparameters"):
		return " in the query of its request"
	case recipientKeys[lk]:
		return " in place of the recipient"
	case !nested && (key == "id" || strings.HasSuffix(key, "Id") || strings.HasSuffix(key, "ID")):
		return " in place of the ID it acts on"
	case key == "value" && resourceLocator(n, path):
		return " in place of the ID it acts on"
	}
	return ""
}

// dataRoots are the parameters that hold what a node writes (a row's
// columns, a record's fields, a request's body): a literal there is
// content, whatever its key is called.
var dataRoots = map[string]bool{
	"columns": true, "fieldsUi": true, "fields": true, "fieldsToSend": true, "dataToSend": true,
	"bodyParameters": true, "bodyParametersUi": true, "bodyParametersJson": true, "jsonBody": true,
	"body": true, "assignments": true, "values": true, "customFieldsUi": true, "messages": true,
}

// resourceLocator reports a value that is the "value" of a resource
// locator ({"__rl": true, "mode": …, "value": …}).
func resourceLocator(n *n8nschema.Node, path string) bool {
	parent := strings.TrimSuffix(path, ".value")
	if parent == path {
		return false
	}
	v := n.Params()
	if parent != "" {
		v = v.Get(parent)
	}
	return v.Get("__rl").True()
}

func reportLiterals(pass *analyze.Pass, g *analyze.Graph, wt *whyTable, n *n8nschema.Node, lits []literal) {
	// What no run of a trigger reaches, no run sends: silent (an AI Agent
	// wired only to its sub-nodes, connections n8n ignores, a node on an
	// output its source does not have). A node only a failure before it
	// cuts off is not that: once the node that fails is fixed, every run
	// sends the value, and the finding says so (unreachedWhy, RS011's
	// wording), as it says when only a person's run from the editor
	// reaches it, or when the workflow is archived.
	why, sent := literalReach(g, wt, n)
	if !sent {
		return
	}
	at := slices.IndexFunc(lits, func(l literal) bool { return l.part != "" })
	if at < 0 {
		at = 0
	}
	l := lits[at]
	msg := fmt.Sprintf("parameter %q of node %q holds %s without the leading \"=\": n8n evaluates only a value that begins with \"=\", so every run sends the braces as text",
		n8nschema.ShownPath(l.path), n.Name, strconv.Quote(n8nschema.Clip(l.expr, 60)))
	d := analyze.Diagnostic{Node: n, Pos: l.val.Pos()}
	msg += l.part + why
	if l.part != "" && why == "" {
		d.Severity = analyze.Warning
	}
	var others []string
	for i, o := range lits {
		if i != at {
			others = append(others, strconv.Quote(n8nschema.ShownPath(o.path)))
		}
	}
	if len(others) > 0 {
		msg += "; " + joinNames(others, 3) + " " + plural(len(others), "holds", "hold") + " one too"
	}
	d.Message = msg
	d.Fix = fmt.Sprintf("Begin %s of %q with \"=\" (switch the field to Expression in the editor)", joinNames(quotedPaths(lits), 3), n.Name)
	w := pass.Workflow
	d.NoteFoldKey = pass.File.Source.Name + "\x01" + w.Path + "\x01" + w.ID
	paths := make([]string, len(lits))
	for i, o := range lits {
		paths[i] = o.path
	}
	if missing := missingNode(w, lits); missing != "" {
		why := analyze.Unrepairable(fmt.Sprintf("the braces read node %q, which the workflow does not have: as an expression the value would fail the node", missing))
		d.Repair = func(analyze.Repairer) (*analyze.Repair, error) { return nil, why }
	} else {
		d.Repair = func(r analyze.Repairer) (*analyze.Repair, error) { return r.ExpressionPrefix(w, n, paths) }
	}
	pass.Report(d)
}

// literalReach says, as a clause for a message, what must happen before a
// run sends what node n holds (whyTable.why: "" when a run of a trigger
// does), and reports whether a run sends it at all: not when no run
// reaches n (g.Reachable: connections n8n ignores, an output its source
// does not have, an AI Agent wired only to its sub-nodes, a gate that
// never lets items through) and no node that fails on every run cuts it
// off (g.FailsBefore), or a tool or model whose root fails on every run
// before it calls them (the root's failure, as FailsWhy reads it): once
// that node is fixed, every run sends the value.
func literalReach(g *analyze.Graph, wt *whyTable, n *n8nschema.Node) (string, bool) {
	if _, behind := g.FailsBefore(n); behind || g.Reachable(n) {
		return wt.why(n), true
	}
	if g.IsSubNode(n) {
		for _, r := range g.Roots(n) {
			if _, fails := g.FailsWhy(r); fails && g.Reachable(r) {
				return fmt.Sprintf(" (once %q, which fails on every run before it, is fixed)", r.Name), true
			}
		}
	}
	return "", false
}

// namedNodeRE finds a read of a node by name: $('Name'), $node["Name"],
// $items("Name").
var namedNodeRE = lazyregexp.New(`\$(?:\(|items\(|node\[)\s*(?:'([^'"\\]+)'|"([^'"\\]+)")\s*[)\]]`)

// missingNode is a node the literals' text reads by name that the
// workflow does not have, or "": prefixed with "=", the expression would
// fail the node (RS010), and a repair never makes a workflow worse.
func missingNode(w *n8nschema.Workflow, lits []literal) string {
	for _, l := range lits {
		s := l.val.Str()
		if !strings.Contains(s, "$(") && !strings.Contains(s, "$node[") && !strings.Contains(s, "$items(") {
			continue
		}
		for _, m := range namedNodeRE.FindAllStringSubmatch(s, -1) {
			name := m[1] + m[2]
			if w.Node(name) == nil {
				return name
			}
		}
	}
	return ""
}

func quotedPaths(lits []literal) []string {
	out := make([]string, len(lits))
	for i, l := range lits {
		out[i] = strconv.Quote(n8nschema.ShownPath(l.path))
	}
	return out
}

// literalFoldMore words what a finding that others folded into says of
// them.
func literalFoldMore(_ string, n int) string {
	return fmt.Sprintf("; %d more %s of the workflow %s {{ }} without the leading \"=\"", n, plural(n, "node", "nodes"), plural(n, "holds", "hold"))
}
