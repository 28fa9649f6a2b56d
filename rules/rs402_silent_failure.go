package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs402 = &analyze.Rule{
	ID:    "RS402",
	Name:  "silent-failure",
	Title: "an unattended workflow has no failure signal",
	Doc: `A workflow started by a schedule, a webhook, a form or an app trigger (polling Gmail, Drive, Sheets,
RSS, or fed by a service's webhooks) runs with nobody watching. When its external calls fail (a credential
expires, an API changes, a retry storm ends in an error), n8n records a failed execution and does nothing else
unless the workflow says so: no settings.errorWorkflow, no Error Trigger of its own (n8n runs a workflow's own
Error Trigger when no error workflow is set, cli/src/execution-lifecycle/execute-error-workflow.ts; a
settings.errorWorkflow that holds a workflow's name instead of its id sets none, for n8n looks it up by id
only and, the setting being non-empty, skips the own Error Trigger too, see RS005), no error
output wired to a handler, no dead-man's-switch ping. A webhook that answers with the last node's result or a
Respond to Webhook node tells its caller about the failure and is not reported; one that answers on receipt
is, and so is a form that answers on submission. A clock trigger whose stored rule registers no job (a Cron with
no trigger times, packages/nodes-base/nodes/Cron/Cron.node.ts; a Schedule Trigger whose rule.interval is an empty
list) starts only runs from the editor, where a person sees the failure. A schedule whose every run ends in a message to a fixed
recipient (a daily digest mailed to the owner, an alert in the team's channel, on every branch) is not reported,
whatever else its runs write: the owner expects the message at each tick, and the one that does not come is a
dead-man's switch that reaches a person (a write that fails stops the run before the message; one that continues
on failure is RS403's). That holds for a schedule that ticks at least weekly (its shortest gap, read as RS106
reads it: a Schedule Trigger's interval, days by default, weeks of 7 days, months of 28; the Cron node's modes,
everyWeek and everyMonth among them; the Interval node; a cron expression that steps, monthly when every field
down to the day of the month is fixed): a daily or weekly message is part of its reader's routine and its
absence is missed, while one due monthly, or once a year (a Schedule Trigger at daysInterval 360, which
recurrenceCheck lets through about once a year: packages/nodes-base/nodes/Schedule/GenericFunctions.ts), is
expected on no given day, and a failed run goes unnoticed, so such a schedule is reported. An interval that
cannot be read (an expression, a cron list) keeps the message as the signal. A channel, chat or recipient read from the item (a Mattermost
channel named by each row, the chat a bot's message came from) is no fixed recipient; a value that does not depend on
the item is: a literal, the instance's variables ($vars), its environment ($env: n8n 2.x denies it unless
N8N_BLOCK_ENV_ACCESS_IN_NODE is false, n8n-workflow workflow-data-proxy-env-provider.js, and then the node fails on every
run, a missing message too), or a Set node of those. Every run means every successful run reaches the message: a read that
returns everything its source holds keeps it (RSS Read lists each entry the feed holds, not only new ones; a
Google Sheets read with no filter returns every row, and so does a getAll of an Airtable, Baserow, Supabase,
NocoDB or Notion table, or a Postgres or MySQL select, with no filter, search or view, unless the workflow
deletes rows from that table; an SQL aggregate with no GROUP BY, SELECT count(*), answers one row even on an
empty table), while a Filter, a Remove Duplicates of items seen in
earlier executions, a Limit that is not a literal of at least 1, Code that may return no item, a search or a
list of what is new (mail received since yesterday, today's events) may leave a run with nothing to send (and a
polling trigger such as the RSS Feed Trigger is no schedule: it starts a run only for what is new). That holds when a failed call stops every message; where a message
goes out before a call that may still fail (a call past it, or on a branch of its own beside it, which n8n runs
after the message's branch; a Merge both lead to waits for both), a failed run still sends that message, and
the finding is a note. A form or webhook run that mails a fixed address stays reported: its owner expects no
message at any given time. An agent's tool
that sends to a fixed recipient (a Gmail tool whose sendTo is a literal address) ends the run in that message
as a node of the main flow would; a Code node's output is judged by its own top-level return, not by the returns
of the helper functions it defines (n8n runs the code as the body of one async function,
@n8n/task-runner/dist/js-task-runner/js-task-runner.js). So is a workflow
whose Code node catches the failures of its work and sets a flag (success: false) that an If or Switch after it
tests to send the failed item to an alert: the failures of that work are reported in-band. A chat shows its user the error, and a sub-workflow's caller
receives it. A messaging bot (Telegram, WhatsApp, Slack, Teams, a Twilio Trigger on new SMS, a Webhook whose workflow answers the
sender in a messaging app, or one Twilio posts inbound texts to, read by their Body and From fields, or one a
WhatsApp gateway posts messages to, whose text sits in a message object of the body, text.message or
message.conversation, and whose run posts a message to the phone or chat id that request carried, or replies to
the request's own message or conversation by the id it carried, as Feishu/Lark's POST …/messages/{message_id}/reply
or Chatwoot's POST …/conversations/{conversation_id}/messages, from an HTTP Request or from a Code node's
this.helpers.httpRequest, a private note aside; the sender may
be answered by any node, a community one included, such as the Evolution API node's messages-api with remoteJid read
from body.data.key.remoteJid, whatever the message was, a text, an image or a document; or an HTTP call whose body
field is that sender and nothing else, under whatever key the gateway names it (Fonnte's target, read from
body.sender through a Set node's copy and the Code nodes that read it), or mentions it (a Discord reminder's
<@{{ $json.userId }}> after a Code node that spreads the request's body); a fixed number or user, or numbers read
from a sheet, answer nobody) is a note: the
person who wrote sees no answer come. That holds only for a bot that answers: an app trigger's run must send a chat
message through the trigger's own app or to a recipient its data gives (a chat id in {{ }}); a relay that forwards
each message to a fixed channel, a board or a sheet and never answers is judged as any app trigger, since its
sender expects nothing and nobody sees a lost message. Nodes only a Switch rule that repeats an earlier one reaches
never run (the Switch sends each item to its first matching rule), so their writes do not count. A form or a shop
event posts its fields flat and is no conversation. A Twilio Trigger that hears only call summaries, or a webhook that takes
Twilio's delivery statuses, is a machine's. Triggers fire only in an active (published)
workflow, and an export shows one only by "active": true or a published version (activeVersion); "active":
false or no field says nothing either way (n8n import:workflow deactivates what it imports unless
--activeState=fromJson, cli/src/services/import.service.ts; source-control exports do not write the field), so
the finding is then a note: the silence is certain only once the workflow is published. An export shown active
keeps its severity when its trigger watches a template's blank (the author put it in to share the workflow, which
ran with a real one), and the finding says that a copy starts runs once the blank names a real resource. A workflow whose every trigger n8n
refuses for a required parameter left blank (RS010 names it) is read as it will run once the blank is filled
in, and every rule's finding on it says so and is a note: until then no run happens, and RS010's finding is the
one to act on (analyze.Graph.SetupBlank). The runs that reach the calls are judged as they are here, with the
blank filled in: a call to a placeholder host, which the owner fills in too, is still no call the rule counts.
The finding names the trigger whose runs make the calls and counts the calls those runs reach: a trigger
wired to nothing, a manual trigger's branch and disabled nodes make none, and neither does a call that
cannot be made as written (an HTTP Request with no URL, a placeholder host such as example.com or
yourdomain.com, a resource a template's blank names, such as the calendar "YOUR_CALENDAR_ID" or the chat
"YOUR_TELEGRAM_CHAT_ID", a model call n8n or the provider refuses as configured: the OpenAI node v1 with no model or
no prompt, a chat model sent to OpenAI's legacy completions endpoint; an app node set to a resource or
operation its code has no branch for, which throws or sends nothing: Airtable v1's "create", Slack v1's
"postMessage", NocoDB v1 or Twilio at a resource they do not define, where n8n drops the operation the code
reads first, packages/nodes-base/nodes/Airtable/v1/AirtableV1.node.ts, Slack/V1/SlackV1.node.ts,
NocoDB/v1/NocoDBV1.node.ts, Twilio/Twilio.node.ts; a declarative
node at one its description lacks, for which n8n's routing adds no request and sends only a bare one to the
service's base URL: the legacy OpenAI node's text "generate", packages/core/src/execution-engine/routing-node.ts),
nor a node after a node that reads, in a parameter, a node the workflow does not have (RS010), nor a
node after such a refused call, where the run stops, or after a node that returns no items (Notion v2 set to
an operation it lacks, packages/nodes-base/nodes/Notion/v2/NotionV2.node.ts), nor a call n8n never reaches
because the execution ends first: after a node with a connection to a missing node, which n8n ends the
execution at once it has run ("Destination node not found", packages/core/src/execution-engine/workflow-execute.ts),
or on a sibling that node's parent runs after it (lower on the canvas under executionOrder v1, listed after it
otherwise), or on a sibling that executionOrder v1 runs after a node failing on every run (above it or left of
it on the canvas: v1 sorts a parent's children by position and unshifts them onto the stack, and the run stops at
the failure); with no call left, there is no finding. Once other calls make a finding, the count names the calls to
a resource a template's blank names too, apart: the service is real and the owner fills the blank in. Nor is there one when the runs leave nothing behind: only reads,
model calls and data shaping, no write, message, answer or sub-workflow, so a failed run loses nothing. That is
judged, as the calls are, on what a run reaches before it must fail: a write after a node that fails on every
run (a model its provider shut down, a read of a node the workflow lacks: RS010) never happens, nor does one by
that node itself or by a tool of an agent that fails before it calls its tools, so a run that downloads a file,
then stops at a refused model call before it updates the CRM, only reads, and the cause is RS010's. A POST that
only asks a model API for an answer is such a model call, not a write: a generation, an embedding, a moderation, a
transcription, speech, an OCR (Mistral's /v1/ocr), and the upload of its input to Mistral's files API (purpose
"ocr"). So is an operation that runs a job and answers with its output, as Apify's run-sync endpoint does over HTTP:
the Apify community node's "Run actor and get dataset" (apify/n8n-nodes-apify, run-actor-and-get-dataset/execute.ts
starts the run, polls it to its end and returns the dataset's items); a community node's other operations, which
stormcheck cannot read, count as writes. A Code node whose every request is a GET or a HEAD (this.helpers.httpRequest
or fetch with that method as a literal, or with none, which sends GET) only reads; one that states another method,
computes it, or loads a module may write. An SSH node runs its command on the host, and the command decides: it
reads only when every statement of it is a known read-only command (df, uptime, free, cat, ls, grep, awk, docker ps,
systemctl status, …), with nothing written to a file (no >, tee, sed -i, find -delete) and no heredoc or script; any
other command, or one an expression computes, may write. A Data Table is no external call: it reaches n8n's own database
inside the execution (nodes-base/nodes/DataTable/common/utils.ts).`,
	Fix:        "Set an error workflow in the workflow settings (an Error Trigger that alerts a channel), or handle the calls' error outputs",
	FixDoc:     "None: where to send a failure signal (an error workflow, an alert) is the author's choice.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"observability"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		g := pass.Set.Graph(w)
		// A name in settings.errorWorkflow starts no error workflow, nor
		// the workflow's own Error Trigger (analyze.Call.ByName).
		byName := pass.Set.ErrorWorkflowByName(w)
		if w.Settings.ErrorWorkflow != "" && byName == nil {
			return
		}
		// A machine's trigger first: what a person starts, a person sees
		// go silent. Only the calls a trigger's runs reach count: a
		// webhook wired to nothing starts no call, and a manual branch
		// beside the schedule is not unattended.
		ops := liveOps(pass)
		if len(ops) == 0 {
			return // no call to fail
		}
		for _, e := range g.Edges {
			if e.Error {
				return // an error output is handled
			}
		}
		byNode := indexOps(ops)
		var trigger *n8nschema.Node
		var reached []*analyze.Operation
		how, byPerson, endsOwn, blank := "", false, false, 0
		for _, t := range g.Triggers() {
			if t.Disabled {
				continue
			}
			if t.Type == n8nschema.TypeErrorTrigger && byName == nil {
				return
			}
			if analyze.SameRuns(g, t) != t {
				continue // an earlier webhook's runs were these, and led where these lead
			}
			h := unattended(t)
			if analyze.ByHand(t) {
				h = "" // only a person's run from the editor starts it
			}
			if h == "" {
				continue
			}
			if trigger != nil && !byPerson {
				continue
			}
			// What a run reaches before it must fail: nothing after a
			// node that fails on every item runs, and that node, whose
			// cause RS010 reports, leaves nothing either.
			reach, calls, blanks := reachedBy(pass, g, t, ops, byNode)
			if len(calls) == 0 || analyze.LeavesNothing(reach) {
				continue // no call, or nothing a failed run would lose
			}
			ends, reports := analyze.ReportsItself(g, t, callNodes(calls))
			if reports {
				continue // the message the owner expects at each tick is the signal
			}
			person := analyze.ConversesIn(g, t) && analyze.RepliesToSender(g, t)
			if trigger != nil && person {
				continue
			}
			trigger, how, byPerson, endsOwn, reached, blank = t, h, person, ends, calls, blanks
		}
		if trigger == nil {
			return
		}
		for _, n := range g.Nodes {
			if !n.Disabled && n8nschema.PingsSwitch(n) {
				return
			}
		}
		d := analyze.Diagnostic{Node: trigger, Pos: trigger.Pos}
		// A call to a resource a template's blank names fails as exported
		// (analyze.CannotCall) and counts for no firing, but once the
		// owner fills the blank it is one of the run's calls.
		n, blanks := len(reached)+blank, ""
		if blank > 0 {
			blanks = fmt.Sprintf(" (%d to a resource the export names with a template's blank, for the owner to fill in)", blank)
		}
		d.Message = fmt.Sprintf("the workflow runs on %s (%q) and makes %d external %s%s, but nothing reports a failure: no error workflow, no error output, no dead-man's switch",
			how, trigger.Name, n, plural(n, "call", "calls"), blanks)
		if byName != nil {
			d.Message += fmt.Sprintf(" (settings.errorWorkflow %q is a name, and n8n looks the error workflow up by id only: none runs)", byName.Ref)
		}
		// The person who wrote to the bot sees no answer come; and the
		// silence is certain only once the workflow is published.
		if c := analyze.ReportsCaughtFailures(g); c != nil {
			// Observed in-band: the code catches and an alert follows.
			d.Severity = analyze.Note
			d.Message += fmt.Sprintf(" (node %q catches the failures of its work and a condition on its flag sends them to an alert)", c.Name)
		} else if byPerson {
			d.Severity = analyze.Note
		} else if endsOwn {
			// A message goes out before a later call: a run that fails
			// still delivers it.
			d.Severity = analyze.Note
			if analyze.DigestTooLarge(g, trigger) {
				d.Message += " (every run ends in messages to a fixed recipient; whether a call may fail after one has gone out is not read in a run this large)"
			} else {
				d.Message += " (every run ends in messages to a fixed recipient, but one goes out before a call that may still fail, so a failed run still sends it)"
			}
		} else if analyze.RunStateOf(w) != analyze.RunShown {
			d.Severity = analyze.Note
			d.Message += " (the export does not show the workflow active: its triggers fire only once it is published)"
		} else if param, ok := n8nschema.BlankLocator(trigger); ok {
			// Shown active, so the author's copy watched a real resource
			// and the blank was put in to share it (analyze.blankOf); a
			// copy of the export runs once it is filled in.
			d.Message += fmt.Sprintf(" (the export shows it active with %q a template's blank: a copy of it starts runs once that names a real resource)", param)
		}
		pass.Report(d)
	},
}

