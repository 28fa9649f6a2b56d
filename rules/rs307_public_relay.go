package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs307 = &analyze.Rule{
	ID:    "RS307",
	Name:  "public-relay",
	Title: "strangers message anyone or read private data as the owner",
	Doc: `A Chat Trigger made public with authentication "none", a Form Trigger with no authentication and a Webhook
with authentication "none" start a run for anyone who opens the link or learns the URL
(packages/@n8n/nodes-langchain/nodes/trigger/ChatTrigger/ChatTrigger.node.ts, nodes-base/nodes/Form/v2/FormTriggerV2.node.ts,
nodes-base/nodes/Webhook/description.ts), as RS306 reads them. When such a run sends a message from the owner's
account (a Gmail, Send Email, Outlook, SendGrid or Mailgun send; a Twilio, Vonage or WhatsApp message; an HTTP call to a
messaging API) to a recipient taken from the request (the Webhook's body, query or headers, a form's field, read
directly or through the fields a Set node writes or a Code node copies: the body spread into the object it returns,
a key set from a read), or an AI Agent behind the trigger has a send tool whose recipient
the model fills in ($fromAI) from the caller's message (not an agent whose prompt names the owner's own address and no
address of the caller's), then anyone can make the owner's mailbox or number send to any
address they choose: spam and phishing sent as the owner, the domain's reputation and the account's standing lost,
and for texts and calls a bill per message. The rule reports the sending node. A mail whose every other value is
literal (a fixed notice: the stranger picks only where it goes) is a note: unwanted mail from the owner's account,
not the stranger's words; a text or a call stays as loud, since each one is billed. A recipient that is fixed (a literal,
the instance's variables, a Set node's literal), read from the owner's own records (a row looked up by an id, a
directory of the team's people) or the bot's answer to the sender is left out: a stranger can then only fill the
owner's inbox, which RS306 and RS402 speak of. So are the webhooks RS306 leaves out: one the workflow reads as called by a
known service (a signed Stripe, Shopify, Slack, GitHub or Meta event), one whose run tests a credential header of its
caller, one a workflow of the set calls, and a send that lies behind a fetch by an id only the real sender knows or a
check of the caller's token. A public chat, a form that the export shows published, and a text, WhatsApp message or call
(billed per message) are warnings; a webhook is a note, its URL being a random id unless its path is set to words.
A messaging bot that answers whoever writes to it (a Telegram Trigger with no chat or user restriction applied, a
WhatsApp Trigger, and no test of the sender on the way that only the owner's message passes: analyze.Exposure "bot",
as RS306 reads it, an If "equals the owner's id" whose send hangs on its false output being no test) is open too: an
agent behind it whose send tool's recipient the model fills in from a stranger's message is a warning; a message to
the chat or number that wrote (message.chat.id, messages[0].from) reaches only the stranger, and is left out. An
agent tool that acts in the owner's account on the caller's word is reported at any of these triggers, as loud as a
read of the owner's data from the same trigger (below), since it harms at least as much: a Gmail reply (in the owner's
name, to the owner's correspondents) or delete, a Google Calendar event changed or deleted (the owner's meetings moved
or cancelled). A created event is a relay when a guest it invites is one the request or the model picks (a form's
or a body's field, $fromAI, an HTTP Request tool's {placeholder}): a Google Calendar event create puts
additionalFields.attendees into the event and sendUpdates into the query only when set
(nodes-base/nodes/Google/Calendar/GoogleCalendar.node.js), and Google's events.insert notifies no one by default, so
with sendUpdates "all" or "externalOnly" the invitation is mailed from the owner's account, as loud as a mail the
stranger or the model writes, and without it the event still lands on the guest's Google Calendar, unmailed: a note.
An Outlook event create (nodes-base/nodes/Microsoft/Outlook/v2/actions/event/create.operation.js) and a POST to
Microsoft Graph's /me/events (or /calendars/{id}/events) with attendees make Graph send each a meeting request: as
loud as a mail. An event whose guests are fixed or only the owner is left out.
The read side of the same exposure is reported too, as loud as a relay from the same trigger: an agent tool that reads
the owner's private data with the owner's credential (a Gmail or Outlook message, thread or draft get or get many, a
Google Calendar or Outlook event get or get many, Google Contacts or Outlook contacts, a Google Drive or OneDrive
download or search outside one fixed folder: nodes-base/nodes/Google/Gmail/v2/MessageDescription.js,
Google/Calendar/EventDescription.js, Google/Contacts/ContactDescription.js, Microsoft/Outlook/v2, Google/Drive/v2),
for an agent whose prompt is the caller's message and whose answer goes back to the caller (a public chat's reply:
streamed, the last node's output or a Respond to Chat node, as the Chat Trigger's responseMode says; a Webhook's
answer from the last node or a Respond to Webhook node that reads the agent's output; a bot's message to the chat or
number that wrote, whose text reads it). Whoever writes can then ask for the owner's mail, meetings or contacts and be
told them. Left out: a sheet, a database or a vector store the bot answers from (a catalog, a FAQ: its purpose), a
calendar read whose fields keep only the events' times, and an agent whose answer only goes into a write (a sheet's
row, a log).`,
	Fix:        "Put authentication on the trigger (basic auth, header auth, n8n user auth), or send only to addresses the workflow looks up itself (the owner's records, by an id it checks) or to a fixed one; give an open bot's agent no tool that reads the owner's own mailbox, calendar, contacts or drive",
	FixDoc:     "None: authentication needs a credential the callers must be given, and which addresses may receive mail only the owner can say.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"security", "spend"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		g := pass.Set.Graph(w)
		type found struct {
			t   *n8nschema.Node
			r   analyze.OpenRelay
			a   analyze.OwnerAction // set instead of r: an owner's action
			rd  analyze.OwnerRead   // set instead of r and a: a read of the owner's data
			sev analyze.Severity
		}
		var all []found
		var checks []*n8nschema.Node // found on first need, once
		checksFound := false
		// A webhook whose runs are an earlier one's (analyze.SameRuns:
		// the same nodes, no name or path read) has its relays: read once.
		type class struct {
			relays  []analyze.OpenRelay
			actions []analyze.OwnerAction
			reads   []analyze.OwnerRead
			reach   analyze.Reach
		}
		classes := map[*n8nschema.Node]*class{}
		for _, t := range g.Triggers() {
			exp := analyze.Exposure(t)
			if exp == "" {
				continue // the gate: no public trigger, nothing read
			}
			rep := analyze.SameRuns(g, t)
			c := classes[rep]
			if c == nil {
				c = &class{}
				c.reach = analyze.RunReach(g, t)
				c.relays = analyze.OpenRelays(g, t, c.reach)
				c.actions = analyze.OwnerActions(g, t, c.reach)
				c.reads = analyze.OwnerReads(g, t, c.reach)
				if len(c.relays)+len(c.actions)+len(c.reads) > 0 && exp == "url" {
					// Asked after the relays, most workflows having none:
					// SenderOf reads every value the webhook's runs read.
					if !checksFound {
						checks, checksFound = analyze.CallerChecks(g), true
					}
					if key, _ := analyze.SenderOf(g, t); anyIn(checks, c.reach) || key != "" {
						c.relays, c.actions, c.reads = nil, nil, nil // RS306's webhooks left out
					}
				}
				if len(c.relays)+len(c.actions)+len(c.reads) > 0 {
					// A stranger's run stops at a fetch by an id only the real
					// sender knows, or at a check of the caller's token.
					if stranger, gates := analyze.StrangerReach(g, t, c.reach); len(gates) > 0 {
						c.relays = slices.DeleteFunc(c.relays, func(r analyze.OpenRelay) bool { return !stranger.Has(r.Node) })
						c.actions = slices.DeleteFunc(c.actions, func(a analyze.OwnerAction) bool { return !stranger.Has(a.Node) })
						c.reads = slices.DeleteFunc(c.reads, func(r analyze.OwnerRead) bool { return !stranger.Has(r.Node) })
					}
				}
				classes[rep] = c
			}
			relays := c.relays
			if len(relays)+len(c.actions)+len(c.reads) == 0 || exp == "url" && analyze.CalledInSet(pass.Set, w, t) {
				continue
			}
			// The owner's account acting on a stranger's word (a
			// meeting moved or cancelled, a reply in the owner's name):
			// as loud as a read of the owner's data from the same
			// trigger, since it harms at least as much.
			for _, a := range c.actions {
				all = append(all, found{t: t, a: a, sev: relaySeverity(w, t, exp, false)})
			}
			// The owner's private data read back to the caller: as loud as
			// a relay from the same trigger.
			for _, rd := range c.reads {
				all = append(all, found{t: t, rd: rd, sev: relaySeverity(w, t, exp, false)})
			}
			for _, r := range relays {
				sev := relaySeverity(w, t, exp, r.PerMessage)
				if r.Invite && !r.Mailed {
					sev = analyze.Note // on the guest's calendar, unmailed
				}
				if fixedText(r) {
					sev = analyze.Note // unwanted mail, not the stranger's words
				}
				all = append(all, found{t: t, r: r, sev: sev})
			}
		}
		// One finding a sending node: the loudest trigger's, the first
		// of equals.
		best := map[*n8nschema.Node]int{}
		var order []*n8nschema.Node
		for i, f := range all {
			node := f.r.Node
			if node == nil {
				node = f.a.Node
			}
			if node == nil {
				node = f.rd.Node
			}
			j, ok := best[node]
			if !ok {
				order = append(order, node)
			}
			if !ok || f.sev > all[j].sev || f.sev == all[j].sev && all[j].r.Node == nil && f.r.Node != nil {
				best[node] = i
			}
		}
		for _, n := range order {
			f := all[best[n]]
			msg := ""
			switch {
			case f.r.Node != nil:
				msg = relayMessage(w, f.t, f.r)
			case f.rd.Node != nil:
				msg = readMessage(w, f.t, f.rd)
			default:
				msg = actionMessage(w, f.t, f.a)
			}
			pass.Report(analyze.Diagnostic{Node: n, Pos: n.Pos, Severity: f.sev, Detail: analyze.Exposure(f.t), Message: msg})
		}
	},
}

