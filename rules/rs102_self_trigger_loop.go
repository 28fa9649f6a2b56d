package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs102 = &analyze.Rule{
	ID:    "RS102",
	Name:  "self-trigger-loop",
	Title: "the workflow can re-start itself with no bound",
	Doc: `A workflow that can start a new run of itself has no bound on its attempts: every trip is a fresh
execution with a fresh retry budget, so n8n's retries, the execution timeout and the loop guard of the
executor never stop it. The usual shapes: an error branch that POSTs to the workflow's own webhook to "restart
from the last batch" (the seed incident: 5 tries of a paid model call per trip, trips without end), an Execute
Workflow or Call Workflow Tool whose id is the workflow's own (or {{ $workflow.id }}) and whose start leads
back to the calling node, two workflows that call each other, and error workflows that name each other. A
restart sent per item (an HTTP Request, which sends one request per item, or an Execute Workflow in mode
"each") grows with the failed items: each one starts a run of its own, so with three failed items n8n 2.8.4
ran 1, 3, 9, 27, 81, 243 executions, about 20 s apart, and the message says so. n8n
has no recursion-depth limit for sub-workflows (packages/cli/src/workflow-execute-additional-data.ts) and
guards only a workflow that is its own error workflow
(packages/cli/src/execution-lifecycle/execute-error-workflow.ts). A call into a separate branch of the same
workflow (an agent's tool that starts at the Execute Workflow Trigger) is not a cycle and is not reported. Nor is
a recursion that carries a number stepped toward a base case (the call passes {{ $json.n - 1 }} and an If of
the callee compares n with a limit): each call is a step nearer the end. Nor is a restart that waits for a person
on every trip: a Wait resumed by a webhook or a form, a Form page or a send-and-wait message on the way (an approve
or regenerate link sent to someone), or a combining Merge whose other input comes only past one; it goes round once
per answer. A
trigger on the workflow's own writes is one too: a Notion "page updated in database" trigger whose workflow
updates that page, a Sheets, Airtable or Drive trigger on the sheet, table or folder the workflow writes into.
The next poll sees the write and starts the workflow again; it is reported unless an If, Switch or Filter lies
on the way. A Notion Trigger with no stored event runs its default (page added to database), which an update
does not fire, and an Airtable Trigger fires on an update only when its trigger field is a last-modified time. A
Slack Trigger that hears messages ("message", "any_event", or "file_share", with which n8n keeps every event type) is
one when its workflow posts into the channel it watches (a Slack node's message, or an HTTP Request to chat.postMessage,
into the same channel id, the channel of the message that started the run, or, when it watches the whole workspace,
any channel with the same credential, as another may belong to another workspace): Slack sends a
message event for every message posted to a channel the app is in, its own included, and the trigger's webhook drops
an event only for its type, its channel, a user named in "Usernames or IDs to Ignore" and a reaction's emoji, never
for a bot_id or subtype (n8n-nodes-base/dist/nodes/Slack/SlackTrigger.node.js webhook). It is not reported when the
trigger ignores a user (the bot may be one) or an If, Switch, Filter or Code node on the way tests the user, bot_id,
app_id or subtype; an If that tests something else is named in the message, as the app's post may pass it as a
person's does. An ephemeral message and a mention-only trigger start nothing.

A node that may throw before it calls, because it reads by name a node of a lower branch that n8n's v1 order may
not have run yet when the upper branch's item reaches it (RS010's note), restarts the workflow only on the runs
where it does not: it is a warning that says so, and it is left out when another node surely restarts the workflow
through the same trigger (that finding says the loop).`,
	Fix:        "Break the cycle: record the failure and let a schedule or a person resume the work, or carry a depth counter and stop at a fixed limit; a Slack Trigger: name the bot in its Usernames or IDs to Ignore, or drop messages that carry a bot_id",
	FixDoc:     "None: breaking a self-trigger cycle means choosing where the work should stop (a counter, a guard); a guess would drop work.",
	Severity:   analyze.Error,
	Confidence: analyze.High,
	Tags:       []string{"loops", "call-graph"},
	Run: func(pass *analyze.Pass) {
		calls := pass.Set.CallsFrom(pass.Workflow)
		g := pass.Set.Graph(pass.Workflow)
		// A node that may throw before it calls (it reads a node of a lower
		// branch that the v1 order may not have run yet) restarts the
		// workflow only on the runs where it does not: when another node
		// surely restarts it through the same entry, that one says the loop.
		mayFail := func(c *analyze.Call) (analyze.JoinRead, bool) {
			if c.Node == nil {
				return analyze.JoinRead{}, false
			}
			return g.LaterSiblingRead(c.Node)
		}
		sureEntry := map[*n8nschema.Node]bool{}
		for _, c := range calls {
			if _, doubt := mayFail(c); c.Cycle && !doubt && len(c.Entry) > 0 {
				sureEntry[c.Entry[0]] = true
			}
		}
		for _, c := range calls {
			if !c.Cycle {
				continue
			}
			jr, doubt := mayFail(c)
			if doubt && len(c.Entry) > 0 && sureEntry[c.Entry[0]] {
				continue
			}
			d := analyze.Diagnostic{Node: c.Node, Pos: c.Pos, Detail: c.Kind.String() + "\x00" + c.Ref}
			target := fmt.Sprintf("workflow %q", c.To.Label())
			if c.Self {
				target = "this workflow"
			}
			switch c.Kind {
			case analyze.CallWebhook:
				d.Message = fmt.Sprintf("node %q calls the webhook %q of %s, which leads back to this node: the workflow re-starts itself with no bound",
					c.Node.Name, c.Entry[0].Name, target)
			case analyze.CallOwnWrite:
				_, op := n8nschema.WriteOp(c.Node)
				d.Message = fmt.Sprintf("node %q writes (%s) where trigger %q watches: the next poll sees the write and starts this workflow again, which writes again, with no bound",
					c.Node.Name, op, c.Entry[0].Name)
				if c.Entry[0].Type == "n8n-nodes-base.slackTrigger" {
					d.Message = fmt.Sprintf("node %q posts into a channel where trigger %q hears messages: Slack sends the app's own post as a message event, the trigger does not drop it, and it starts this workflow again, which posts again, with no bound",
						c.Node.Name, c.Entry[0].Name)
				}
			case analyze.CallErrorWorkflow:
				d.Message = fmt.Sprintf("settings.errorWorkflow runs %s, whose failures lead back to this workflow: error workflows re-start each other with no bound",
					target)
			default:
				d.Message = fmt.Sprintf("node %q runs %s, which leads back to this node: the workflow re-starts itself with no bound",
					c.Node.Name, target)
			}
			if len(c.Entry) > 0 {
				e := c.Entry[0]
				d.Related = []analyze.Related{{File: c.To.Source.Name, Pos: e.Pos, Source: c.To.Source,
					Message: fmt.Sprintf("the run starts again at %q", e.Name)}}
			}
			if c.Branch != nil {
				d.Confidence = analyze.Medium
				d.Message += fmt.Sprintf(" unless %q routes every run around it", c.Branch.Name)
			}
			if doubt {
				d.Severity, d.Confidence = analyze.Warning, analyze.Medium
				d.Message += fmt.Sprintf("; it does so only on the runs where it does not fail first: it reads node %q, which n8n's v1 order has not run yet when an item of %q reaches it (RS010)", jr.Name, jr.Above.Name)
			}
			if restartsPerItem(c) {
				d.Message += "; " + perItemGrowth(pass.Set, c)
			}
			d.Chain = cycleChain(pass.Set, c)
			pass.Report(d)
		}
	},
}

// cycleChain is the chain of the worst operation that the cycle closed by
// c makes unbounded (the one with the longest chain), preferring those
// whose self-trigger factor names c's node; nil when the workflow has none.
func cycleChain(s *analyze.Set, c *analyze.Call) []analyze.Factor {
	var best, fallback *analyze.Operation
	for _, op := range s.OperationsOf(c.From) {
		for _, f := range op.Factors {
			if f.Kind != analyze.KindSelfTrigger || !f.Unbounded {
				continue
			}
			if fallback == nil || len(op.Factors) > len(fallback.Factors) {
				fallback = op
			}
			if (c.Node == nil || f.Node == c.Node.Name) && (best == nil || len(op.Factors) > len(best.Factors)) {
				best = op
			}
			break
		}
	}
	if best == nil {
		best = fallback
	}
	if best == nil {
		return nil
	}
	return best.Factors
}
