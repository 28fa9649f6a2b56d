package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs203 = &analyze.Rule{
	ID:    "RS203",
	Name:  "redelivered-trigger",
	Title: "a webhook answers its sender after slow work",
	Doc: `A service that sends webhooks counts a delivery as failed when no 2xx answer comes in time, and sends the
event again: Stripe for up to three days, Shopify 8 times over 4 hours after 5 s, Slack's Events API 3 times after
3 s, Meta (WhatsApp Cloud API, Messenger, Instagram) after 20 s until it is answered; GitHub and Twilio do not
redeliver (docs/n8n-facts.md lists each fact with its source). n8n's Webhook node
answers on receipt by default; set to answer "When Last Node Finishes" (responseMode lastNode) or "Using Respond to
Webhook Node" (responseNode), it answers only after the work before it
(packages/cli/src/webhooks/webhook-helpers.ts, nodes-base/nodes/Webhook/description.ts). When that work is slow (a
model call, a call that n8n retries, a Wait), the sender gives up while the first run is still going and sends the
event again: a new execution that repeats every write and paid call, as many times as the sender redelivers. That is
one more retry layer, outside n8n, multiplying everything inside it; the chain shows it as "redelivery". The
services' own trigger nodes (Stripe Trigger, Shopify Trigger, Slack Trigger, GitHub Trigger, WhatsApp Trigger and the
rest) answer on receipt (their webhook description sets responseMode onReceived, e.g.
nodes-base/nodes/Stripe/StripeTrigger.node.ts, nodes-base/nodes/WhatsApp/WhatsAppTrigger.node.ts) and are not
reported. The sender of a generic Webhook is read from what the run it starts reads of the request: a signature or
event header it checks (Stripe-Signature, X-Shopify-*, X-Slack-Signature, X-GitHub-Event), Meta's URL check
(hub.verify_token) or payload (entry[0].changes[0].value, a read of messaging_product), an event name it compares
("checkout.session.completed", "event_callback"), or payload fields it reads when the webhook is named for the
service; a name alone says nothing, nor what the workflow writes in a request it sends (WhatsApp's send body holds
messaging_product too). Meta verifies a callback URL with a GET (hub.challenge) before it sends anything, so a
path that no Webhook of the workflow answers on GET (httpMethod POST; GET is the default, and GET and POST with
multipleMethods) is not Meta's. Severity follows what a duplicate costs: an error for a charge, an order, a deal
or a message to a customer; a warning for a second record, a message to a colleague the record names by role (RS201),
or paid calls billed again; a note for a team alert.
When nothing tells who calls, the sender is unknown: the finding is a note, low confidence, and only when a machine
drives the webhook and a second run would leave harm (a charge, an order, a booking, a message to a customer). A
webhook that people drive is left out, as its caller waits for the answer and does not send again: a chat relay
(the run answers the person who wrote, in a messaging app or through the reply address the request carried, the
sender read from the request or from the fields a Code node built from it) or a
page in a browser (the answer is a redirect or an HTML page, or carries CORS headers, or the webhook names the
pages' origins), or a person's form or call (the run answers with its result, and the request brings an e-mail
address or phone number and a name or a message, named in English or in Spanish, Portuguese, French, German or
Italian (nombre completo, correo, cel, telefone, courriel, Nachricht), read in an expression or in code, by name or
by a list of names (['name', 'email']; body[f]), in the body or one object below it (body.context.email), and no event
type, signature or known service's payload; or a later step of an order or quote the person began, whose request
brings only the person's choices for it, an address or a payment or delivery method, and whose run answers a request
it refuses with a 4xx status), or a voice agent's tool (the
run reads a Vapi tool call or a Retell function call from the request and answers with its result). Nor is a
webhook noted that answers with the run's result: a Respond to Webhook node (or, answering when the last node
finishes, every last node) answers with an item that a model call, an agent or a read made, passed on by nodes that
shape items. The services that redeliver ignore the answer's body; a caller answered with the run's result reads it
(a front end, an app, an agent's tool) and waits for it. A write's acknowledgement (a message id), the request
echoed or a constant is no result, and a known sender, told from its payload or signature, is reported whatever the
answer carries (nodes-base/nodes/RespondToWebhook/RespondToWebhook.node.ts). A booking or
form service that relays one person's action is the caller, not the person, and sends again as its documentation
says: Calendly (15 s, for 24 hours), Typeform (30 s, 5 times) and Tally (10 s, 5 times) are known senders, told
from the payload the run reads (Calendly's payload.scheduled_event, Typeform's form_response, Tally's data.fields)
or their signature header; Cal.com, Jotform and Wufoo publish no redelivery, and are notes that name them. An unknown sender is never replayed by simulate. A call that runs once is not counted as slow, nor
is a write with an idempotency key or behind a Remove Duplicates that drops items seen in earlier executions, or
behind a claim: a POST that names the record from the request, answers every status as data (Never Error with the
full response), and an If on its status code whose success branch alone leads on; a redelivery's claim is refused
(the state already moved, or 409), so it takes the other branch.`,
	Fix:       "Answer on receipt (Respond: Immediately) and hand the work on, or drop a redelivered event by its id (Remove Duplicates across executions) before any write",
	FixSafety: analyze.Unsafe,
	FixDoc: `Unsafe (--unsafe-fixes): it sets the Webhook node's responseMode to "onReceived", so that n8n answers 200 before
the work and the sender stops redelivering. It is offered only for a known sender that ignores the answer's body
(Stripe, Shopify, Slack's Events API; not Meta, whose URL check reads the answer), a webhook that answers when the last node finishes, and a workflow
that has an error workflow: with a Respond to
Webhook node in the workflow, that node would fail ("No Webhook node found"), and the answer it builds may be what the
sender needs (Slack's url_verification challenge). It is unsafe because the sender then no longer learns that a run
failed, so a failed run is not sent again; the error workflow is then the only one to hear of it.`,
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"writes", "retries", "webhooks"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		g := pass.Set.Graph(w)
		for _, t := range g.Triggers() {
			rd, ok := analyze.LateRedeliveryOf(pass.Set, w, t)
			if !ok || !rd.Late() || rd.Key != "" && !rd.Sender.Redelivers() {
				continue
			}
			if rd.Key == "" {
				unknownSender(pass, rd)
				continue
			}
			rep := repeatedFrom(pass, t, rd.Reach)
			var op *analyze.Operation
			var dup string
			sev := analyze.Note
			switch {
			case len(rep.writes) > 0:
				op = rep.writes[0]
				dup = fmt.Sprintf("%q leaves %s", op.Node.Name, rep.worst.Duplicate)
				sev, _ = duplicateSeverity(rep.worst, true) // every redelivery repeats it
				if len(rep.paid) > 0 {
					dup += fmt.Sprintf(", and %s billed again", counted(len(rep.paid), "paid call is", "paid calls are"))
					sev = max(sev, analyze.Warning)
				}
			case len(rep.paid) > 0:
				op = rep.paid[0]
				dup = fmt.Sprintf("%s billed again", counted(len(rep.paid), "paid call is", "paid calls are"))
				sev = analyze.Warning
			default:
				continue // the run repeats nothing that leaves a trace
			}
			slow := slowText(rd)
			s := rd.Sender
			pass.Report(analyze.Diagnostic{Node: t, Pos: t.Pos, Severity: sev, Detail: rd.Key,
				Message: fmt.Sprintf("webhook %q is called by %s (%s) and answers only after %s, longer than the %s %s waits; %s then sends the event again %s, and each delivery repeats the run: %s",
					t.Name, s.Name, rd.Evidence, slow, analyze.Duration(s.TimeoutMS), s.Name, s.Name, s.Spacing, dup),
				Chain:  withLayer(rd.Factor(w), op),
				Repair: func(r analyze.Repairer) (*analyze.Repair, error) { return r.AnswerOnReceipt(w, t, rd.Key) }})
		}
	},
}

