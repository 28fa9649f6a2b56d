package rules

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs306 = &analyze.Rule{
	ID:    "RS306",
	Name:  "public-paid-trigger",
	Title: "anyone with the link can run paid model calls",
	Doc: `A Chat Trigger made public (public: true) with authentication "none", and a Form Trigger with no
authentication, serve a page that anyone with the link can open (packages/@n8n/nodes-langchain/nodes/trigger/ChatTrigger/ChatTrigger.node.ts,
nodes-base/nodes/Form/v2/FormTriggerV2.node.ts); a Webhook with authentication "none" (the default,
nodes-base/nodes/Webhook/description.ts) runs for anyone who learns its URL. When such a trigger runs paid model
calls, every message or request from a stranger is billed to the owner's key, and n8n puts no limit on how many
come: a script that posts in a loop spends until the provider's own limit stops it, and that limit stops every other
workflow on the key. The rule reports the trigger when a paid call runs behind it (not a tool of an agent that fails
before it calls its tools, such as one whose only model the provider has shut down), no spend cap is declared for
its provider in .stormcheck.yaml (spend.caps; RS303 then says how fast it is reached), and nothing on the way
looks like a rate limit (a node or condition that names a rate limit, a quota, a counter of requests). A public
chat is a warning: it is made to be shared or embedded in a site. An export that does not show the workflow active (or
published) keeps that severity and says so: a public trigger is made to be published, and strangers reach it then. A form or a webhook is a note: a form is often a
team's own tool, and a webhook's URL (its path is a random id unless set) is a secret as long as nobody shares it; a
webhook that the workflow reads as called by a known service (a Stripe, Shopify, Slack, GitHub or Meta event) is left out.
A messaging bot answers whoever writes to it: a Telegram Trigger (its bot's username is searchable and bots are
listed) with neither "Restrict to Chat IDs" nor "Restrict to User IDs" set, or set on a trigger older than version
1.2, which shows the options but does not apply them (nodes-base/nodes/Telegram/TelegramTrigger.node.js webhook():
additionalFields.chatIds and userIds, read only when nodeVersion >= 1.2), and a WhatsApp Trigger that listens to
messages (a business number takes a message from any number; the trigger has no such option). Its paid calls are
a note (analyze.Exposure "bot"): a bot must first be found, and its messages come one person's at a time, but each
stranger's message bills the owner; where answering the public is the bot's purpose it is the product, still a note.
A call the run reaches only past a test of the sender is left out (analyze/bot_sender.go): an If, Filter or Switch
that compares the sender's id (message.chat.id, message.from.id, from.username; WhatsApp's messages[0].from,
contacts[0].wa_id) with a literal, a fixed list or the instance's variables, when the call hangs on the outcome only
the owner's message takes (an If's true output for equals, contains or a regex match, its false output for notEquals,
notContains or notRegex; a Filter's kept items; a Switch's output for a rule that holds only for the owner, not its
fallback: nodes-base/nodes/If/V2/IfV2.node.js, Filter/V2/FilterV2.node.js, Switch/V3/SwitchV3.node.js execute), and
the test is not joined by "or" to one that anyone passes; a call on the other outcome runs for every stranger. A Code
node that compares the sender with a fixed id, or a read of the
owner's table (Google Sheets, Airtable, Supabase, Postgres, ...) filtered by the sender that outputs no item when no
row matches (not with Always Output Data or continue on fail), which ends the run there
(packages/core/src/execution-engine/workflow-execute.ts). A table the workflow also writes to is the bot's own log of
who wrote (the row the run appended is found): no test. So is a branch right after a lookup of the sender through the
owner's own service (an HTTP Request that reads, GET or no method, from a literal host that is no known public API,
with the sender's id in its URL, query or body; api.telegram.org's getChatMember answers for anyone) or in the
owner's table with Always Output Data, that tests a field of the answer ($json.active is true, $json.status equals
"active", $json.row_number exists): the call counts as gated when it hangs on the outcome only a member's answer
takes, and only where that outcome needs the field present with a member's value, so that an answer lacking the
field fails it (an error item, an empty item for no row, or a 200 with {} that many services send for an id they do
not know): "equals false" and "is not equal to 0" do not count (a missing field is not false:
n8n-workflow dist/cjs/node-parameters/filter-parameter.js), nor, after the owner's service, a presence test ("exists",
"is not empty": exists is left !== undefined && left !== null, and a service answers a stranger's id with the same
field, {active: false}); after a table read with Always Output Data, "$json.row_number exists" counts (the item for
no row is empty). If 1, Filter 1 and Switch 1 or 2 store no operation at its type's default, read as n8n runs it:
smaller for a number, after for a date, equal for a string or boolean (nodes-base/nodes/If/V1/IfV1.node.js).
So is a paid call that a stranger's run never gets to: one behind an HTTP Request that first fetches, with the
owner's credential, an object by an id taken from the request that only the real sender knows (an Airtable
webhook's payloads, a Stripe event retrieved by its id) and does not continue on error or "never error". A
stranger's id names nothing in the owner's account, the service answers 404, and the node's error ends the run
(analyze/stranger.go, docs/n8n-facts.md). An id that pages or links show (an Airtable base, a Stripe checkout
session) or that one can try in turn (a number) stops nobody. So is one behind an HTTP Request that sends the
caller's own token (read from the request's headers, body or query) to the owner's identity provider to ask who
it is, and does not continue on error or "never error": Supabase Auth's /auth/v1/user, an OpenID Connect userinfo
endpoint (an Auth0 tenant, an Okta org, a Keycloak realm), Firebase Auth's accounts:lookup. Those answer a
stranger's token with a 401 or 400, and HTTP Request V3 throws on it (nodes-base HttpRequest/V3/HttpRequestV3.node.js,
requestOptions.simple), which ends the run. The endpoints are named by their path, since only the path says that
a call asks who a token's bearer is; Google's userinfo and tokeninfo are left out, for any Google account's token
passes them, and token introspection, which answers 200 {active: false} and throws nothing. A test that a Set
node's literal decides on the trigger's own path is read as decided (analyze.RunReach): a webhook whose items
are marked triggeredBy "webhook" and routed by that mark away from the paid calls does not reach them.
Calls on n8n Cloud's Gateway credits (a credential reference n8n marks __aiGatewayManaged) are billed to the
instance's prepaid balance, which the owner tops up, and are reported alike. Calls that run only on n8n's free
OpenAI API credits (the managed credential n8n names "n8n free OpenAI API credits") cost the owner nothing: the
trigger is then a note whatever its kind, for a stranger can only use the allowance up, after which n8n refuses
every call on it and the workflow stops (docs/n8n-facts.md). A call to a service that bills the owner's account per
use is paid too, whatever the models run on: an Apify Actor run (its community node's "Run …" operations, or
api.apify.com's runs and run-sync endpoints, not a run that exists, whose abort or metamorph starts nothing), billed
per result or compute unit, a Firecrawl scrape, crawl or search, billed in credits per page, and the speech and voice
APIs a bot calls beside its models: an ElevenLabs voice (text to speech, billed in credits per character; speech to
text, per minute of audio; by a POST to api.elevenlabs.io or its own node's speech resource), OpenAI's audio API
(transcriptions and speech by a POST to api.openai.com/v1/audio/..., per minute of audio or per character), Google
Cloud Speech-to-Text (per second of audio) and Text-to-Speech (per character) (n8nschema.BilledService; the community
packages, @apify/n8n-nodes-apify, @mendable/n8n-nodes-firecrawl and @elevenlabs/n8n-nodes-elevenlabs, are not
installed with n8n, and their operation names were read from their repositories, not from an installed copy). Such a
call is billed only when it is made (live, with a URL and a target the owner filled in, analyze.BilledService) and
names the account: an HTTP Request with a credential, or the service's key in a query parameter or header (Apify's
token, an Authorization header, ElevenLabs' xi-api-key, Google's key) that is not a template's placeholder
(YOUR_APIFY_TOKEN); with none, the service answers 401 and bills nothing. A Gemini call to Vertex AI by an HTTP
Request (aiplatform.googleapis.com ...:generateContent) is a model call, as the Gemini API's is, and the OpenAI
node's transcription is whisper-1, the model n8n sends for it (vendors/OpenAi/v2/actions/audio/transcribe.operation.js).
A node that lacks a credential it requires, in an export that keeps the other nodes' credentials, is not counted:
n8n stops at "Node does not have any credentials set" before any request, as RS010 says of it
(analyze.Graph.LacksCredential).
When every paid call is reached only past a call that sends a template's blank (a key "YOUR API KEY", a header
"Authorization: <api key>", a credential id "REPLACE_WITH_CREDENTIAL_ID"), or names one itself, that call fails
on every item as written, and an HTTP Request that fails stops the run unless it continues on failure
(packages/core/src/execution-engine/workflow-execute.ts; with continueErrorOutput it returns an error item in each
item's place, which n8n moves to the error output, handleNodeErrorOutput, so only that output's branch runs on):
no stranger's run reaches the paid call until the owner
fills the blank in. The finding is then a note that says so ("this holds once … carries a real key"), as RS302 and
RS010 word the same blank on the same workflow; a paid call that some run reaches past no blank keeps the severity.
The finding names one paid call and counts the others: among those past no blank (all, when every one is past one),
first the calls every run makes (an agent's or chain's own model, a main node that no If, Switch, Filter or classifier
that reads the items stands before), then those past such a router (a voice message's transcription), then those
that run only when an agent calls a tool (a vector-store tool's model and embeddings: an ai_tool connection on every
way up to the agent); within the first of these groups that holds one,
the one whose run bills most at worst, by RS302's figure (calls × attempts × max output tokens × the model's output
price, per execution of --items items; a call whose attempts have no bound, RS301, first), so a chat's agent model
comes before the embeddings its retriever asks first. An embeddings call (billed per input token only) yields to a
priced call; any other call whose price or output bound stormcheck does not know (an image or video generation,
billed per image or second; a search priced per request) may cost more than any priced one, so when it comes first
in the workflow it stays named. Calls of the same figure keep the workflow's order.`,
	Fix:        "Put authentication on the trigger (basic auth, header auth, n8n user auth), or a rate limit before the paid call, and declare the provider's hard spend limit in .stormcheck.yaml",
	FixDoc:     "None: authentication needs a credential the callers must be given, and a rate limit a number only the owner can choose.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"spend", "security"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		g := pass.Set.Graph(w)
		ops := liveOps(pass)
		byNode := indexOps(ops)
		var limits, checks []*n8nschema.Node // found on first need, once
		var limitsFound, checksFound bool
		unpaid := map[*n8nschema.Node]bool{} // by analyze.SameRuns
		for _, t := range g.Triggers() {
			exp := analyze.Exposure(t)
			if exp == "" {
				continue
			}
			// A webhook whose runs are an earlier one's (analyze.SameRuns),
			// which reached no paid call, reaches none either.
			r := analyze.SameRuns(g, t)
			own := byNode.has(t) // a call at the trigger itself
			if unpaid[r] && !own {
				continue
			}
			// What its runs reach before they must fail (RunReach): not
			// the tools of an agent that fails before it calls them.
			reach := analyze.RunReach(g, t)
			var paid, billed []*analyze.Operation // models; services billed per use
			for _, op := range opsIn(ops, byNode, reach) {
				if _, ok := analyze.BilledService(op); ok {
					if !lacksCredential(pass, w, op) {
						billed = append(billed, op)
					}
					continue
				}
				// A node with no credential of a type it requires, in an
				// export that keeps the others', fails at its first
				// getCredentials call, before any request (as RS010 says
				// it: analyze.Graph.LacksCredential): it bills nothing.
				if !op.Paid || lacksCredential(pass, w, op) {
					continue
				}
				if _, capped := analyze.SpendCapFor(pass.Options, providers(op)...); capped && op.OwnerPays() {
					continue
				}
				paid = append(paid, op)
			}
			if len(paid) == 0 && len(billed) == 0 {
				unpaid[r] = unpaid[r] || !own
				continue
			}
			if exp == "url" { // only a webhook's run can test its caller's header
				if !checksFound {
					checks, checksFound = analyze.CallerChecks(g), true
				}
				if anyIn(checks, reach) || analyze.CalledInSet(pass.Set, w, t) {
					continue // its callers checked, or a workflow's own call
				}
				// Asked after the paid calls and the cheaper tests:
				// SenderOf reads every value the webhook's runs read.
				if key, _ := analyze.SenderOf(g, t); key != "" {
					continue // a service's events, signed by it
				}
			}
			// A stranger's run stops at a fetch by an id only the real
			// sender knows (StrangerReach): what lies behind it is not theirs.
			if stranger, gates := analyze.StrangerReach(g, t, reach); len(gates) > 0 {
				paid = slices.DeleteFunc(paid, func(op *analyze.Operation) bool { return !stranger.Has(op.Node) })
				billed = slices.DeleteFunc(billed, func(op *analyze.Operation) bool { return !stranger.Has(op.Node) })
				if len(paid) == 0 && len(billed) == 0 {
					continue
				}
				reach = stranger
			}
			if !limitsFound {
				limits, limitsFound = rateLimits(g), true
			}
			if anyIn(limits, reach) {
				continue
			}
			// The calls the owner pays for come first; when there are none,
			// the calls run on n8n's free credits: no bill, a quota.
			// A service billed per use (an Apify run) is the owner's money
			// too, whatever the models run on.
			owned := slices.DeleteFunc(slices.Clone(paid), func(op *analyze.Operation) bool { return !op.OwnerPays() })
			free := len(owned) == 0 && len(billed) == 0
			if !free {
				paid = owned
			}
			// A paid call that every run reaches only past a template's
			// blank (a key "YOUR API KEY", a header "<api key>": the
			// call fails as written) bills nothing until the owner fills
			// it in, as RS302 and RS010 say of the same call
			// (analyze.Graph.BehindBlank). The calls past no blank come
			// first, and the finding holds once the blank is filled only
			// when every call is past one.
			blankOf := func(op *analyze.Operation) (analyze.Blank, bool) {
				ow := op.Workflow
				if ow == nil {
					ow = w
				}
				return pass.Set.Graph(ow).BehindBlank(op.Node)
			}
			behind := func(op *analyze.Operation) bool { _, ok := blankOf(op); return ok }
			clear := func(a, b *analyze.Operation) int {
				x, y := behind(a), behind(b)
				switch {
				case x == y:
					return 0
				case y:
					return -1
				}
				return 1
			}
			// Among the calls past no blank (or, when none is, among
			// all), the finding names first a call every run makes (an
			// agent's or chain's own model), before one that runs only
			// when an agent calls a tool (a vector-store tool's model),
			// and among those the one whose run bills most at worst
			// (costliest): a chat's agent model, not the embeddings its
			// retriever asks first.
			// A call past an If, Switch or classifier (a voice message's
			// transcription) comes after those every run makes, and before
			// a tool's.
			sure := map[*analyze.Operation]int{}
			var unrouted map[*n8nschema.Node]bool
			for _, op := range paid {
				roots := directRoots(g, op.Node)
				switch {
				case len(roots) == 0:
					sure[op] = 2 // only through a tool
				default:
					if unrouted == nil {
						unrouted = unroutedFrom(g, t, reach)
					}
					if !slices.ContainsFunc(roots, func(n *n8nschema.Node) bool { return unrouted[n] }) {
						sure[op] = 1
					}
				}
			}
			group := func(op *analyze.Operation) int {
				k := sure[op]
				if behind(op) {
					k += 3
				}
				return k
			}
			slices.SortStableFunc(paid, func(a, b *analyze.Operation) int { return cmp.Compare(group(a), group(b)) })
			costliest(pass.Options, paid, group)
			slices.SortStableFunc(billed, clear)
			bill := ""
			var op *analyze.Operation
			var what string
			if len(paid) > 0 {
				op = paid[0]
				what = fmt.Sprintf("%q (%s)", op.Node.Name, modelText(op))
			} else {
				op = billed[0]
				svc, _ := analyze.BilledService(op)
				what = fmt.Sprintf("%q (%s, billed per use)", op.Node.Name, svc)
				bill = "billed to the owner's " + svc + " account"
			}
			if more := len(paid) + len(billed) - 1; more > 0 {
				what += fmt.Sprintf(" and %s", counted(more, "more paid call", "more paid calls"))
			}
			kind, sev := "webhook %q has no authentication", analyze.Note
			switch t.Type {
			case n8nschema.TypeChatTrigger:
				kind, sev = "chat %q is public with no authentication", analyze.Warning
			case n8nschema.TypeFormTrigger:
				kind = "form %q has no authentication"
			}
			who := "anyone with the link"
			switch exp {
			case "url":
				who = "anyone who learns its URL"
			case "bot":
				// A bot must first be found, and it answers one person's
				// messages at a time; but every stranger's message bills
				// the owner. A note, even where answering the public is
				// the workflow's purpose (then it is the product).
				kind, who, sev = botKind(t), "anyone who finds the bot and writes to it", analyze.Note
			}
			msg := fmt.Sprintf(kind+" and runs the paid call %s: %s can run it as often as they like, %s, with no rate limit on the way and no spend cap declared",
				t.Name, what, who, billedTo(paid))
			if exp == "bot" {
				msg = fmt.Sprintf(kind+" and runs the paid call %s: %s can run it with each message, %s, with no rate limit on the way and no spend cap declared; %s",
					t.Name, what, who, billedTo(paid), botFix(t))
			}
			if bill != "" { // no model the owner pays: no spend cap applies
				msg = fmt.Sprintf(kind+" and runs the paid call %s: %s can run it as often as they like, %s, with no rate limit on the way",
					t.Name, what, who, bill)
			}
			if free {
				// Not the owner's money: a stranger can only use up the
				// allowance, and then every call fails.
				sev = analyze.Note
				what = strings.Replace(what, "paid call", "call", 1)
				msg = fmt.Sprintf(kind+" and runs the model call %s on n8n's free OpenAI API credits: %s can run it as often as they like and use the credits up, with no rate limit on the way; it costs the owner nothing, but then n8n refuses every call on that credential and the workflow stops working",
					t.Name, what, who)
			}
			if analyze.RunStateOf(w) != analyze.RunShown {
				// As RS402 says it: a stranger's runs come once it is
				// published. The severity stays: a public trigger is made
				// to be published.
				msg += " (the export does not show the workflow active: strangers can run it once it is published)"
			}
			if !slices.ContainsFunc(paid, func(o *analyze.Operation) bool { return !behind(o) }) &&
				!slices.ContainsFunc(billed, func(o *analyze.Operation) bool { return !behind(o) }) {
				_, _, _, _, refused := g.RefusedRun(t)
				if _, gated := g.BehindBlank(t); !gated && !refused { // else Pass.Report says it of the trigger
					b, _ := blankOf(op)
					rest := fmt.Sprintf(" and no run reaches %q", op.Node.Name)
					if b.Self {
						rest = ""
					}
					msg += b.Clause("that node", rest)
					sev = analyze.Note
				}
			}
			pass.Report(analyze.Diagnostic{Node: t, Pos: t.Pos, Severity: sev, Detail: exp, Message: msg, Chain: op.Factors})
		}
	},
}