// relayMessage says who can start trigger t, what node r sends to whom,
// and what follows.
func relayMessage(w *n8nschema.Workflow, t *n8nschema.Node, r analyze.OpenRelay) string {
	kind, who := triggerKind(t)
	sends, send, whom, harm := "sends a message", "send to", "address", "spam or phishing sent as the owner"
	switch {
	case r.Call:
		sends, send, whom, harm = "places a phone call", "call", "number", "calls placed as the owner, each one billed to the owner's account"
	case r.PerMessage:
		sends, whom, harm = "sends a text message", "number", "spam sent as the owner, each one billed to the owner's account"
	}
	if r.Invite {
		sends, send = "creates an event in the owner's calendar", "invite"
		harm = "the calendar mails each guest an invitation from the owner's account: spam or phishing sent as the owner"
		if !r.Mailed {
			harm = "Google mails no invitation unless the node sets sendUpdates, but the event still lands on the guest's Google Calendar, from the owner's account"
		}
	}
	if fixedText(r) {
		harm = "its text is fixed, so a stranger picks only where it goes: unwanted mail from the owner's account"
		if r.Invite {
			harm = "its text is fixed, so a stranger picks only whom it invites: an unwanted invitation from the owner's account"
		}
	}
	x := strings.Trim(strings.TrimSpace(strings.TrimPrefix(r.Recipient, "=")), `"' `)
	prep := "to"
	if r.Invite {
		prep = "with the guest"
	}
	to := fmt.Sprintf("%s %q, taken from the request", prep, x)
	if analyze.Exposure(t) == "bot" {
		to = fmt.Sprintf("%s %q, taken from the message", prep, x)
	}
	if r.Agent != nil {
		to = fmt.Sprintf("%s %q, which the model of agent %q fills in from the caller's message", prep, x, r.Agent.Name)
	}
	fix := "authenticate the trigger"
	if analyze.Exposure(t) == "bot" {
		fix = botFix(t)
	}
	from, only := " from the owner's account", "send only to addresses the workflow looks up itself or to a fixed one"
	if r.Invite {
		from, only = "", "invite only addresses the workflow looks up itself or fixed ones"
	}
	msg := fmt.Sprintf(kind+" and %q %s%s %s: %s can make it %s any %s they choose (%s); %s, or %s",
		t.Name, r.Node.Name, sends, from, to, who, send, whom, harm, fix, only)
	if analyze.RunStateOf(w) != analyze.RunShown {
		msg += " (the export does not show the workflow active: strangers can use it once it is published)"
	}
	return msg
}

