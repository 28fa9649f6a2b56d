package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
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
workflow on the key. The rule reports the trigger when a paid call runs behind it, no spend cap is declared for
its provider in .stormcheck.yaml (spend.caps; RS303 then says how fast it is reached), and nothing on the way
looks like a rate limit (a node or condition that names a rate limit, a quota, a counter of requests). A public
chat is a warning: it is made to be shared or embedded in a site. A form or a webhook is a note: a form is often a
team's own tool, and a webhook's URL (its path is a random id unless set) is a secret as long as nobody shares it; a
webhook that the workflow reads as called by a known service (a Stripe, Shopify, Slack, GitHub or Meta event) is left out.`,
	Fix:        "Put authentication on the trigger (basic auth, header auth, n8n user auth), or a rate limit before the paid call, and declare the provider's hard spend limit in .stormcheck.yaml",
	FixDoc:     "None: authentication needs a credential the callers must be given, and a rate limit a number only the owner can choose.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"spend", "security"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		g := pass.Set.Graph(w)
		ops := liveOps(pass)
		for _, t := range g.Triggers() {
			exp := analyze.Exposure(t)
			if exp == "" {
				continue
			}
			if key, _ := analyze.SenderOf(w, t); exp == "url" && (key != "" || calledInSet(pass.Set, w, t)) {
				continue // a service's events, signed by it, or a workflow's own call
			}
			reach := analyze.ReachFrom(g, t)
			var paid []*analyze.Operation
			for _, op := range ops {
				if !op.Paid || !reach[op.Node] {
					continue
				}
				if _, capped := analyze.SpendCapFor(pass.Options, providers(op)...); capped {
					continue
				}
				paid = append(paid, op)
			}
			if len(paid) == 0 || rateLimited(g, reach) || exp == "url" && checksCaller(g, reach) {
				continue
			}
			op := paid[0]
			what := fmt.Sprintf("%q (%s)", op.Node.Name, modelText(op))
			if len(paid) > 1 {
				what += fmt.Sprintf(" and %s", counted(len(paid)-1, "more paid call", "more paid calls"))
			}
			kind, sev := "webhook %q has no authentication", analyze.Note
			switch t.Type {
			case n8nschema.TypeChatTrigger:
				kind, sev = "chat %q is public with no authentication", analyze.Warning
			case n8nschema.TypeFormTrigger:
				kind = "form %q has no authentication"
			}
			who := "anyone with the link"
			if exp == "url" {
				who = "anyone who learns its URL"
			}
			pass.Report(analyze.Diagnostic{Node: t, Pos: t.Pos, Severity: sev, Detail: exp,
				Message: fmt.Sprintf(kind+" and runs the paid call %s: %s can run it as often as they like, billed to the owner's key, with no rate limit on the way and no spend cap declared",
					t.Name, what, who),
				Chain: op.Factors})
		}
	},
}

// calledInSet reports whether a workflow of the set calls webhook t: its
// callers are n8n workflows, known to the owner.
func calledInSet(s *analyze.Set, w *n8nschema.Workflow, t *n8nschema.Node) bool {
	for _, c := range s.CallsTo(w) {
		if c.Kind == analyze.CallWebhook && slices.Contains(c.Entry, t) {
			return true
		}
	}
	return false
}

// callerCheckRE matches a test of the request's credentials: a header
// that carries a key, a token, a secret or a signature.
var callerCheckRE = lazyregexp.New(`(?i)headers[\w.\[\]'"]*(authorization|x-api-key|api[_-]?key|token|secret|signature|x-hub|x-auth)`)

// checksCaller reports whether the run tests who calls it: a branch or
// code node that reads a credential header. Such a webhook checks its
// callers itself.
func checksCaller(g *analyze.Graph, reach map[*n8nschema.Node]bool) bool {
	for _, n := range g.Nodes {
		if reach[n] && !n.Disabled && (n8nschema.IsBranch(n.Type) || n8nschema.IsCode(n.Type)) && callerCheckRE.MatchString(n.Params().Raw()) {
			return true
		}
	}
	return false
}

// rateLimitRE matches what names a rate limit or a request counter.
var rateLimitRE = lazyregexp.New(`(?i)rate[ _-]?limit|throttl|quota|too many|max[ _-]?requests|requests? per|request[ _-]?count|usage[ _-]?limit|credits?\b`)

// rateLimited reports whether a node the run reaches looks like a rate
// limit: its name, or the text of a branch or code node, says so.
func rateLimited(g *analyze.Graph, reach map[*n8nschema.Node]bool) bool {
	for _, n := range g.Nodes {
		if !reach[n] || n.Disabled {
			continue
		}
		if rateLimitRE.MatchString(n.Name) {
			return true
		}
		if n8nschema.IsBranch(n.Type) || n8nschema.IsCode(n.Type) || strings.Contains(n.Type, "redis") {
			if rateLimitRE.MatchString(n.Params().Raw()) {
				return true
			}
		}
	}
	return false
}
