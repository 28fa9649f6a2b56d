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
	// NoCall: the node sends no request at all (its code has no branch for
	// its resource or operation), so it is no external call, paid,
	// retried or otherwise.
	NoCall bool
	// NoItems: the node returns no items, so nothing after it runs.
	NoItems bool
	// Bare: a declarative node that finds no routing for its resource or
	// operation sends only a bare request to its service's base URL and
	// passes the answer on: none of its work is ever done.
	Bare bool
	// NoBranch: a programmatic node whose code, read, has no branch for
	// its resource or operation (noBranches) and sends nothing. Such a
	// node asks for its credential only inside the branch of the
	// operation it runs (getCredentials), so it never asks for one: what
	// its credential is changes nothing. A declarative node asks first
	// (n8n-core routing-node.js prepareCredentials), so Bare is not one.
	NoBranch bool
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
//     "none", or whose credential parameter shows no credential (it asks
//     for none; asksNoCredential), nor one whose credentials are all
//     optional or shown only for several parameters' values (the AI
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
//     resource lacks), before the loop over items; a programmatic node
//     whose code was read throws, or sends no request (noBranches);
//   - the OpenAI app node v1.x's message operation with no model or no
//     prompt (openAiV1Message);
//   - an HTTP Request whose JSON body is not JSON whatever its expressions
//     yield (brokenJSONBody);
//   - an HTTP Request whose URL holds {{ }} without the leading "=" in its
//     host or path (literalURL);
//   - an HTTP Request with no credential that sends an API key header or
//     query parameter holding {{ }} without the leading "=" (literalKey);
//   - an HTTP Request to a model API that sends no key: authentication
//     "none" and no key in a header, query parameter or body (noKey);
//   - an HTTP Request to Anthropic's Messages API whose body has no
//     max_tokens (AnthropicNoMaxTokens): sent, and refused;
//   - a programmatic node whose execute() throws first thing, before it
//     reads an item or asks for a credential, for every configuration or
//     for a value of one parameter (throwsFirst: Airtable v1 on the API
//     key authentication, Orbit);
//   - an Aggregate node that names one output field twice (aggregateTwice);
//   - a model node or HTTP Request that calls, by a literal id, a model its
//     provider shut down (RetiredModelCall): the request is sent and the
//     provider refuses it, on every item, with nothing billed.
//
// Only a version the table lists exactly is judged by its operations: a
// nearer or newer release may define more. Expressions are not judged.
func RefusedCall(n *Node) (Refusal, bool) {
	return RefusedCallBy(n, AllRefusalChecks)
}

// RefusalChecks is a set of RefusedCall's checks (besides the credential
// test, which judges a node of any type that holds a credential).
type RefusalChecks uint16

const (
	checkHTTP        RefusalChecks = 1 << iota // the HTTP Request's: literalURL, brokenJSONBody, unknownAuth, literalKey, noKey, AnthropicNoMaxTokens
	checkSheets                                // sheetsNoMatchValue
	checkAggregate                             // aggregateTwice
	checkThrowsFirst                           // throwsAtStart
	checkOperations                            // undefinedOperation
	checkModes                                 // undefinedMode
	checkSupabase                              // supabaseRefusal
	checkLegacy                                // legacyCompletion
	checkOpenAiV1                              // openAiV1Message
	checkRetired                               // retiredCall

	// AllRefusalChecks is every check: RefusedCall's.
	AllRefusalChecks RefusalChecks = 1<<iota - 1
)

// RefusalChecksOf is the set of RefusedCall's checks that may refuse a
// node of type typ: each other one answers no at its test of the node's
// type, whatever its version and parameters. The analysis reads it once
// per type and asks RefusedCallBy with it. A check added to RefusedCall
// is added here with the test of the type it makes first
// (TestRefusalChecksOf asks every check of every node and compares).
func RefusalChecksOf(typ string) RefusalChecks {
	base := strings.TrimSuffix(typ, "Tool")
	var c RefusalChecks
	switch base {
	case TypeHTTPRequest:
		c |= checkHTTP | checkRetired // HTTPModelCallOf (retiredCall)
	case "n8n-nodes-base.googleSheets":
		c |= checkSheets
	case "n8n-nodes-base.supabase":
		c |= checkSupabase
	case openAiApp:
		c |= checkOpenAiV1
	}
	switch typ {
	case "n8n-nodes-base.aggregate":
		c |= checkAggregate
	case openAiLegacy:
		c |= checkLegacy
	}
	if _, ok := providerNodes[base]; ok {
		c |= checkRetired
	}
	if _, ok := embeddingNodes[typ]; ok {
		c |= checkRetired
	}
	for _, x := range throwsFirst {
		if x.typ == base {
			c |= checkThrowsFirst
		}
	}
	for _, x := range modeBranches {
		if x.typ == base {
			c |= checkModes
		}
	}
	// undefinedOperation judges only a version whose entry lists
	// operations.
	es, _ := entriesOf(base)
	for i := range es {
		if len(es[i].ops) > 0 {
			c |= checkOperations
		}
	}
	return c
}