// actionMessage says who can start trigger t and what tool a.Node does in
// the owner's account on their word.
func actionMessage(w *n8nschema.Workflow, t *n8nschema.Node, a analyze.OwnerAction) string {
	kind, who := triggerKind(t)
	fix := "authenticate the trigger, or test the caller before the agent"
	if analyze.Exposure(t) == "bot" {
		fix = botFix(t)
	}
	msg := fmt.Sprintf(kind+" and the tool %q of agent %q %s in the owner's account as the model reads the caller's message: %s can have it done in the owner's name; %s",
		t.Name, a.Node.Name, a.Agent.Name, a.What, who, fix)
	if analyze.RunStateOf(w) != analyze.RunShown {
		msg += " (the export does not show the workflow active: strangers can use it once it is published)"
	}
	return msg
}

// relaySeverity is how loud a relay (or a read of the owner's data) from
// open trigger t is: a warning for a text or call, a public chat, a bot, a
// form the export shows published and a webhook whose path is words; a
// note for another webhook or form.
func relaySeverity(w *n8nschema.Workflow, t *n8nschema.Node, exp string, perMessage bool) analyze.Severity {
	switch {
	case perMessage, t.Type == n8nschema.TypeChatTrigger, exp == "bot":
		return analyze.Warning
	case t.Type == n8nschema.TypeFormTrigger:
		if analyze.RunStateOf(w) == analyze.RunShown {
			return analyze.Warning
		}
	case analyze.ReadablePath(t):
		return analyze.Warning
	}
	return analyze.Note
}