// lacksCredential reports a paid or billed call whose node lacks a
// credential it requires (analyze.Graph.LacksCredential).
func lacksCredential(pass *analyze.Pass, w *n8nschema.Workflow, op *analyze.Operation) bool {
	if op.Node == nil {
		return false
	}
	ow := op.Workflow
	if ow == nil {
		ow = w
	}
	_, lacks := pass.Set.Graph(ow).LacksCredential(op.Node)
	return lacks
}

// worstPerRun is what one run of a paid call bills at worst, by the
// figures RS301 and RS302 give it (analyze.FillSpend): its calls ×
// attempts × max output tokens × the model's output price, per execution
// of --items items (Operation.SpendPerExecution); infinite for a call
// whose attempts or calls have no bound (SpendUnbounded, RS301) at a known
// price and output bound. ok is false when the price or the output bound
// is unknown (an embeddings model, priced per input token only, bills no
// output).
func worstPerRun(opts *analyze.Options, op *analyze.Operation) (float64, bool) {
	if usd, ok := op.SpendPerExecution(opts); ok {
		return usd, true
	}
	if op.SpendUnbounded && op.PriceKnown && op.MaxOutputTokens > 0 {
		return math.Inf(1), true
	}
	return 0, false
}

// costliest moves to the front of paid (ordered by group, then the
// workflow's order) the call whose run bills most at worst (worstPerRun),
// among those in the first call's group (past no blank or behind one,
// made on every run or only through a tool). A call whose cost is unknown and is not an embeddings call (an
// image, a video, speech, a search priced per request) may cost more than
// any priced one: when it comes first, it stays named. Embeddings bill
// input tokens only, a small figure beside a model's output.
func costliest(opts *analyze.Options, paid []*analyze.Operation, group func(*analyze.Operation) int) {
	if len(paid) < 2 {
		return
	}
	if _, ok := worstPerRun(opts, paid[0]); !ok && !embeddings(paid[0]) {
		return
	}
	best, most := -1, 0.0
	for i, op := range paid {
		if group(op) != group(paid[0]) {
			break
		}
		if usd, ok := worstPerRun(opts, op); ok && (best < 0 || usd > most) {
			best, most = i, usd
		}
	}
	if best > 0 {
		op := paid[best]
		copy(paid[1:best+1], paid[:best])
		paid[0] = op
	}
}

