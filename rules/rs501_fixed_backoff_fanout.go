package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs501 = &analyze.Rule{
	ID:    "RS501",
	Name:  "fixed-backoff-fanout",
	Title: "fixed-wait node retries on calls that run many at once",
	Doc: `n8n's node retry waits a fixed waitBetweenTries (default 1 s, at most 5 s) between attempts, with no
backoff and no jitter (packages/core/src/execution-engine/workflow-execute.ts). When many copies of the
call fail together (a webhook or chat workflow runs one execution per request, a batch sends every item
at once), they all wait the same time and retry in the same instant, again and again: a synchronised
herd that keeps an overloaded dependency down. It matters only where calls run side by side, so the rule
looks at workflows started per request (webhooks and push-based app triggers; polling triggers start one
execution per poll, and what people pace (chat messages, messaging bots such as Telegram, WhatsApp or
Slack, the trigger of a form, survey or booking service or of a meeting recorder, n8n's node or a community one
alike, a shop's trigger on a customer's checkout (Shopify's orders/create or checkouts/create, WooCommerce's
order.created; a product or inventory update may come in a batch and stays reported), read by the service its type names (Typeform, Jotform, a community Tally Trigger, Calendly, Fathom), also when wired through a plain POST Webhook whose workflow answers the sender in the messaging app
(the sender read from the request or from the fields a Code node built from it, as RS203 reads it),
or posts a chat message to a reply URL the request brought (Slack's response_url) for a request that names
its sender; a machine's callback, which carries a result and names no sender, stays machine-paced),
forms (also a POST Webhook answered with the run's result, by a Respond to Webhook node or the last node, for
a request that brings an e-mail address or phone number and a name or a message, read by any path: the body
(with optional chaining, bracketed names, or a Code variable bound to it, const lead = $json.body ?? $json among them), the item the webhook feeds, the
webhook's name, a GET's query; or a later step of an order or quote the person began, whose request brings
only the person's choices for it, a delivery address or a payment or delivery method, and whose run answers a
request it refuses with a 4xx status, literal or computed, for the person to read (a bad option, a quote already
confirmed), as no service's own event is answered; a request that names an event type or is
signed is a service's event), bookings and form submissions a service relays (a Webhook whose run reads
Calendly's invitee payload, Cal.com's BOOKING_CREATED, Typeform's form_response, Tally's, Jotform's or Wufoo's
submission: one execution per person's action), a voice agent's tool (a Webhook that waits to
answer a Vapi tool call or a Retell function call read from the request: the person on the call paces it; the
platform's report after the call stays machine-paced), links opened in a browser, a Webhook that
answers GET, a "run now" Webhook wired into the same first nodes as a Schedule Trigger of its workflow, nodes
that read nothing of the request (a Webhook whose first nodes are external calls that read no item, so their
results replace the request, and no node of its runs reads it by name: a setup hook someone calls), a Webhook that workflows of the set call by an HTTP request only from runs
people start, such as a sub-agent an orchestrating chat asks once per question) comes one person at a time, so
their failures do not line up; nor is a Webhook that workflows of the set call only from runs their schedules
start (a scheduled pipeline that hands its result to a publisher's webhook): its executions come when those
runs call, at the schedules' pace, as many at once as those runs can overlap, like a schedule's own runs) and at runs of several items (--items above 1), when the node sends every
item before it reads an answer (HTTP Request): a node that runs its items one by one throws at the first
that fails, so its items never retry together, nor do the items a Loop Over Items of batch size 1 (v3's
default: SplitInBatchesV3.node.js) hands a node one per pass. The loop keeps one execution's calls apart,
not executions: under a per-request trigger such a node still counts, as requests that come together start
executions that overlap. A node counts for a
per-request trigger only when that trigger's executions reach it, and reach it by a way with no model
generating before it: n8n starts a node only when the one before it has ended (runNode is awaited, then
addNodeToBeExecuted: packages/core/src/execution-engine/workflow-execute.ts), so a node behind an AI Agent or a
chain with its chat model, a vendor model node or an HTTP Request to a model API's generation endpoint starts
when that generation ends, seconds to minutes after the run began and different for each request; executions
that start together reach it spread apart, and each fixed-wait retry keeps that spread. The items one execution
sends at once still leave together, whatever the model took (--items). An HTTP Request with Never Error and Full
Response (options.response.response) hands every status on as an item, so its retry never meets an overloaded
service's 429 or 503; what still ends a try is a request with no answer. A refused connection reaches no
server to keep down, and a timeout comes a timeout after each call's own start, so the retries keep the
calls' own spacing, which jitter would not change. Such a node is not counted. What runs side by side is one node's calls in executions (or items) that overlap:
the nodes one execution runs one after another never add up to a larger herd, each retries with its own copies.
The rule reports one note per workflow, at the first such node, naming the others.`,
	Fix:        "Retry concurrent calls with exponential backoff and jitter (a queue, a Code node, or the API's own retry), or lower maxTries and space the calls with HTTP batching",
	FixDoc:     "None: n8n's node retry has no jitter to turn on; spacing the calls is a change to the workflow's shape.",
	Severity:   analyze.Note,
	Confidence: analyze.Medium,
	Tags:       []string{"retries"},
	Run: func(pass *analyze.Pass) {
		ops := liveOps(pass)
		if !slices.ContainsFunc(ops, func(op *analyze.Operation) bool { return op.OwnRetries() >= 2 }) {
			return // nothing retries in lockstep: the triggers need no reading
		}
		g := pass.Set.Graph(pass.Workflow)
		// The per-request triggers and what each of them runs: a node
		// reached only from a schedule in a workflow that also has a
		// webhook does not run once per request.
		var triggers []*n8nschema.Node
		// A webhook whose runs are an earlier one's (analyze.SameRuns)
		// reads nothing of the request when that one does not; and once
		// one of them is counted, the calls their runs reach are named
		// after it: the others are not walked.
		nothing := map[*n8nschema.Node]bool{}
		var byNode opsByNode // a call at a trigger itself is named after it
		counted := map[*n8nschema.Node]bool{}
		for _, t := range g.Triggers() {
			if t.Disabled || !concurrentTrigger(g, t) || pacedByCallers(pass, t) {
				continue
			}
			r := analyze.SameRuns(g, t)
			if counted[r] && byNode == nil {
				byNode = indexOps(ops)
			}
			if counted[r] && !byNode.has(t) {
				continue
			}
			no, ok := nothing[r]
			if !ok {
				no = readsNothingOf(g, t)
				nothing[r] = no
			}
			if !no {
				triggers = append(triggers, t)
				counted[r] = true
			}
		}
		items := pass.Options.Items
		if len(triggers) == 0 && items <= 1 {
			return
		}
		// What each trigger's runs reach, named after the first that
		// reaches it: behind a model's generation, executions that start
		// together arrive spread by its latency, and each retry keeps its
		// own spacing.
		first := analyze.FirstReachBeforeModel(g, triggers)
		// One note per workflow: the herd is the workflow's, and a note per
		// node floods a workflow that retries everywhere.
		type hit struct {
			op   *analyze.Operation
			k    int
			at   string
			wait int
		}
		var hits []hit
		for _, op := range ops {
			n := op.Node
			k := op.OwnRetries()
			perRequest := ""
			if t := first[n]; t != nil {
				perRequest = t.Name
			}
			// An overloaded service's answers (429, 503) do not end a try of a
			// node that hands them on as items.
			// A node whose first failed item ends its try sends one item at
			// a time: its items never fail together.
			// So does a node a Loop Over Items hands one item per pass.
			if k < 2 || perRequest == "" && (items <= 1 || n.ExecuteOnce || op.FirstFailureEndsTry || analyze.OneItemPerRun(g, n)) || n8nschema.AnswersStatusAsItem(n) {
				continue
			}
			at := fmt.Sprintf("every execution of %q", perRequest)
			if perRequest == "" {
				at = fmt.Sprintf("%d items per execution", items)
			}
			hits = append(hits, hit{op, k, at, analyze.RetryWaitMS(n)})
		}
		if len(hits) == 0 {
			return
		}
		h := hits[0]
		n := h.op.Node
		msg := fmt.Sprintf("node %q makes %d tries a fixed %d ms apart and runs for %s: calls that fail together retry together, in lockstep",
			n.Name, h.k, h.wait, h.at)
		if len(hits) > 1 {
			var others []string
			for _, o := range hits[1:] {
				others = append(others, fmt.Sprintf("%q", o.op.Node.Name))
			}
			// Each named node is a herd of its own: the executions (or
			// items) overlap, not the nodes one run calls one after another.
			msg += fmt.Sprintf("; so %s %s, each on its own in the executions that reach it", plural(len(others), "does", "do"), joinNames(others, 3))
		}
		pass.Report(analyze.Diagnostic{Node: n, Pos: n.Pos, Message: msg, Chain: h.op.Factors})
	},
}