// RefusedCallBy is RefusedCall asking only the checks in c and the
// credential test: RefusedCall itself when c holds every check that may
// refuse the node (RefusalChecksOf its type).
func RefusedCallBy(n *Node, c RefusalChecks) (Refusal, bool) {
	// The checks of an HTTP Request (or its tool) are asked of no other
	// node: each would answer no at its own test of the type.
	typ := strings.TrimSuffix(n.Type, "Tool")
	http := c&checkHTTP != 0 && typ == TypeHTTPRequest
	if http {
		// The URL is checked before the body is parsed, and the body
		// before the request is sent (HttpRequestV3.node.js L158–169,
		// L279).
		url, urlOK := literalURL(n)
		if urlOK && url.NoCall {
			return url, true
		}
		if r, ok := brokenJSONBody(n); ok {
			return r, true
		}
		// An authentication the version does not offer sends no request
		// at all (unknownAuth), so a URL the server would refuse is
		// never met.
		if r, ok := unknownAuth(n); ok {
			return r, true
		}
		if urlOK {
			return url, true
		}
	}
	if c&checkSheets != 0 {
		if r, ok := sheetsNoMatchValue(n); ok {
			return r, true
		}
	}
	if http {
		if r, ok := literalKey(n); ok {
			return r, true
		}
		if r, ok := noKey(n); ok {
			return r, true
		}
		if AnthropicNoMaxTokens(n) {
			return Refusal{Why: "it posts to Anthropic's Messages API a body with no max_tokens, which the API requires: it answers 400 on every item and bills nothing", Fails: true}, true
		}
	}
	if c&checkAggregate != 0 {
		if r, ok := aggregateTwice(n); ok {
			return r, true
		}
	}
	d, known := n.describeAs(typ)
	if !known {
		return retiredIn(n, c)
	}
	// A programmatic node asks for its credential inside the branch of the
	// operation it runs (Twitter v1 asks in its "tweet" and
	// "directMessage" branches), so with a resource or operation it does
	// not define it asks for none; a declarative node asks first.
	if !d.Declarative() {
		if c&checkThrowsFirst != 0 {
			if r, ok := throwsAtStart(n, d, typ); ok {
				return r, true
			}
		}
		if c&checkOperations != 0 {
			if r, ok := undefinedOperation(n, d, typ); ok {
				return r, true
			}
		}
		if c&checkModes != 0 {
			if r, ok := undefinedMode(n, d, typ); ok {
				return r, true
			}
		}
	}
	var supabase Refusal
	supabaseOK := false
	if c&checkSupabase != 0 {
		supabase, supabaseOK = supabaseRefusal(n, typ)
		if supabaseOK && supabase.NoCall {
			return supabase, true // thrown before it asks for its credential
		}
	}
	// Most nodes hold a credential of a type they take: that is tested
	// first. Whether the node asks for none (its authentication
	// parameter) is read only for a credential of a type it does not take.
	if len(n.Credentials) > 0 && !slices.ContainsFunc(n.Credentials, d.takesCredential) && d.AsksCredential() && !fullAccess[n.Type] {
		if !asksNoCredential(n, d) {
			return Refusal{Why: "its credential " + quoteList(n.Credentials) + " is not of a type the node takes (" + quoteList(d.Credentials()) + ")", Fails: true, NoCall: true}, true
		}
	}
	if supabaseOK {
		return supabase, true
	}
	if c&checkLegacy != 0 {
		if why, ok := legacyCompletion(n); ok {
			return Refusal{Why: why, Fails: true}, true // sent, and refused
		}
	}
	if d.Declarative() && c&checkOperations != 0 { // a programmatic node's was judged above
		if r, ok := undefinedOperation(n, d, typ); ok {
			return r, true
		}
	}
	if c&checkOpenAiV1 != 0 && typ == openAiApp && d.Version < 2 && n.TypeVersion == d.Version && len(d.e.ops) > 0 {
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
				return Refusal{Why: why, Fails: true, NoCall: true}, true
			}
		}
	}
	return retiredIn(n, c)
}

// retiredIn is retiredCall when c holds it.
func retiredIn(n *Node, c RefusalChecks) (Refusal, bool) {
	if c&checkRetired == 0 {
		return Refusal{}, false
	}
	return retiredCall(n)
}

// retiredCall is RetiredModelCall as a refusal: sent, and refused.
func retiredCall(n *Node) (Refusal, bool) {
	if r, ok := RetiredModelCall(n); ok {
		return Refusal{Why: r.Why(), Fails: true}, true
	}
	return Refusal{}, false
}

