package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs205 = &analyze.Rule{
	ID:    "RS205",
	Name:  "agent-repeated-write",
	Title: "an agent may call a write tool again after it fails",
	Doc: `When a tool call fails, an agent can hand the error to the model as the tool's answer, and the model decides
what to do next: often, to call the tool again. An Agent v3 or later does this for every tool
(packages/@n8n/nodes-langchain/utils/agent-execution/buildSteps.ts); older agents for the tools that catch their
own failure and answer with it, the HTTP Request tool, the Code tool and the Call Workflow tool v1
(nodes/tools/ToolHttpRequest/utils.ts, nodes/tools/ToolCode/ToolCode.node.ts). That is one more retry layer,
decided by the model, bounded only by the agent's iterations (options.maxIterations, 10 by default); the chain
shows it as "model-retry". Around a write with no idempotency key (send an SMS, book an appointment, create a
record, charge a card), a call that timed out on the client may already have committed, and the model's second
call writes again. This is RS201's question asked of a layer n8n does not own, so it is its own rule: RS201
reports the tool when n8n retries it (retryOnFail), and this rule only when nothing but the model does. Severity
follows the consequence scale at one step lower than RS201, since the repeat needs a failure and the model's
choice: a warning when the duplicate reaches money or a third party (a charge, an order, a booking, also at an
endpoint whose last path segment names one such as the owner's webhook ".../webhook/vfd-book", a message to a
customer, an event whose attendees the data or the model gives, which the calendar invites again), a note for a second record, a message to a colleague the record names by role (RS201) or a write whose
endpoint says nothing of what it creates; alerts to the team are left out, and so is a POST that only reads (a
search or scrape API, or a body that carries only a query, {"locationQuery": …, "searchStringsArray": […],
"maxResults": 10}: analyze/endpoint.go, for every rule), and an HTTP Request tool whose URL path holds a
placeholder the model fills ("/bookings/{uid}/cancel") or whose POST body names the record it acts on by an id the model or the item gives
({"orderId": "{orderId}"} to ".../design/configure", an action, not a collection): it acts on one existing resource,
and a repeat re-applies the change. An HTTP Request tool that defines a placeholder none of its URL, query, headers or
body uses never calls: n8n throws "Misconfigured placeholder" while it hands the tool to the agent
(@n8n/n8n-nodes-langchain/nodes/tools/ToolHttpRequest/ToolHttpRequest.node.ts), and the agent fails before the model runs.
A tool that writes to a resource a template's blank names (the calendar "USER_EMAIL_PLACEHOLDER"), or posts to a
host that is one ("https://YOUR_N8N_HOST/webhook/book"), fails on every call as exported and writes nothing, and one that POSTs to a public mock or echo API (jsonplaceholder.typicode.com,
dummyjson.com, httpbin.org, postman-echo.com, ReqRes's demo endpoints) is faked and kept nowhere: neither is
reported (docs/n8n-facts.md, part EF).
A tool the model is told not to call again after an error is left out: the tool's description, or the agent's
system message or prompt text, holds "do not retry", "don't call it again", "stop immediately" or the like on the
line of a failure condition or the line after it ("If any tool call returns an error: stop immediately. Do not
retry."), or answers the failure with a message in place of a retry ("If a tool fails, say so plainly, then answer
from your own knowledge", "If a tool returns an error, explain the issue politely", "Notify the user if a tool
fails", "Tool error or empty result: apologize"), unless that line still asks for a retry first ("retry once, then
tell the user") or the failure is a person's ("if the customer reports an error"). A system message written as an
expression is read as n8n renders it: the \n escapes of its string literals are line breaks
({{ "Current date: " + $now + "\n6. If a tool fails, …" }}). An instruction in the agent's text covers every tool
unless its lines name another of the agent's tools and not this one (the line before counts only for the failure
condition it holds). A tool that only a manual run reaches is a note: a Manual Trigger, or a Chat Trigger that is not
public, which answers only the editor's test chat (ChatTrigger.node.ts webhook answers 404 outside a manual chat session); the
person testing sees each tool call.`,
	Fix:        "Send an idempotency key derived from the request with the write, make the tool look up the earlier effect first, or tell the model in the tool's description or the agent's system message not to call it again after an error",
	FixDoc:     "None: a key must come from the data the tool is given, and what the model is told is the owner's choice.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"writes", "retries", "agents"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		for op := range eachLiveOp(pass) {
			if !madeWrite(op) || op.Paid || op.Retried() {
				continue // RS201 speaks for a write n8n retries
			}
			agent, k := analyze.ModelRecalls(g, op.Node)
			if agent == nil || namedByModel(op.Node) {
				continue
			}
			if _, dead := analyze.UnusedPlaceholder(op.Node); dead {
				continue // n8n refuses to build the tool: it never calls
			}
			if op.BlankTarget || ownersHost(op.Dependency) {
				continue // a template's blank (a sheet id, YOUR_N8N_HOST): nothing is written until the owner names a real one
			}
			eff := analyze.ConsequenceIn(g, op.Node)
			sev := analyze.Severity(0)
			switch eff.Consequence {
			case analyze.Harm:
				sev = analyze.Warning
				if eff.Colleague {
					sev = analyze.Note // a colleague asked twice, not a customer
				}
			case analyze.SecondRecord, analyze.Unclear:
				sev = analyze.Note
			default:
				continue // same state, no effect, or an alert to the team
			}
			if analyze.ToldNotToRetry(g, agent, op.Node) {
				continue // the model is told not to call it again after an error: the third fix, applied
			}
			if key, ok := n8nschema.IdempotencyKeyOf(op.Node); ok {
				if st, _ := n8nschema.ClassifyKey(key.Value); st != n8nschema.KeyEmpty {
					continue
				}
			}
			msg := fmt.Sprintf("agent %q hands a failed call of its tool %q back to the model, which may call it again (up to %d iterations); the write (%s) carries no idempotency key, so a call that timed out may already have committed, and a duplicate is %s",
				agent.Name, op.Node.Name, k, eff.Op, eff.Duplicate)
			if watched(pass, op.Node) {
				// A manual run, the editor's test chat included: the
				// person testing sees each tool call and its repeat.
				sev = analyze.Note
				msg += " (" + byHandWhy(g, op.Node) + "; the person testing it sees each tool call)"
			}
			f := analyze.Factor{Kind: analyze.KindModelRetry, Value: k, Node: agent.Name, Workflow: pass.Workflow.Label(),
				Pos: agent.Pos, Source: pass.Workflow.Source}
			pass.Report(analyze.Diagnostic{Node: op.Node, Pos: op.Node.Pos, Severity: sev, Message: msg,
				Chain: withLayer(f, op)})
		}
	},
}

// namedByModel reports an HTTP Request tool whose URL path holds a
// placeholder the model fills ("/bookings/{bookingUid}/cancel"): the call
// acts on one existing resource the model names, and a repeat re-applies
// it.
func namedByModel(n *n8nschema.Node) bool {
	if n.Type != n8nschema.TypeToolHTTPRequest {
		return false
	}
	u := n.Params().Get("url").Str()
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return strings.Contains(u, "/{") && !strings.Contains(u, "{{")
}

// ownersHost reports a host a template leaves for its owner to name
// ("YOUR_N8N_HOST", "n8n.yourdomain.com"): a placeholder host that says
// whose it is. example.com and the like stand for a real service in
// examples, and are judged as one.
func ownersHost(host string) bool {
	h := strings.ToLower(host)
	return strings.Contains(h, "your") && n8nschema.PlaceholderHost(h)
}
