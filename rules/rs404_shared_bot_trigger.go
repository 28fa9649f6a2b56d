package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs404 = &analyze.Rule{
	ID:    "RS404",
	Name:  "shared-bot-trigger",
	Title: "two Telegram Triggers listen to one bot",
	Doc: `Telegram sends a bot's updates to one webhook URL at a time: setWebhook replaces the URL the bot had
(core.telegram.org/bots/api#setwebhook). n8n's Telegram Trigger calls setWebhook with its own URL when its
workflow is published, and deleteWebhook when it is unpublished (packages/nodes-base/nodes/Telegram/TelegramTrigger.node.ts
webhookMethods), and each trigger node has a URL of its own. So two Telegram Triggers on one bot credential, in
two workflows or in one, never both work: the one published last receives every message and the other none,
with no error anywhere; unpublishing either leaves both deaf until the other is published again, and a restart
of n8n publishes its workflows again in an order nobody chose. The person who writes to the bot sees no answer
come. Triggers that name one credential id share one bot; ids made of digits only (n8n before 1.0 numbered
credentials per instance) count as one only within one instance (meta.instanceId). Copies of one workflow (one
workflow id, which RS009 reports, or one trigger webhookId, which a copy keeps: its webhook path is the first's, so
n8n refuses to publish the second: "The URL path that the … node uses is already taken", packages/cli/src/workflows/triggers/webhook-trigger-registrar.ts)
and archived workflows are left out, and so are disabled triggers, which
register nothing. The finding is at the first trigger, naming the others; it is a warning when the export shows
two of the triggers published (in two workflows, or two in one), since then one of them is deaf now, and a
note otherwise: the clash comes once they are published.`,
	Fix:        "Give each workflow its own bot (a credential with another bot token from @BotFather), or route the bot's messages from one Telegram Trigger to the others with a Switch and Execute Workflow",
	FixDoc:     "None: which workflow keeps the bot is the owner's choice.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"triggers", "observability"},
	RunSet: func(pass *analyze.SetPass) {
		type trig struct {
			w *analyze.WorkflowSummary
			t *analyze.BotTrigger
		}
		byBot := map[string][]trig{}
		var bots []string
		seenCopy := map[string]bool{} // bot key and workflow id or webhookId of a trigger counted
		for i := range pass.Workflows {
			w := &pass.Workflows[i]
			if w.RunState == analyze.RunNever {
				continue
			}
			for j := range w.BotTriggers {
				t := &w.BotTriggers[j]
				key := t.Bot(w)
				if key == "" {
					continue // an instance's own number: which bot is not known
				}
				// A copy of a workflow already counted adds no trigger: it
				// keeps the workflow's id (RS009) and the node's webhookId.
				var ids []string
				if w.ID != "" {
					ids = append(ids, "wf\x00"+w.ID+"\x00"+t.Node)
				}
				if t.WebhookID != "" {
					ids = append(ids, "hook\x00"+t.WebhookID)
				}
				copied := false
				for _, c := range ids {
					c = key + "\x00" + c
					copied = copied || seenCopy[c]
					seenCopy[c] = true
				}
				if copied {
					continue
				}
				if _, ok := byBot[key]; !ok {
					bots = append(bots, key)
				}
				byBot[key] = append(byBot[key], trig{w, t})
			}
		}
		for _, key := range bots {
			ts := byBot[key]
			if len(ts) < 2 {
				continue
			}
			first, others := ts[0], ts[1:]
			// Loud when two of the triggers are live now: in two published
			// workflows, or two in one published workflow.
			live := map[*analyze.WorkflowSummary]int{}
			for _, x := range ts {
				if x.w.RunState == analyze.RunShown {
					live[x.w]++
				}
			}
			loud := len(live) >= 2
			for _, k := range live {
				loud = loud || k >= 2
			}
			sameWorkflow := true
			related := make([]analyze.Related, len(others))
			names := make([]string, len(others))
			for i, o := range others {
				sameWorkflow = sameWorkflow && o.w == first.w
				where := fmt.Sprintf("in workflow %q", o.w.Label())
				if o.w.Label() == "" {
					where = "in an unnamed workflow" // the related place names its file
				}
				if o.w == first.w {
					where = "in the same workflow"
				}
				related[i] = analyze.Related{File: o.w.Source.Name, Pos: o.t.Pos, Source: o.w.Source,
					Message: fmt.Sprintf("Telegram Trigger %q %s takes the same bot", o.t.Node, where)}
				names[i] = fmt.Sprintf("%q %s", o.t.Node, where)
			}
			bot := first.t.CredentialName
			if bot == "" {
				bot = first.t.CredentialID
			}
			msg := fmt.Sprintf("Telegram Trigger %q and %s listen to one bot (credential %q): Telegram sends a bot's updates to the one webhook set last, so only the trigger registered last (its workflow published last) receives messages and the others none, with no error; unpublishing any of them leaves them all deaf",
				first.t.Node, someNames(names, 3), bot)
			d := analyze.Diagnostic{Message: msg, Related: related}
			if !loud {
				d.Severity = analyze.Note
				d.Message += " (the export does not show two of them published: the clash comes once they are)"
			}
			pass.Report(first.w, &analyze.OperationSummary{Node: first.t.Node, Pos: first.t.Pos}, d)
		}
	},
}

// someNames joins the first n of names and counts the rest.
func someNames(names []string, n int) string {
	out := strings.Join(names[:min(n, len(names))], ", ")
	if len(names) > n {
		out += fmt.Sprintf(" and %d more", len(names)-n)
	}
	return out
}