// directRoots are the main nodes a call runs under with no ai_tool
// connection on the way: the node itself for a main node, the agent or
// chain a model is wired to (through a vector store or output parser
// between). A sub-node whose every way up passes a tool (a vector-store
// tool's model or embeddings) has none: it runs only when an agent
// decides to call that tool. At most maxToolWay sub-nodes are read.
func directRoots(g *analyze.Graph, n *n8nschema.Node) []*n8nschema.Node {
	if n == nil || !g.IsSubNode(n) {
		return []*n8nschema.Node{n}
	}
	var roots []*n8nschema.Node
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	for h := 0; h < len(queue) && h < maxToolWay; h++ {
		for _, e := range g.Out(queue[h]) {
			if e.Type == analyze.ConnMain || e.Type == analyze.ConnTool || seen[e.To] {
				continue
			}
			seen[e.To] = true
			if g.IsSubNode(e.To) {
				queue = append(queue, e.To)
			} else {
				roots = append(roots, e.To)
			}
		}
	}
	return roots
}

// maxToolWay bounds the sub-nodes directRoots reads above one.
const maxToolWay = 32

// unroutedFrom are the nodes of reach that every run of trigger t gets to
// on main connections before any node that routes items by their content
// (an If, Switch or Filter that reads the items, a classifier: the routing
// node itself included, not what follows it). A node that one such way
// reaches counts, whatever else reaches it (a Merge whose other input
// comes from a branch); one that only ways through a router reach does
// not, even when every branch leads to it: which items reach it is the
// data's.
func unroutedFrom(g *analyze.Graph, t *n8nschema.Node, reach analyze.Reach) map[*n8nschema.Node]bool {
	out := map[*n8nschema.Node]bool{t: true}
	queue := []*n8nschema.Node{t}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		if u != t && analyze.RoutesByContent(u) {
			continue
		}
		for _, e := range g.OutOfType(u, analyze.ConnMain) {
			if reach.Has(e.To) && !out[e.To] && !e.To.Disabled {
				out[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return out
}

// embeddings reports an embeddings sub-node's call.
func embeddings(op *analyze.Operation) bool {
	return op.Node != nil && strings.HasPrefix(op.Node.Type, "@n8n/n8n-nodes-langchain.embeddings")
}

// billedTo says who pays for paid calls the owner pays for: their key,
// or the instance's Gateway credits when every call runs on them.
func billedTo(paid []*analyze.Operation) string {
	for _, op := range paid {
		if op.Billing != n8nschema.BilledToGatewayCredits {
			return "billed to the owner's key"
		}
	}
	return "billed to the instance's prepaid n8n Gateway credits (an auto top-up charges the owner's card)"
}

// rateLimitWords name a rate limit or a request counter, lowercased, with
// the separators people write between the words; "credit" and "credits"
// count as words of their own (namesRateLimit). Searched in any case
// (foldWord): a case-insensitive regexp over every code node's text was a
// fifth of the audit's time on the corpus, and lowering each text first a
// third of the rule's.
var rateLimitWords = func() []string {
	out := []string{"throttl", "quota", "too many", "request per", "requests per"}
	for _, p := range [][2]string{{"rate", "limit"}, {"max", "requests"}, {"request", "count"}, {"usage", "limit"}} {
		for _, sep := range []string{"", " ", "_", "-"} {
			out = append(out, p[0]+sep+p[1])
		}
	}
	return out
}()

// rateLimitStems are pieces one of which every word of rateLimitWords
// holds (TestRateLimitStems): most code holds none of them, and looking
// for them spares looking for each word.
var rateLimitStems = []string{"throttl", "quota", "too many", "request", "limit"}

var (
	rateLimitWordsFold = foldWords(rateLimitWords)
	rateLimitStemsFold = foldWords(rateLimitStems)
	creditFold         = foldWords([]string{"credit"})[0]
)

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// namesRateLimit reports whether s speaks of a rate limit: one of
// rateLimitWords, or "credit" or "credits" ending a word, in
// strings.ToLower(s). The words are ASCII, and only the Kelvin sign and
// the dotted capital I lower to ASCII letters (k and i): a text without
// either is searched as it is, its ASCII letters in any case, with no
// lowered copy.
func namesRateLimit(s string) bool {
	if strings.Contains(s, "\u212a") || strings.Contains(s, "\u0130") {
		s = strings.ToLower(s)
	}
	has := func(f foldWord) bool { return f.index(s) >= 0 }
	if slices.ContainsFunc(rateLimitStemsFold, has) && slices.ContainsFunc(rateLimitWordsFold, has) {
		return true
	}
	ends := func(k int) bool { return k >= len(s) || !ascii.IsWord(s[k]) }
	for i := 0; ; {
		j := creditFold.index(s[i:])
		if j < 0 {
			return false
		}
		k := i + j + len("credit")
		if ends(k) || s[k]|0x20 == 's' && ends(k+1) {
			return true
		}
		i = k
	}
}

// foldWord is a lower-case ASCII word to search for with its ASCII
// letters in any case, from the byte of it that code and names hold
// least (at): "quota" and "request" from their q, "throttl" from its l.
type foldWord struct {
	w  string
	at int
}

func foldWords(ws []string) []foldWord {
	out := make([]foldWord, len(ws))
	for i, w := range ws {
		out[i] = foldWord{w: w, at: ascii.Rarest(w)}
	}
	return out
}

// index is where f's word first starts in s, its ASCII letters in any
// case, or -1.
func (f foldWord) index(s string) int { return ascii.IndexFold(s, f.w, f.at) }

// rateLimits are the nodes that look like a rate limit: the name of any
// node, or the text of a branch, code or Redis node, says so. Found once
// per workflow, then looked for in each trigger's run.
func rateLimits(g *analyze.Graph) []*n8nschema.Node {
	var out []*n8nschema.Node
	for _, n := range g.Nodes {
		if n.Disabled {
			continue
		}
		if namesRateLimit(n.Name) || (n8nschema.IsBranch(n.Type) || n8nschema.IsCode(n.Type) || strings.Contains(n.Type, "redis")) && namesRateLimit(n.Params().Raw()) {
			out = append(out, n)
		}
	}
	return out
}
