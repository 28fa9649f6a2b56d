package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs201 = &analyze.Rule{
	ID:    "RS201",
	Name:  "retried-write-without-idempotency",
	Title: "a retried write carries no idempotency key",
	Doc: `A write (an HTTP POST or PATCH, or an app node's create, send, post, insert, update, upsert, charge or
delete) that is retried at any layer can commit more than once: an attempt that timed out on the client may
well have succeeded on the server, and the retry creates a second charge, order or message. n8n's node retry
makes it worse: it re-runs the whole node with all its items, so every item of the batch is sent again,
including those that had already succeeded (packages/core/src/execution-engine/workflow-execute.ts). An
idempotency key (Idempotency-Key, X-Idempotency-Key, PayPal-Request-Id, a body field such as Square's
idempotency_key) derived from the item lets the server recognise the retry and answer it with the first
result. Only writes that leave a second effect when repeated are reported, and the severity follows what the
duplicate costs: an error when it reaches money or a third party (a charge, an order, a booking, a message to a
recipient taken from the data, a created deal or ticket, a public post, an outbound phone call: Vapi's POST /call or /call/phone
(docs.vapi.ai/outbound_call_python), Twilio's POST .../Calls (twilio.com/docs/voice/make-calls); a POST to any API whose body sends a message text to a recipient read
from the item, participants: [{{ $json.phone }}] or to_email: {{ $json.email }}; a bot's message, Telegram's or a
Discord DM, whose chat or user id is read from the data in a run no person's message started, such as a price
alert sent on a schedule to the user_id of each alert row: each user of the bot the data names); a warning for a message to a
colleague whose address is a field of a record the workflow read from the owner's own table or sheet, the field
named for a role in the organisation ({{ $json.email_przelozonego }}, managerEmail: supervisor, superior, manager,
boss, team lead, assignee, przełożony, kierownik, Vorgesetzte; a word list, as nothing else in a workflow tells a
colleague's address from a customer's; the same field in a webhook's request is anyone's); a note for a second record in an app
the owner works in (a row, a page, a task, a file: someone sees it and deletes it), for a nuisance the team
shrugs at (an alert in a team chat, the bot's answer in the chat of the person whose message started the run, also one an HTTP call sends to the sender the webhook's request names, WhatsApp Cloud's from or Viber's sender, read there or from the fields a Code node built from it (as RS203 reads a chat relay's sender: through the code's variables and functions, or a whole message body a Code node addresses so), when no other trigger's run reaches it, a report mailed to a fixed address or one set in the instance's
variables, a messaging API's body that names a fixed number or chat, a call or text to the owner's own number
at any API, a recipient read from a field a Set node of the workflow fixes to a literal address
({{ $('Config').first().json.owner_cell }}), a message to recipients read from a
look-up of the team's own people (admins, staff, employees), any message sent from an error workflow, a row
in a log, a draft: also an invoice or bill created with status "DRAFT", in an HTTP body or the Xero node's Status
(Xero.node.js L267-268), which waits in the owner's own books for someone to approve it), and for a POST whose endpoint and provider say nothing of what it creates
(medium confidence: it may be anything from a log line to an order), as is a POST that carries nothing of the item
(no body, nothing from the item in its URL, query or headers: the same request each time, whatever the server
does when called), or whose every field that reads the item reads a body the trigger's items never carry
($json.body.id off a Shopify Trigger, which emits the order itself: ShopifyTrigger.node.js L411). A message whose
recipient is such a read goes to no one and is not reported (a Gmail send with that To fails before it sends: RS010).
Nor is a write that every run reaches only through a node that fails on every item (an AI Agent whose memory
finds no session ID, a refused credential: RS010 names it and what never runs behind it), or through a Code node
that throws unless the workflow's static data holds a key only nodes behind it (or behind such a failing node)
set, which no run ever passes (RS010 counts it behind what blocks those nodes): it is never sent, so never sent twice; the finding comes once that node
is fixed. What a node's items hold after an API's answer
is not known (any top-level field may come back), so an agent fed one is not taken to fail.
A write to a resource a template's blank names (the spreadsheet "YOUR_SPREADSHEET_ID", the chat
"YOUR_TELEGRAM_CHAT_ID", the SMS sender "YOUR_TWILIO_PHONE_NUMBER") fails on every call as exported and writes nothing, and a write to a public mock or echo
API (jsonplaceholder.typicode.com, dummyjson.com, httpbin.org, postman-echo.com, ReqRes's demo endpoints) is faked
and kept nowhere: neither is reported (docs/n8n-facts.md, part EF).
Nor is a write that only a self-restart repeats, when the restart reaches it past an If, Switch, Filter or
classifier that reads the item: whether the restarted runs (a Slack bot's own post) take its way is the data's,
and RS102, which names that gate, is the finding.
Writes that re-apply the same state are left out: PUT, PATCH (unless it appends, as Notion's /children), a
POST to one resource by id (/tasks/{{ $json.id }}), an action that sets the state of one resource named by id in
the path (Gmail's /messages/{{ $json.id }}/trash, untrash or modify; /orders/{id}/cancel, /approvals/{id}/resolve, /posts/{id}/publish; not
/{id}/comments, /send, /reply or
/forward), a PostgREST or Supabase upsert (Prefer: resolution=merge-duplicates or ignore-duplicates), a POST to
an endpoint named for an update (/update-meta), a POST
whose body names the record it acts on by an id from the item or the model at an endpoint named for setting
its state ({"orderId": …} to …/design/configure), a copy onto a named destination, a file written at a fixed path (S3, FTP, Dropbox), a file the GitHub node creates at a path that does not change
between tries (it sends no sha, and GitHub refuses the second create with 422), deletes and updates. So is
Instagram's first publishing step, POST …/{ig-user-id}/media with image_url, video_url, media_type, is_carousel_item
or children: it makes an unpublished container nothing shows, which expires (status_code EXPIRED) after 24 hours
unpublished (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container); only
media_publish posts, and it names the container the successful try returned. So are
POSTs that only read or analyse: search, lookup, scrape and run-sync endpoints (fal.run runs a model and answers, where queue.fal.run takes a job), model and conversion
endpoints (a URL expression that only chooses between quoted model endpoints of one provider, such as
OpenRouter's chat/completions and its Decisions API, calls a model too), endpoints named for a computation they answer (/statistics, /process, /evaluate, outside a
collection of orders or payments), GraphQL queries that are not mutations, calls with doNotSave=true, and Google-style custom methods
that compute (:inspect, :synthesize, :generateKeywordIdeas). Calls into n8n's own webhooks are RS102's, and a write that runs again only because a loop waits for a
person's answer, or because a loop moves on to the next page or the next step of a job, is not a retry: a loop
retries a write when it comes back through an error output or through the branch of an If or Switch that tests
for a failure (an error, a status code, "failed"). App nodes whose API takes no key (Slack, Gmail, SMTP) can
only be made safe by retrying in one place that checks for the earlier effect first.`,
	Fix:       "Send an idempotency key derived from the item (Idempotency-Key: {{ $json.order_id }}), or retry the write in one place that first checks whether it already happened",
	FixSafety: analyze.Unsafe,
	FixDoc: `Unsafe (--unsafe-fixes): it changes what the request sends. On an HTTP Request node (version 3 or
later, headers as name/value pairs) whose POST goes to an API that documents an idempotency header (the
catalog in n8nschema/effects.go: Stripe, GoCardless, Mollie, Adyen: Idempotency-Key; PayPal:
PayPal-Request-Id; Checkout.com: Cko-Idempotency-Key; Xendit: X-Idempotency-Key) and that the node retries
itself, it adds the header. When the node already reads an id of its item ({{ $json.orderId }}, an event,
invoice, payment or transaction id or number, {{ $('Order').item.json.order.id }}), or the data pinned on the
node that feeds it has one ({{ $json.body.order_id }} of a webhook), the key is that id and the node:
{{ $json.orderId }}-<node>, the same on every re-send of the item. Otherwise the only key at hand is
{{ $execution.id }}-<node>-{{ $itemIndex }}, the same on the node's own retries (they re-run it with the same
execution and items) and on nothing else, so it is offered only where nothing else sends the write again: not
under a caller that retries (each try of an Execute Workflow node starts a new execution), and not where a
person's retry of the failed execution runs the node again in a new execution (the node's failure stops the
execution and the workflow keeps failed executions; RS202 says why). A customer, user or session id names
many writes, not one, and is not used. Neither is offered for a workflow that re-starts itself or runs as an
error workflow, nor for a node that runs more than once in one execution (a loop), where the key could repeat
for new work. Other APIs get no repair: a header they ignore protects nothing.`,
	Severity:   analyze.Error,
	Confidence: analyze.High,
	Tags:       []string{"writes", "retries"},
	Run: func(pass *analyze.Pass) {
		for op := range eachLiveOp(pass) {
			n := op.Node
			if !madeWrite(op) || !op.Retried() || op.Paid {
				continue
			}
			if restartGate(op) != "" && op.Attempts <= 1 {
				// Only a restart behind a content gate may repeat it, and
				// the restarted runs' content (a bot's own post) decides
				// whether they take its way: no duplicate is sure (RS102
				// reports the loop).
				continue
			}
			// A loop that moves on to other data on each pass (the next page,
			// the next step of a job) runs the write again for new work, not
			// as a retry of the same write. (A loop that waits for a person
			// is bounded by the loop analysis: Loop.Bound.)
			loopOnly := progressLoop(pass, op)
			if loopOnly && boundedPart(op) < 2 {
				continue
			}
			eff := analyze.ConsequenceIn(pass.Set.Graph(pass.Workflow), n)
			if !eff.Consequence.Duplicates() || selfWebhookCall(pass, n) {
				continue // a repeat reads again, re-applies the same state or overwrites the same name
			}
			if _, hb := n8nschema.HeartbeatOf(n); hb {
				continue // a duplicate progress report is harmless; RS401 speaks for heartbeats
			}
			if k, ok := n8nschema.IdempotencyKeyOf(n); ok {
				if st, _ := n8nschema.ClassifyKey(k.Value); st != n8nschema.KeyEmpty {
					continue // RS202 checks the key
				}
			}
			sev, _ := duplicateSeverity(eff, false) // a repeat only when a timed-out attempt had committed
			if eff.Message && pass.Set.Graph(pass.Workflow).FromErrorTrigger(n) {
				// An error workflow's messages report failures to the team,
				// whoever the address is.
				sev, eff.Duplicate = analyze.Note, "a second alert from an error workflow"
			}
			what := eff.Op
			verb := "sends " + what
			if !n8nschema.IsWriteMethod(what) {
				verb = fmt.Sprintf("runs the write %q", what)
			}
			times := attemptsText(op)
			if loopOnly {
				times = fmt.Sprintf("up to %d times", boundedPart(op))
			}
			out := outsideOf(op)
			msg := fmt.Sprintf("node %q %s %s%s, with no idempotency key; an attempt that timed out may already have committed, and a duplicate is %s",
				n.Name, verb, times, paren(out.attempts), eff.Duplicate)
			if k := op.OwnRetries(); k > 1 {
				msg += fmt.Sprintf("; each of its %d tries re-sends every item of the batch", k)
			}
			pass.Report(analyze.Diagnostic{Node: n, Pos: n.Pos, Message: msg, Detail: what, Severity: sev, Confidence: eff.Conf, Chain: op.Factors, Related: out.attemptsAt,
				Repair: func(r analyze.Repairer) (*analyze.Repair, error) { return r.IdempotencyKey(op) }})
		}
	},
}