// undefinedOperation reports a node whose literal resource or operation is
// not one its description defines at its exact version, in any
// configuration (scripts/gencatalog lists the operations every value of
// source, authentication and the like shows). What the node does then is
// its code's: see noBranches; the OpenAI app node's routers throw.
func undefinedOperation(n *Node, d NodeVersion, typ string) (Refusal, bool) {
	// The legacy OpenAI node is one class for every typeVersion
	// (n8n-nodes-base/dist/nodes/OpenAi/OpenAi.node.js, version [1, 1.1]),
	// so its operations hold at a version it does not list (1.8).
	if n.TypeVersion != d.Version && typ != openAiLegacy || len(d.e.ops) == 0 {
		return Refusal{}, false
	}
	res, rok := literalParam(n, "resource")
	op, ook := literalParam(n, "operation")
	if !rok || !ook {
		return Refusal{}, false
	}
	absent := res == ""
	if absent || d.resourceless() {
		res = d.DefaultResource() // a node with no resource parameter never reads one
	}
	if d.resourceOps(res) == nil {
		r := noBranchRefusal(n, typ, d, res, true)
		r.Why = "its resource " + quoteList([]string{res}) + " is not one the node defines" + r.Why
		return r, true
	}
	if op != "" {
		// The table's answer first: most operations are listed.
		if _, listed := d.operationOf(res, absent, op); !listed && !operationIgnored(typ, d.Version) {
			r := noBranchRefusal(n, typ, d, res, false)
			forRes := ""
			if res != "" {
				forRes = " for " + quoteList([]string{res})
			}
			r.Why = "its operation " + quoteList([]string{op}) + " is not one the node defines" + forRes + r.Why
			return r, true
		}
	}
	return Refusal{}, false
}

// noBranch is what a programmatic node's execute() does with a resource or
// an operation it has no branch for, read from its code.
type noBranch uint8

const (
	// branchUnread: not read, so the node may still send a request.
	branchUnread  noBranch = iota
	branchThrows           // it throws: every item fails, and no request is sent
	branchNoItems          // it returns no items and sends no request
	// branchNoOperation: at a resource the node does not define, n8n has
	// dropped its operation (every operation parameter is shown only for
	// its resources, and the Workflow constructor's
	// NodeHelpers.getNodeParameters keeps only what is shown), and the
	// code reads the operation with no fallback before any request:
	// getNodeParameter throws "Could not get parameter".
	branchNoOperation
	branchEmptyItems // it returns an empty item per item and sends no request
	branchErrorItems // it returns an item holding only its "not found" text per item and sends no request
	// branchBare: it sends its request with no method or path, to the
	// API's bare endpoint, which does none of its work; what it returns
	// then is the service's answer's (not judged to fail).
	branchBare
	// branchIgnored: the code never reads the parameter, so the node does
	// its work whatever the parameter holds: no refusal.
	branchIgnored
)