// reachedBy returns what t's runs reach before they must fail
// (analyze.RunReach: nodes along main connections from t that carry items,
// the sub-nodes their roots call, and where a reached node runs this
// workflow as its own sub-workflow, Execute Workflow of $workflow.id, what
// its entry reaches) and the operations of ops among it; disabled nodes
// make no call, and a Data Table, which runs inside n8n, is no external
// call; blanks counts the calls among it to a resource a template's
// blank names (Operation.BlankTarget), which fail until the owner fills
// the blank in.
func reachedBy(pass *analyze.Pass, g *analyze.Graph, t *n8nschema.Node, ops []*analyze.Operation, byNode opsByNode) (reach analyze.Reach, out []*analyze.Operation, blanks int) {
	reach = analyze.RunReach(g, t)
	for _, c := range pass.Set.CallsFrom(pass.Workflow) {
		if c.Self && c.Node != nil && reach.Has(c.Node) && len(c.Entry) > 0 && (c.Kind == analyze.CallExecute || c.Kind == analyze.CallTool) {
			reach = analyze.RunReach(g, append([]*n8nschema.Node{t}, c.Entry...)...)
			break // every self-call enters at the same nodes
		}
	}
	for _, op := range opsIn(ops, byNode, reach) {
		switch {
		case op.Node.Disabled || analyze.InProcess(op.Node):
		case !analyze.CannotCall(op):
			out = append(out, op)
		case !analyze.CallsNowhere(op):
			blanks++ // only its target is a blank: the service is real
		}
	}
	return reach, out, blanks
}

