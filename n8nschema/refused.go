package n8nschema

import (
	"slices"
	"strconv"
	"strings"
)

// Refusal is why a node makes no billed call: n8n refuses to run it as
// configured, or the provider refuses the request it sends.
type Refusal struct {
	Why string
	// Fails: the node fails on every item, so nothing leaves its regular
	// output unless its settings continue on error. False when what the
	// node does instead is not known (a node's own code may skip an
	// operation it does not know rather than throw).
	Fails bool
}

// NoBilledCall reports an app or model node that n8n runs without making
// the call its provider bills, and why (RefusedCall).
func NoBilledCall(n *Node) (why string, ok bool) {
	r, ok := RefusedCall(n)
	return r.Why, ok
}

// openAiApp is the OpenAI app node of the LangChain package; openAiLegacy
// the n8n-nodes-base node it replaced.
const (
	openAiApp    = "@n8n/n8n-nodes-langchain.openAi"
	openAiLegacy = "n8n-nodes-base.openAi"
)

// fullAccess are the node types that take a credential of any type
// (n8n-core/dist/constants.js FULL_ACCESS_NODE_TYPES: the HTTP Request
// node, its tool forms and GraphQL).
var fullAccess = map[string]bool{
	"n8n-nodes-base.httpRequest": true, "n8n-nodes-base.httpRequestTool": true,
	"@n8n/n8n-nodes-langchain.toolHttpRequest": true,
	"n8n-nodes-base.graphql":                   true, "n8n-nodes-base.graphqlTool": true,
}

// RefusedCall reports an app or model node that makes no billed call as
// configured, and why:
//
//   - its credentials block names only credential types the node does not
//     take ("openAIApi" where the node takes "openAiApi"): n8n looks a
//     credential up by the node's own type name and fails the node, for
//     any type the node does not hold, before any request
//     (n8n-core/dist/execution-engine/node-execution-context/node-execution-context.js
//     _getCredentials: "Node does not have any credentials set for ...",
//     "Node does not require credentials"). A missing block is not such a
//     node: shared exports strip credentials, and whoever imports the
//     workflow adds their own; nor is a node whose authentication is
//     "none" (it asks for no credential), nor one whose credentials are
//     all optional or shown only for other parameters' values (the AI
//     Agent's mySql and postgres: it may ask for none; AsksCredential),
//     nor one of the types that take any credential (fullAccess);
//   - the legacy OpenAI node at text/complete with a chat model
//     (legacyCompletion);
//   - its resource or operation is not one its description defines at its
//     version (the legacy OpenAI node with resource "completions" or
//     operation "create"): a declarative node builds its request from the
//     routing of the properties shown for those values
//     (n8n-core/dist/execution-engine/routing-node.js runNode), and none
//     is shown; a programmatic node's router finds no operation to run;
//     the OpenAI app node's routers throw (vendors/OpenAi/v1/actions/router.js
//     and v2/actions/router.js: "The operation ... is not supported!" for
//     a resource they do not handle, and no execute for an operation the
//     resource lacks), before the loop over items;
//   - the OpenAI app node v1.x's message operation with no model or no
//     prompt (openAiV1Message).
//
// Only a version the table lists exactly is judged by its operations: a
// nearer or newer release may define more. Expressions are not judged.
func RefusedCall(n *Node) (Refusal, bool) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	d, known := DescribeNode(typ, n.TypeVersion)
	if !known {
		return Refusal{}, false
	}
	// A programmatic node asks for its credential inside the branch of the
	// operation it runs (Twitter v1 asks in its "tweet" and
	// "directMessage" branches), so with a resource or operation it does
	// not define it asks for none; a declarative node asks first.
	if !d.Declarative() {
		if r, ok := undefinedOperation(n, d, typ); ok {
			return r, true
		}
	}
	if len(n.Credentials) > 0 && d.AsksCredential() && !fullAccess[n.Type] && !asksNoCredential(n, d) {
		if creds := d.Credentials(); !slices.ContainsFunc(n.Credentials, func(c string) bool { return slices.Contains(creds, c) }) {
			return Refusal{"its credential " + quoteList(n.Credentials) + " is not of a type the node takes (" + quoteList(creds) + ")", true}, true
		}
	}
	if why, ok := legacyCompletion(n); ok {
		return Refusal{why, true}, true
	}
	if d.Declarative() { // a programmatic node's was judged above
		if r, ok := undefinedOperation(n, d, typ); ok {
			return r, true
		}
	}
	if typ == openAiApp && d.Version < 2 && n.TypeVersion == d.Version && len(d.e.ops) > 0 {
		res, rok := literalParam(n, "resource")
		op, ook := literalParam(n, "operation")
		if res == "" {
			res = d.DefaultResource()
		}
		if op == "" {
			op = d.DefaultOperation(res)
		}
		if rok && ook && res == "text" && op == "message" {
			if why, ok := openAiV1Message(n); ok {
				return Refusal{why, true}, true
			}
		}
	}
	return Refusal{}, false
}