// noBranches are the nodes whose execute() was read for a resource or
// operation it has no branch for (n8n-nodes-base/dist/nodes/ in n8n 2.41.1;
// the throws were seen on it, docs/n8n-facts.md).
var noBranches = []struct {
	typ                 string
	from, to            float64 // typeVersions, both included
	resource, operation noBranch
	// readsFirst, "resource:param": at that resource the code reads param,
	// which n8n shows only for the operations the node defines, before
	// its operation's ifs, so an operation it lacks throws there.
	readsFirst string
	// unless, "param=value": the entry does not hold when param (as
	// stored, else the default of the node's credential parameter) holds
	// value, under which the code sends a request first.
	unless string
}{
	// Airtable/v1/AirtableV1.node.js execute: "The operation "…" is not
	// known!", before any request; it reads no resource.
	{"n8n-nodes-base.airtable", 1, 1, branchThrows, branchThrows, "", ""},
	// Google/Sheet/v2/actions/router.js (versions 3 to 4.7) reads resource,
	// then operation. An operation sheet lacks: n8n has dropped sheetName
	// (shown only for sheet's operations but create), which it reads before
	// the GET that finds the sheet; one spreadsheet lacks:
	// spreadsheet[operation].execute of undefined, a TypeError.
	{"n8n-nodes-base.googleSheets", 3, 4.7, branchNoOperation, branchThrows, "sheet:sheetName", ""},
	// Notion/v1/NotionV1.node.js and v2/NotionV2.node.js read resource and
	// operation, then one if per resource and operation, then return
	// [returnData], empty.
	{"n8n-nodes-base.notion", 1, 2.2, branchNoOperation, branchNoItems, "", ""},
	// Google/Gmail/v1/GmailV1.node.js, Twitter/V1/TwitterV1.node.js,
	// Google/Docs/GoogleDocs.node.js (versions 1 and 2, L171-176, L450)
	// read resource and operation, then per item one if per resource and
	// operation, then returnJsonArray(responseData) of undefined, one item
	// {json: undefined} (n8n-core return-json-array.js).
	{"n8n-nodes-base.gmail", 1, 1, branchNoOperation, branchEmptyItems, "", ""},
	{"n8n-nodes-base.twitter", 1, 1, branchNoOperation, branchEmptyItems, "", ""},
	{"n8n-nodes-base.googleDocs", 1, 2, branchNoOperation, branchEmptyItems, "", ""},
	// Slack/V1/SlackV1.node.js L202-211, L1059: the same, with responseData
	// first set to {error: "Resource ... / operation ... not found!"}, the
	// item it returns; at reaction it first reads channelId (L779).
	{"n8n-nodes-base.slack", 1, 1, branchNoOperation, branchErrorItems, "reaction:channelId", ""},
	// Google/Sheet/v1/GoogleSheetsV1.node.js (versions 1 and 2) execute
	// L65-68, L345, L396 reads operation first; one if for sheet (after
	// sheetId and range, shown for every operation of sheet but a few) and
	// one for spreadsheet, each with one if per operation, then return [],
	// no items.
	{"n8n-nodes-base.googleSheets", 1, 2, branchNoOperation, branchNoItems, "", ""},
	// SpreadsheetFile/v2/SpreadsheetFileV2.node.js execute L56-66: one if
	// for fromFile and one for toFile, then return [returnData], empty;
	// it has no resource.
	{"n8n-nodes-base.spreadsheetFile", 2, 2, branchNoItems, branchNoItems, "", ""},
	// NocoDB/v1/NocoDBV1.node.js (versions 1 to 3) execute reads resource,
	// then operation, before any request. Another operation at row: no if
	// matches, and it returns returnJsonArray([]), no items.
	{"n8n-nodes-base.nocoDb", 1, 3, branchNoOperation, branchNoItems, "", ""},
	// These read operation (Twilio per item) before any request
	// (Telegram/Telegram.node.js L1942, Github/Github.node.js L2339,
	// Twilio/Twilio.node.js L209, Google/Calendar/GoogleCalendar.node.js
	// L124, Trello/Trello.node.js L168,
	// Microsoft/Teams/v1/MicrosoftTeamsV1.node.js L240,
	// Shopify/Shopify.node.js L146, Pushbullet/Pushbullet.node.js L367).
	// An operation a resource they define lacks:
	//   - Telegram (L1966-2313) and GitHub (L2386-2930) match no if and
	//     send the request with its reset endpoint '': a POST to
	//     /bot<token>/, a GET to the API's root; GitHub then returns its
	//     input items unchanged (L2990-2995);
	//   - Twilio (L225-228, L248-251) and Trello (each resource's else,
	//     L227-687) throw "The operation ... is not known!";
	//   - Google Calendar, Microsoft Teams v1, Shopify and Pushbullet match
	//     no if and return returnJsonArray(responseData) of undefined, one
	//     empty item per item (Calendar L615, Teams L468, Shopify L377,
	//     Pushbullet L445); Calendar 1.3 then sorts each item's keys,
	//     Object.keys(undefined), a TypeError outside the item's try
	//     (L642-643, utils/utilities.js sortItemKeysByPriorityList).
	{"n8n-nodes-base.telegram", 1, 1.2, branchNoOperation, branchBare, "", ""},
	{"n8n-nodes-base.github", 1, 1.1, branchNoOperation, branchBare, "", ""},
	{"n8n-nodes-base.twilio", 1, 1, branchNoOperation, branchThrows, "", ""},
	{"n8n-nodes-base.googleCalendar", 1, 1.2, branchNoOperation, branchEmptyItems, "", ""},
	{"n8n-nodes-base.googleCalendar", 1.3, 1.3, branchNoOperation, branchThrows, "", ""},
	{"n8n-nodes-base.trello", 1, 1, branchNoOperation, branchThrows, "", ""},
	{"n8n-nodes-base.microsoftTeams", 1, 1.1, branchNoOperation, branchEmptyItems, "", ""},
	{"n8n-nodes-base.shopify", 1, 1, branchNoOperation, branchEmptyItems, "", ""},
	{"n8n-nodes-base.pushbullet", 1, 1, branchNoOperation, branchEmptyItems, "", ""},
	// Postgres/v1/PostgresV1.node.js execute L302-338 asks for its
	// credential, then reads operation (it has no resource) and throws
	// "The operation ... is not supported!" for one it lacks, before any
	// query (the pool connects lazily without an SSH tunnel).
	{"n8n-nodes-base.postgres", 1, 1, branchThrows, branchThrows, "", ""},
	// The routers of Airtable/v2 (versions 2 to 2.2), Discord/v2,
	// ItemLists/V3 (3 and 3.1) and Google/Drive/v2 (typeVersion 3)
	// (actions/router.js) read resource and operation, then call
	// resource[operation].execute: for an operation the resource lacks, a
	// TypeError on undefined before any request. Discord on OAuth2 first
	// GETs the user's guilds (router.js L20-24), so it is left unjudged.
	{"n8n-nodes-base.airtable", 2, 2.2, branchNoOperation, branchThrows, "", ""},
	{"n8n-nodes-base.discord", 2, 2, branchNoOperation, branchThrows, "", "authentication=oAuth2"},
	{"n8n-nodes-base.itemLists", 3, 3.1, branchNoOperation, branchThrows, "", ""},
	{"n8n-nodes-base.googleDrive", 3, 3, branchNoOperation, branchThrows, "", ""},
	// Google/Drive/v1/GoogleDriveV1.node.js (typeVersions 1 and 2)
	// L1968-1969 reads resource and operation, then per item one if per
	// resource and operation, none of which throws, and returns
	// [returnData], empty (L2423).
	{"n8n-nodes-base.googleDrive", 1, 2, branchNoOperation, branchNoItems, "", ""},
	// OpenWeatherMap/OpenWeatherMap.node.js execute L181-230 (no resource)
	// asks for its credential, reads operation, then per item its
	// location and throws "The operation ... is not known!" before the
	// request. Todoist/v1/TodoistV1.node.js L643-648 reads resource and
	// operation; at task, Service.js L7 calls handlers[operation] of
	// undefined, a TypeError before any request.
	{"n8n-nodes-base.openWeatherMap", 1, 1, branchThrows, branchThrows, "", ""},
	{"n8n-nodes-base.todoist", 1, 1, branchNoOperation, branchThrows, "", ""},
	// Slack/V2/SlackV2.node.js (versions 2 to 2.7) L308-309, L327-329,
	// L1185: Slack v1's code, reaction's channelId read at L804.
	{"n8n-nodes-base.slack", 2, 2.7, branchNoOperation, branchErrorItems, "reaction:channelId", ""},
	// These read resource and operation, then per item one if per
	// resource and operation, and return returnJsonArray(responseData) of
	// undefined, one empty item per item: Spotify/Spotify.node.js
	// L778-779, L1163 (artist's and track's id read with a fallback);
	// LinkedIn/LinkedIn.node.js L117-118, L236; Elastic/Elasticsearch/
	// Elasticsearch.node.js L61-62, L307-310 (options.bulkOperation read
	// with a fallback, and n8n drops options, so nothing is queued for
	// the bulk request at L338).
	{"n8n-nodes-base.spotify", 1, 1, branchNoOperation, branchEmptyItems, "", ""},
	{"n8n-nodes-base.linkedIn", 1, 1, branchNoOperation, branchEmptyItems, "", ""},
	{"n8n-nodes-base.elasticsearch", 1, 1, branchNoOperation, branchEmptyItems, "", ""},
	// Pushover/Pushover.node.js L283-284, L323-324 and
	// Google/Translate/GoogleTranslate.node.js (versions 1 and 2)
	// L173-174, L186-191 push an item only inside their operation's if,
	// and return what they pushed: no items.
	{"n8n-nodes-base.pushover", 1, 1, branchNoOperation, branchNoItems, "", ""},
	{"n8n-nodes-base.googleTranslate", 1, 2, branchNoOperation, branchNoItems, "", ""},
	// ExecuteWorkflow/ExecuteWorkflow/ExecuteWorkflow.node.js (versions 1
	// to 1.4): operation is a hidden parameter execute() (L352-) never
	// reads; the node calls its sub-workflow whatever it holds. It has no
	// resource parameter (n8n drops one).
	{"n8n-nodes-base.executeWorkflow", 1, 1.4, branchUnread, branchIgnored, "", ""},
}