// concurrentTrigger reports whether a trigger starts one execution per
// event, so that executions overlap and fail together: machine-paced
// webhooks and app triggers that receive webhooks. Polling triggers (a
// pollTimes parameter, n8n's IPollFunctions nodes) start one execution per
// poll, and what people pace (chats, messaging bots, forms, links opened in
// a browser, a Webhook whose workflow answers the sender in a messaging app;
// analyze.TriggerPaceIn) fails one person at a time.
func concurrentTrigger(g *analyze.Graph, t *n8nschema.Node) bool {
	if _, ok := t.Param("pollTimes"); ok {
		return false
	}
	switch typ := t.Type; {
	case n8nschema.IsPollingTrigger(typ), typ == n8nschema.TypeEmailReadImap, typ == n8nschema.TypeLocalFileTrigger:
		return false
	case n8nschema.IsScheduleTrigger(typ):
		return false
	}
	return analyze.TriggerPaceIn(g, t) == analyze.PaceMachine
}

// pacedByCallers reports a Webhook that workflows of the set call by an
// HTTP request, every one of them from a run a person starts (a chat, a
// form, a manual run): it runs as often as they call it, one person at a
// time (a sub-agent asked once per chat question); or every one of them
// from runs that schedules start (analyze.CalledOnSchedule), which come
// at the schedules' pace, as a scheduled workflow's own runs do.
func pacedByCallers(pass *analyze.Pass, t *n8nschema.Node) bool {
	if analyze.CalledOnSchedule(pass.Set, pass.Workflow, t) {
		return true
	}
	bits, called := analyze.WebhookCallerPaces(pass.Set, pass.Workflow, t)
	return called && bits != 0 && bits&(1<<analyze.PaceMachine) == 0
}