// undefinedOperation reports a node whose literal resource or operation is
// not one its description defines at its exact version.
func undefinedOperation(n *Node, d NodeVersion, typ string) (Refusal, bool) {
	if n.TypeVersion != d.Version || len(d.e.ops) == 0 {
		return Refusal{}, false
	}
	res, rok := literalParam(n, "resource")
	op, ook := literalParam(n, "operation")
	if !rok || !ook {
		return Refusal{}, false
	}
	if res == "" {
		res = d.DefaultResource()
	}
	if d.resourceOps(res) == nil {
		return Refusal{"its resource " + quoteList([]string{res}) + " is not one the node defines", typ == openAiApp}, true
	}
	if op != "" {
		if _, listed := d.Operation(res, op); !listed {
			return Refusal{"its operation " + quoteList([]string{op}) + " is not one the node defines for " + quoteList([]string{res}), typ == openAiApp}, true
		}
	}
	return Refusal{}, false
}

// asksNoCredential reports a node whose authentication parameter, as set
// or by default, is "none": it asks for no credential, whatever the block
// holds.
func asksNoCredential(n *Node, d NodeVersion) bool {
	auth, ok := literalParam(n, "authentication")
	if !ok {
		return false
	}
	if auth == "" {
		auth = d.DefaultAuthentication()
	}
	return auth == "none"
}

// openAiV1Message judges the OpenAI app node v1.x's "Message a model"
// (vendors/OpenAi/v1/actions/text/message.operation.js; OpenAi.node.js
// runs versions 1 to 1.8 on OpenAiV1). Before any request:
//
//   - its model, modelId, is a required resource locator defaulting to
//     {mode: "list", value: ""} (v1/actions/descriptions.js modelRLC):
//     with no value n8n finds a parameter issue and fails the execution
//     before running a node (n8n-core/dist/execution-engine/workflow-execute.js
//     checkForWorkflowIssues; n8n-workflow node-helpers.js
//     getParameterIssues, isValidResourceLocatorParameterValue). The
//     legacy node's names, "model" and "messages.messageValues", are not
//     read;
//   - execute reads messages.values (default []) and throws "A non-empty
//     prompt is required." unless one message's content is a string with
//     text: a missing list, or contents all empty ("", "=", spaces).
//
// A model or content that is an expression may produce text and is not
// judged.
func openAiV1Message(n *Node) (string, bool) {
	v, ok := n.Param("modelId")
	if ok && v.Kind() == Object {
		v, ok = n.Param("modelId.value")
	}
	if !ok || v.Kind() == String && !v.IsExpr() && v.Str() == "" {
		return "it has no model: OpenAI v1.x reads modelId, which n8n requires before it runs the workflow", true
	}
	if m, ok := n.Param("messages"); ok && m.Kind() != Object {
		return "", false
	}
	msgs, ok := n.Param("messages.values")
	if ok && msgs.Kind() != Array {
		return "", false
	}
	for _, m := range msgs.Elems() {
		c := m.Get("content")
		if c.Exists() && (c.Kind() != String || c.IsExpr() || strings.TrimSpace(c.Str()) != "") {
			return "", false
		}
	}
	return "it sends no prompt: OpenAI v1.x reads messages.values and stops at \"A non-empty prompt is required.\"", true
}

// legacyCompletion reports the legacy OpenAI node at its default resource
// and operation, text/complete, which POSTs to /v1/completions
// (n8n-nodes-base/dist/nodes/OpenAi/TextDescription.js), with a chat
// model: OpenAI's legacy completions endpoint serves only
// gpt-3.5-turbo-instruct, davinci-002 and babbage-002 and answers a chat
// model with 404 "This is a chat model and not supported in the
// v1/completions endpoint", which the node turns into its error
// (GenericFunctions.js sendErrorPostReceive) with nothing generated. The
// node is one description at every typeVersion (OpenAi.node.js version
// [1, 1.1], not a VersionedNodeType), so any typeVersion runs it so.
// Only a literal model is judged; a missing one is the default,
// gpt-3.5-turbo-instruct.
func legacyCompletion(n *Node) (string, bool) {
	if n.Type != openAiLegacy {
		return "", false
	}
	res, rok := literalParam(n, "resource")
	op, ook := literalParam(n, "operation")
	if !rok || !ook || res != "" && res != "text" || op != "" && op != "complete" {
		return "", false
	}
	model, ok := literalParam(n, "model")
	if !ok || !chatOnlyModel(model) {
		return "", false
	}
	return "OpenAI's legacy completions endpoint, where text/complete posts, refuses the chat model " + strconv.Quote(model), true
}

// chatOnlyModel reports an OpenAI model id served only by the chat
// completions and responses endpoints: the GPT-3.5 Turbo chat models (not
// the -instruct one), GPT-4 and later, the o-series and chatgpt-*.
func chatOnlyModel(m string) bool {
	m = strings.ToLower(strings.TrimSpace(m))
	switch {
	case strings.HasPrefix(m, "gpt-3.5-turbo"):
		return !strings.Contains(m, "instruct")
	case strings.HasPrefix(m, "gpt-4"), strings.HasPrefix(m, "gpt-5"), strings.HasPrefix(m, "chatgpt-"):
		return true
	case len(m) >= 2 && m[0] == 'o' && m[1] >= '1' && m[1] <= '9':
		return len(m) == 2 || m[2] == '-'
	}
	return false
}

// literalParam is a string parameter's value ("" when absent), and false
// when it is an expression or not a string.
func literalParam(n *Node, path string) (string, bool) {
	v, ok := n.Param(path)
	if !ok {
		return "", true
	}
	s := v.Str()
	if v.Kind() != String || strings.HasPrefix(s, "=") || strings.Contains(s, "{{") {
		return "", false
	}
	return s, true
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