// operationIgnored reports a node whose code never reads its operation
// (noBranches, branchIgnored): any value runs the node as configured.
func operationIgnored(typ string, v float64) bool {
	for _, x := range noBranches {
		if x.typ == typ && v >= x.from && v <= x.to && x.operation == branchIgnored {
			return true
		}
	}
	return false
}

// modeBranches are the programmatic nodes whose execute() has one if per
// value of an options parameter and then returns what those gathered, so
// a value the node does not offer runs no branch and returns no items
// (read in n8n-nodes-base's source). when, "param=value", is the value of
// another parameter under which param is read; an absent param takes its
// default, which is among values.
var modeBranches = []struct {
	typ      string
	from, to float64 // typeVersions, both included
	when     string
	param    string
	values   []string
}{
	// Merge/v2/MergeV2.node.ts execute: one if per mode and, under
	// "combine", one per combinationMode, then return [returnData], empty
	// ("mergeByIndex" and the other v1 modes have none).
	{"n8n-nodes-base.merge", 2, 2.1, "", "mode", []string{"append", "combine", "chooseBranch"}},
	{"n8n-nodes-base.merge", 2, 2.1, "mode=combine", "combinationMode", []string{"mergeByFields", "mergeByPosition", "multiplex"}},
}

// undefinedMode reports a node modeBranches lists whose literal mode is
// not one its code has a branch for. An expression is not judged.
func undefinedMode(n *Node, d NodeVersion, typ string) (Refusal, bool) {
	for _, x := range modeBranches {
		if x.typ != typ || d.Version < x.from || d.Version > x.to {
			continue
		}
		if p, want, ok := strings.Cut(x.when, "="); ok {
			if v, lit := literalParam(n, p); !lit || v != want {
				continue
			}
		}
		v, lit := literalParam(n, x.param)
		if !lit || v == "" || slices.Contains(x.values, v) {
			continue
		}
		return Refusal{Why: "its " + x.param + " " + strconv.Quote(v) + " is not one the node offers at v" +
			strconv.FormatFloat(n.TypeVersion, 'f', -1, 64) + ": its code has no branch for it and returns no items",
			NoCall: true, NoItems: true, NoBranch: true}, true
	}
	return Refusal{}, false
}