// failRE matches a condition that tests for a failure.
var failRE = lazyregexp.New(`(?i)statusCode|\berror|fail|\b429\b|\b5\d\d\b`)

// progressLoop reports whether the only unbounded factor of op is a loop
// inside the workflow that does not retry: no edge of the loop leaves an
// error output, and no If, Switch or Filter of the loop sends the run back
// on the branch that tests for a failure. Such a loop runs the write for
// new work on each pass (the next page, the next step of a job).
func progressLoop(pass *analyze.Pass, op *analyze.Operation) bool {
	f, ok := factorOf(op, analyze.KindLoop)
	if !ok || !f.Unbounded || crossExecution(op) {
		return false
	}
	g := pass.Set.Graph(pass.Workflow)
	back := g.Node(f.Node)
	if back == nil {
		return false
	}
	l := g.LoopOf(back)
	if l == nil || l.DoneBack != nil {
		return false
	}
	in := map[*n8nschema.Node]bool{}
	for _, n := range l.Nodes {
		in[n] = true
	}
	for _, n := range l.Nodes {
		for _, e := range g.OutOfType(n, analyze.ConnMain) {
			if !in[e.To] {
				continue
			}
			if e.Error {
				return false
			}
			if failBranch(n, e.Output) {
				return false
			}
		}
	}
	return true
}

// failBranch reports whether output out of an If, Switch or Filter is
// taken when a test for a failure matches: the true output of an If or
// Filter whose conditions mention one, or the output of the Switch rule
// that does.
func failBranch(n *n8nschema.Node, out int) bool {
	tests := func(v n8nschema.Value) bool {
		found := false
		v.Walk(func(rel string, x n8nschema.Value) {
			if !found && x.Kind() == n8nschema.String && !strings.HasSuffix(rel, "id") && failRE.MatchString(x.Str()) {
				found = true
			}
		})
		return found
	}
	switch n.Type {
	case n8nschema.TypeIf, n8nschema.TypeFilter:
		return out == 0 && tests(n.Params().Get("conditions"))
	case n8nschema.TypeSwitch:
		rules := n.Params().Get("rules.values").Elems()
		if len(rules) == 0 {
			rules = n.Params().Get("rules.rules").Elems()
		}
		if out < len(rules) {
			return tests(rules[out])
		}
	}
	return false
}