// readsNothingOf reports a Webhook whose runs read nothing of the request:
// every node it feeds (a Respond to Webhook aside) is an external call
// whose parameters read no item ($json, $input, a node by name), so its
// result replaces the request's item, and no node the webhook's runs reach
// reads the webhook by name. Such a run is the same job whoever calls it:
// a setup hook or a "run now" button that people press, not one execution
// per event of a service.
func readsNothingOf(g *analyze.Graph, t *n8nschema.Node) bool {
	if t.Type != n8nschema.TypeWebhook {
		return false
	}
	fed := false
	for _, e := range g.OutOfType(t, analyze.ConnMain) {
		m := e.To
		if m.Disabled || m.Type == n8nschema.TypeRespondToWebhook {
			continue
		}
		if n8nschema.Lookup(m.Type).Role != n8nschema.RoleExternal || readsAnItem(m) {
			return false
		}
		fed = true
	}
	if !fed {
		return false
	}
	for _, n := range analyze.ReachFrom(g, t).Nodes() {
		// A reference by name ($('Webhook'), $node["Webhook"]), however
		// the export escapes its quotes.
		if raw := n.Params().Raw(); n != t && strings.Contains(raw, t.Name) && (strings.Contains(raw, "$(") || strings.Contains(raw, "$node")) {
			return false
		}
	}
	return true
}

// readsAnItem reports whether a node's parameters read the item it is given
// or another node's output.
func readsAnItem(n *n8nschema.Node) bool {
	raw := n.Params().Raw()
	for _, ref := range []string{"$json", "$input", "$item", "$binary", "$(", "$node", "$data"} {
		if strings.Contains(raw, ref) {
			return true
		}
	}
	return false
}