// throwsFirst are the programmatic nodes whose execute() throws before it
// reads an item, asks for a credential or sends a request, once per run
// and so for every item, read in n8n-nodes-base/dist/nodes/ of n8n
// 2.41.1: always, or when param (as stored, else its default in the
// table) holds one of values.
var throwsFirst = []struct {
	typ      string
	from, to float64 // typeVersions, both included
	param    string  // "" when it always throws
	values   []string
	why      string
}{
	// Airtable/v1/AirtableV1.node.js execute: its first statement reads
	// authentication at item 0 and throws on "airtableApi", the API key
	// Airtable retired, which is also the default of v1; Airtable v2
	// (v2/AirtableV2.node.js) no longer offers it.
	{"n8n-nodes-base.airtable", 1, 1, "authentication", []string{"airtableApi"},
		`which Airtable v1 refuses before any request: "The API Key connection was deprecated by Airtable, please use Access Token or OAuth2 instead."`},
	// Orbit/Orbit.node.js execute throws and does nothing else: the
	// service shut down (the node is hidden from the nodes panel).
	{"n8n-nodes-base.orbit", 1, 1, "", nil,
		`Orbit's service shut down and the node throws before any request: "Service is deprecated, From July 11th Orbit will no longer function."`},
}

// throwsAtStart reports a node throwsFirst lists whose configuration
// makes it throw. A parameter set by an expression is not judged.
func throwsAtStart(n *Node, d NodeVersion, typ string) (Refusal, bool) {
	for _, x := range throwsFirst {
		if x.typ != typ || d.Version < x.from || d.Version > x.to {
			continue
		}
		if x.param == "" {
			return Refusal{Why: x.why, Fails: true, NoCall: true}, true
		}
		v, ok := literalParam(n, x.param)
		how := ""
		if v == "" && x.param == d.CredentialParam() {
			v, how = d.DefaultAuthentication(), " (the default of v"+strconv.FormatFloat(d.Version, 'f', -1, 64)+", not stored on the node)"
		}
		if ok && slices.Contains(x.values, v) {
			return Refusal{Why: "its " + x.param + " is " + strconv.Quote(v) + how + ", " + x.why, Fails: true, NoCall: true}, true
		}
	}
	return Refusal{}, false
}

// noBranchRefusal is what a node does with a resource (or operation) it
// does not define, and the words that say so (after the reason).
//
// A declarative node finds no routing for it: routing-node.js
// getRequestOptionsFromParameters merges the routing of the option whose
// value matches (options.filter(o => o.value === value), about line 561)
// and of the properties shown for it, so none is merged, and runNode still
// sends one request per item built from requestDefaults alone: the node's
// base URL with no path or body (a GET, the helper's default). That request
// does none of the node's work and nothing is billed, so it counts as no
// call. What the node returns is that bare answer, or an error when the
// service refuses it (not read; the legacy OpenAI node sets
// ignoreHttpStatusErrors and passes any answer on, OpenAi.node.js
// requestDefaults), so it is not judged to fail.
func noBranchRefusal(n *Node, typ string, d NodeVersion, res string, resource bool) Refusal {
	if typ == openAiApp {
		return Refusal{Fails: true, NoCall: true}
	}
	if d.Declarative() {
		why := ": a declarative node finds no routing for it, so n8n sends only a bare request to the service's base URL, which does none of the node's work and bills nothing"
		if typ == openAiLegacy {
			// requestDefaults.ignoreHttpStatusErrors: OpenAI's refusal of
			// a GET to its base URL is the item passed on.
			why += ", and the node passes OpenAI's answer to it on as its item (it ignores HTTP error statuses), so the nodes after it run on no model answer: a field an expression reads from it is empty, while code that reads it (json.choices[0]) throws"
		}
		return Refusal{Why: why, NoCall: true, Bare: true}
	}
	v := d.Version
	b, param := branchUnread, ""
	for _, x := range noBranches {
		if x.typ == typ && v >= x.from && v <= x.to {
			b = x.operation
			if p, val, ok := strings.Cut(x.unless, "="); ok && !resource {
				got, lit := literalParam(n, p)
				if got == "" && p == d.CredentialParam() {
					got = d.DefaultAuthentication()
				}
				if !lit || got == val {
					b = branchUnread
				}
			}
			if resource {
				b = x.resource
			} else if at, p, _ := strings.Cut(x.readsFirst, ":"); at == res {
				param = p
			}
		}
	}
	throws := func(why string) Refusal {
		return Refusal{Why: why, Fails: true, NoCall: true, NoBranch: true}
	}
	switch {
	case param != "":
		return throws(": n8n drops its parameter " + strconv.Quote(param) + ", shown only for the operations the node defines, which the code reads first: it throws \"Could not get parameter\" before any request")
	case b == branchThrows:
		return throws(": its code has no branch for it and throws before any request")
	case b == branchNoOperation:
		return throws(": n8n drops its operation, shown only for the resources the node defines, which the code reads first: it throws \"Could not get parameter\" before any request")
	case b == branchNoItems:
		return Refusal{Why: ": its code has no branch for it, sends no request and returns no items", NoCall: true, NoItems: true, NoBranch: true}
	case b == branchEmptyItems:
		return Refusal{Why: ": its code has no branch for it, sends no request and returns an empty item", NoCall: true, NoBranch: true}
	case b == branchErrorItems:
		return Refusal{Why: ": its code has no branch for it, sends no request and returns an item holding only its \"not found\" text", NoCall: true, NoBranch: true}
	case b == branchBare:
		// It asks for its credential to send that request: not NoBranch.
		return Refusal{Why: ": its code has no branch for it and sends only a request with no method or path to the service's bare endpoint, which does none of the node's work and bills nothing", NoCall: true, Bare: true}
	}
	return Refusal{}
}