// unattended says how a trigger starts executions that nobody watches, or
// "" when someone sees a failure: a schedule; a polling trigger (n8n polls
// Gmail, Drive, Sheets, RSS... on its own, nodes.json polling: true); a
// webhook or form that answers before the work is done; an app trigger fed
// by the service's webhooks. A manual run, a sub-workflow's caller, a chat
// (the person sees the reply, or the error, in the chat), an MCP client and
// a webhook or form that answers with the result all see the failure.
func unattended(t *n8nschema.Node) string {
	switch typ := t.Type; {
	case analyze.ByHand(t):
		return "" // a clock that registers no job: only a person runs it
	case n8nschema.IsScheduleTrigger(typ):
		return "a schedule"
	case typ == n8nschema.TypeWebhook:
		if answersFailure(t) {
			return ""
		}
		return "a webhook that answers on receipt"
	case typ == n8nschema.TypeFormTrigger:
		if answersFailure(t) {
			return ""
		}
		return "a form that answers on submission"
	case n8nschema.IsInternalTrigger(typ), typ == n8nschema.TypeChatTrigger, typ == n8nschema.TypeMCPTrigger:
		return ""
	case n8nschema.IsPollingTrigger(typ):
		return "a polling trigger"
	case n8nschema.IsTriggerNode(typ) && n8nschema.IsWebhookNode(typ):
		return "an app trigger"
	}
	return ""
}

// answersFailure reports whether a Webhook node answers after the
// workflow ran (responseMode lastNode or responseNode), so that its caller
// sees a failure (nodes-base/nodes/Webhook/description.ts responseMode).
func answersFailure(n *n8nschema.Node) bool {
	v, _ := n.Param("responseMode")
	switch v.Str() {
	case "lastNode", "responseNode":
		return true
	}
	return false
}

// callNodes returns the nodes of calls.
func callNodes(calls []*analyze.Operation) []*n8nschema.Node {
	out := make([]*n8nschema.Node, len(calls))
	for i, c := range calls {
		out[i] = c.Node
	}
	return out
}