// readMessage says who can start trigger t, what tool rd.Node reads of
// the owner's data, and that the agent's answer goes back to them.
func readMessage(w *n8nschema.Workflow, t *n8nschema.Node, rd analyze.OwnerRead) string {
	kind, who := triggerKind(t)
	fix := "authenticate the trigger, or give the agent no tool that reads the owner's own account"
	if analyze.Exposure(t) == "bot" {
		fix = botFix(t) + ", or give the agent no tool that reads the owner's own account"
	}
	msg := fmt.Sprintf(kind+" and the tool %q of agent %q reads %s as the model reads the caller's message, and the agent's answer goes back to the caller: %s can ask it for %s and be told; %s",
		t.Name, rd.Node.Name, rd.Agent.Name, rd.What, who, rd.What, fix)
	if analyze.RunStateOf(w) != analyze.RunShown {
		msg += " (the export does not show the workflow active: strangers can use it once it is published)"
	}
	return msg
}

// triggerKind says who can start open trigger t, as a format for its
// name, and who that is.
func triggerKind(t *n8nschema.Node) (kind, who string) {
	kind, who = "webhook %q has no authentication", "anyone who learns its URL"
	switch t.Type {
	case n8nschema.TypeChatTrigger:
		kind, who = "chat %q is public with no authentication", "anyone with the link"
	case n8nschema.TypeFormTrigger:
		kind, who = "form %q has no authentication", "anyone with the link"
	}
	if analyze.Exposure(t) == "bot" {
		kind, who = botKind(t), "anyone who finds the bot and writes to it"
	}
	return kind, who
}

// fixedText reports a relay whose message (not a text billed per message,
// not a call) has nothing but its recipient computed: every other value
// of the node is a literal, so the stranger picks where a fixed notice
// goes, not what it says.
func fixedText(r analyze.OpenRelay) bool {
	if r.PerMessage || r.Call || r.Agent != nil {
		return false
	}
	fixed := true
	r.Node.Params().Walk(func(_ string, v n8nschema.Value) {
		if fixed && v.Kind() == n8nschema.String && v.IsExpr() && v.Str() != r.Recipient {
			fixed = false
		}
	})
	return fixed
}