// asksNoCredential reports a node that asks for no credential, whatever
// the block holds: no credential is required always, and the parameter
// its credentials hang on (CredentialParam), as set or by default, shows
// none: authentication "none", the Crypto node's "hash" action, a Wait
// node that resumes after an interval (its incomingAuthentication is not
// shown, so it has no default).
func asksNoCredential(n *Node, d NodeVersion) bool {
	if d.e == nil || !strings.Contains(d.e.creds, ":") || d.requiresPlain() {
		return false // no credential hangs on a parameter (AuthCredentials is nil)
	}
	v, ok := literalParam(n, d.CredentialParam())
	if !ok {
		return false
	}
	if v == "" {
		v = d.DefaultAuthentication()
	}
	// AuthCredentials' values, read without building its map.
	for c := range strings.FieldsSeq(d.e.creds) {
		_, vals, ok := strings.Cut(c, ":")
		if !ok {
			continue
		}
		for val := range strings.SplitSeq(vals, ",") {
			if val == v {
				return false
			}
		}
	}
	return true
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
	for _, m := range msgs.ElemsSeq() {
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

// supabaseRefusal reports a Supabase row node that fails on every item
// (Supabase/Supabase.node.js execute, v1, its only version):
//   - get, and delete or update with the filter built manually (the
//     default), with no filter condition: the node throws "At least one
//     select condition must be defined" for the first item, before any
//     request;
//   - create or update with the columns defined below (the default) and a
//     field whose column name is empty: the node sends that value under
//     the column "" (record[`${field.fieldId}`]), which no table has
//     (Postgres has no empty identifier), and the Supabase API refuses
//     the request (supabase.com/docs/guides/api/rest/postgrest-error-codes:
//     a column the table lacks is an error).
//
// A parameter set by an expression is not judged.
func supabaseRefusal(n *Node, typ string) (Refusal, bool) {
	if typ != "n8n-nodes-base.supabase" {
		return Refusal{}, false
	}
	op, ok := literalParam(n, "operation")
	if !ok {
		return Refusal{}, false
	}
	if op == "" {
		op = "create"
	}
	filterType, ok := literalParam(n, "filterType")
	if filterType == "" {
		filterType = "manual"
	}
	if op == "get" || ok && filterType == "manual" && (op == "delete" || op == "update") {
		if none, known := noItems(n, "filters", "conditions"); known && none {
			return Refusal{Why: `its filter has no condition: the Supabase node throws "At least one select condition must be defined" before any request`, Fails: true, NoCall: true}, true
		}
	}
	if dataToSend, ok := literalParam(n, "dataToSend"); ok && (dataToSend == "" || dataToSend == "defineBelow") && (op == "create" || op == "update") {
		fields, _ := n.Param("fieldsUi.fieldValues")
		for i := range fields.len() {
			if f := fields.at(i); f.Kind() == Object {
				if id := f.Get("fieldId"); !id.Exists() || id.Kind() == String && id.Str() == "" {
					return Refusal{Why: `a field it sends has no column name, so it sends a column named "", which no table has, and the Supabase API refuses the request`, Fails: true}, true
				}
			}
		}
	}
	return Refusal{}, false
}

// noItems reports whether a fixed collection's list (param.list) holds no
// entry: absent, null or empty; known is false when an expression stands
// for it.
func noItems(n *Node, param, list string) (none, known bool) {
	p, ok := n.Param(param)
	switch {
	case !ok || p.Kind() == Null:
		return true, true
	case p.Kind() != Object:
		return false, false
	}
	l := p.Get(list)
	switch l.Kind() {
	case Missing, Null:
		return true, true
	case Array:
		return l.len() == 0, true
	}
	return false, false
}

// aggregateTwice judges an Aggregate node in mode "Individual Fields"
// (aggregate "aggregateIndividualFields", the default) two of whose
// fields to aggregate have the same output name: the field's name, or its
// outputFieldName when renameField is set (both default to "" and false).
// Before it reads any item, Transform/Aggregate/Aggregate.node.js
// execute (L243–271) throws "The '…' output field is used more than
// once" on every run. An entry set by an expression is not judged.
func aggregateTwice(n *Node) (Refusal, bool) {
	if n.Type != "n8n-nodes-base.aggregate" || n.Disabled {
		return Refusal{}, false
	}
	if mode, ok := literalParam(n, "aggregate"); !ok || mode != "" && mode != "aggregateIndividualFields" {
		return Refusal{}, false
	}
	list, ok := n.Param("fieldsToAggregate.fieldToAggregate")
	if !ok || list.Kind() != Array {
		return Refusal{}, false
	}
	seen := map[string]bool{}
	for _, f := range list.ElemsSeq() {
		if f.Kind() != Object {
			return Refusal{}, false
		}
		rename := false
		if r := f.Get("renameField"); r.Kind() == Bool {
			rename = r.True()
		} else if r.Kind() != Missing {
			return Refusal{}, false
		}
		key := "fieldToAggregate"
		if rename {
			key = "outputFieldName"
		}
		name := ""
		if v := f.Get(key); v.Kind() == String {
			if v.IsExpr() || strings.Contains(v.Str(), "{{") {
				return Refusal{}, false
			}
			name = v.Str()
		} else if v.Kind() != Missing {
			return Refusal{}, false
		}
		if seen[name] {
			what := "it names the output field " + strconv.Quote(name) + " twice"
			if name == "" {
				what = "two of its fields to aggregate name no field"
			}
			return Refusal{Why: what + ": n8n stops at \"The '" + name + "' output field is used more than once\"", Fails: true, NoCall: true}, true
		}
		seen[name] = true
	}
	return Refusal{}, false
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

// unknownAuth reports an HTTP Request v2 or later whose authentication is
// a literal the node does not offer (v1's "oAuth2" or "headerAuth" kept
// by an export, or a made-up "apiKey"): n8n keeps the stored value, and
// HttpRequestV3 builds a request only under pagination or for none,
// genericCredentialType and predefinedCredentialType (nodes-base
// HttpRequest/V3/HttpRequestV3.node.js L455-563), as HttpRequestV2 does
// for those three (HttpRequest/V2/HttpRequestV2.node.js L974-1000; it has
// no pagination), so it sends nothing and, reading the answer it never
// got, throws "Cannot read properties of undefined (reading 'status')" on
// the first item (V3 L605-614, V2 L1005-1006). v1 sends the request for
// any authentication (HttpRequestV1.node.js).
func unknownAuth(n *Node) (Refusal, bool) {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest || n.TypeVersion < 2 {
		return Refusal{}, false
	}
	a, ok := n.Param("authentication")
	if !ok || a.Kind() != String || a.IsExpr() {
		return Refusal{}, false
	}
	switch a.Str() {
	case "none", "genericCredentialType", "predefinedCredentialType":
		return Refusal{}, false
	}
	if p, ok := n.Param("options.pagination.pagination"); ok && (p.Kind() != Object || p.Get("paginationMode").Str() != "off") {
		return Refusal{}, false // a paginated request is sent whatever the authentication
	}
	return Refusal{Why: "its authentication " + strconv.Quote(a.Str()) + " is not one HTTP Request v2 and later offers (none, predefinedCredentialType, genericCredentialType): n8n builds no request and throws \"Cannot read properties of undefined (reading 'status')\"", Fails: true, NoCall: true}, true
}

// UnknownAuth reports an HTTP Request whose authentication is a value its
// version does not offer, so it sends no request (unknownAuth).
func UnknownAuth(n *Node) bool {
	_, ok := unknownAuth(n)
	return ok
}

// SwallowsMissingCredential reports an HTTP Request whose code reads its
// credential inside try { } catch { }: v1 for every authentication
// (nodes-base HttpRequest/V1/HttpRequestV1.node.js L580-599), v2 for a
// generic credential type (V2/HttpRequestV2.node.js L599-648). A missing
// credential is then no error: the request goes out without
// authentication, and the service decides what that earns.
func SwallowsMissingCredential(n *Node) bool {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest {
		return false
	}
	switch {
	case n.TypeVersion < 2:
		return true
	case n.TypeVersion < 3:
		return paramStr(n, "authentication") == "genericCredentialType"
	}
	return false
}

// sheetsNoMatchValue reports a Google Sheets v4+ Update Row or Append or
// Update Row that maps each column below and sets no value for the column
// it matches rows on (an absent value or a literal ""): n8n reads the
// sheet's header row, then throws "The 'Column to Match On' parameter is
// required" on every item before it writes (nodes-base
// Google/Sheet/v2/actions/sheet/update.operation.js L322-330,
// appendOrUpdate.operation.js L335-341). A value an expression gives is
// not judged.
func sheetsNoMatchValue(n *Node) (Refusal, bool) {
	if strings.TrimSuffix(n.Type, "Tool") != "n8n-nodes-base.googleSheets" || n.TypeVersion < 4 {
		return Refusal{}, false
	}
	if op := paramStr(n, "operation"); op != "update" && op != "appendOrUpdate" {
		return Refusal{}, false
	}
	cols, ok := n.Param("columns")
	if !ok || cols.Kind() != Object || cols.Get("mappingMode").Str() != "defineBelow" {
		return Refusal{}, false
	}
	match := cols.Get("matchingColumns").Elems()
	if len(match) == 0 || match[0].Kind() != String || match[0].Str() == "" {
		return Refusal{}, false // n8n throws for that too, with its own message
	}
	key := match[0].Str()
	values := cols.Get("value")
	if values.Kind() != Object {
		return Refusal{}, false
	}
	set := false
	values.Each(func(k string, v Value) bool {
		if k == key {
			set = v.Kind() != String || v.Str() != ""
			return false
		}
		return true
	})
	if set {
		return Refusal{}, false
	}
	return Refusal{Why: "it matches rows on column " + strconv.Quote(key) + " but maps no value to it: n8n reads the sheet's header row, then throws \"The 'Column to Match On' parameter is required\" on every item before it writes", Fails: true}, true
}