// slowText names the slow work before a webhook's answer: the slowest
// step, and how many more there are.
func slowText(rd analyze.Redelivery) string {
	best := rd.Slow[0]
	for _, st := range rd.Slow[1:] {
		if st.Unbounded && !best.Unbounded || st.Unbounded == best.Unbounded && st.WorstMS > best.WorstMS {
			best = st
		}
	}
	out := best.Describe()
	if n := len(rd.Slow) - 1; n > 0 {
		out += fmt.Sprintf(" (and %s)", counted(n, "more slow step", "more slow steps"))
	}
	return out
}

// unknownSender notes a late-answering webhook whose sender's redelivery
// is not known, when a machine calls it (no person's chat, form or page:
// analyze.TriggerPaceIn; a booking or form service that relays people's
// actions is a machine that calls, analyze.RelayOf), one that sends events
// rather than reads the run's result (analyze.AnswersWithResult), and a second run would
// leave harm behind (a charge, an order, a message to a customer, a
// booking). The caller may never send again, so it stays a note, and
// nothing is replayed.
func unknownSender(pass *analyze.Pass, rd analyze.Redelivery) {
	w, t := pass.Workflow, rd.Trigger
	g := pass.Set.Graph(w)
	// The harm first: who calls (a person's form or chat reads every
	// value the webhook reaches) matters only when a repeat leaves one.
	rep := repeatedFrom(pass, t, rd.Reach)
	if len(rep.writes) == 0 || rep.worst.Consequence != analyze.Harm || rep.worst.Colleague {
		return
	}
	relay := analyze.RelayOf(g, t)
	if relay.Key == "" && (analyze.TriggerPaceIn(g, t) != analyze.PaceMachine || analyze.AnswersWithResult(pass.Set, w, t, rd.Reach)) {
		return
	}
	op := rep.writes[0]
	what := fmt.Sprintf("%q leaves %s", op.Node.Name, rep.worst.Duplicate)
	if len(rep.paid) > 0 {
		what += fmt.Sprintf(", and %s billed again", counted(len(rep.paid), "paid call is", "paid calls are"))
	}
	slow := slowText(rd)
	if len(rd.Slow) > 1 {
		slow += ", " + worstText(rd) + " before the answer"
	}
	msg := fmt.Sprintf("webhook %q answers only after %s; nothing in the workflow says who calls it, and a caller that sends again when no answer comes in time (as Stripe, Shopify, Slack and Meta do) would repeat the run with each delivery: %s",
		t.Name, slow, what)
	if relay.Key != "" {
		msg = fmt.Sprintf("webhook %q answers only after %s; it is called by %s (%s), whose documentation does not say whether it sends again when no answer comes in time; if it does (as Stripe, Shopify, Slack and Meta do), each delivery repeats the run: %s",
			t.Name, slow, relay.Name, relay.Evidence, what)
	}
	pass.Report(analyze.Diagnostic{Node: t, Pos: t.Pos, Severity: analyze.Note, Confidence: analyze.Low, Detail: "unknown",
		Message: msg,
		Chain:   op.Factors})
}

// worstText is the longest a webhook's answer can take.
func worstText(rd analyze.Redelivery) string {
	if rd.Unbounded {
		return "with no bound"
	}
	return "up to " + analyze.Duration(rd.WorstMS)
}
