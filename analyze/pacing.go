package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Who drives a trigger decides what a failure costs. Executions that a
// person starts (a chat message, a form, a link opened in a browser) come
// one at a time, at a person's pace, and the person sees the silence when
// one fails or hangs. Executions that a machine starts (a schedule, a poll,
// a service's webhook, a queue) come on their own, fail together when a
// dependency fails, and nobody is there to notice.

// Pace says who drives a trigger's executions.
type Pace uint8

const (
	// PaceInternal: n8n or its caller starts it (a manual run, a
	// sub-workflow's caller, an error workflow): no trigger of its own.
	PaceInternal Pace = iota
	// PacePerson: a person's action starts each execution.
	PacePerson
	// PaceMachine: a schedule, a poll, a service or a queue does.
	PaceMachine
)

// personTriggers are the trigger nodes whose events are a person's
// message or submission: chats and messaging bots (a user's message or
// mention; nodes-base/nodes/Telegram/TelegramTrigger.node.ts and the like),
// where the person waits for the answer ("chat"), and form and booking
// services, where the person has left with the service's own confirmation
// ("form").
var personTriggers = map[string]string{
	n8nschema.TypeChatTrigger:                    "chat",
	"@n8n/n8n-nodes-langchain.manualChatTrigger": "chat",
	"n8n-nodes-base.telegramTrigger":             "chat",
	"n8n-nodes-base.whatsAppTrigger":             "chat",
	"n8n-nodes-base.slackTrigger":                "chat",
	"n8n-nodes-base.microsoftTeamsTrigger":       "chat",
	"n8n-nodes-base.twilioTrigger":               "chat",
	n8nschema.TypeFormTrigger:                    "form",
	"n8n-nodes-base.typeformTrigger":             "form",
	"n8n-nodes-base.jotFormTrigger":              "form",
	"n8n-nodes-base.surveyMonkeyTrigger":         "form",
	"n8n-nodes-base.formstackTrigger":            "form",
	"n8n-nodes-base.wufooTrigger":                "form",
	"n8n-nodes-base.facebookLeadAdsTrigger":      "form",
	"n8n-nodes-base.calendlyTrigger":             "form",
	"n8n-nodes-base.acuitySchedulingTrigger":     "form",
}

// Converses reports whether a trigger starts an execution for a person
// who waits for its answer in a chat or a messaging app: when it fails,
// the person sees no answer come.
func Converses(t *n8nschema.Node) bool { return personTriggers[t.Type] == "chat" }

// TriggerPace says who drives a trigger node's executions. A Webhook that
// answers GET is opened by a browser (an approval link, a "run now" link,
// a page); one that takes POST is called by a machine.
func TriggerPace(t *n8nschema.Node) Pace {
	switch typ := t.Type; {
	case n8nschema.IsInternalTrigger(typ) && typ != n8nschema.TypeManualChatTrigger:
		return PaceInternal
	case personTriggers[typ] != "":
		return PacePerson
	case typ == n8nschema.TypeWebhook:
		if webhookMethods(t) == "GET" {
			return PacePerson
		}
	}
	return PaceMachine
}

// webhookMethods returns the Webhook node's method (httpMethod, GET by
// default; nodes-base/nodes/Webhook/description.ts), or "" when it takes
// several.
func webhookMethods(t *n8nschema.Node) string {
	v, ok := t.Param("httpMethod")
	if !ok {
		return "GET"
	}
	if s := v.Str(); s != "" {
		return strings.ToUpper(s)
	}
	if es := v.Elems(); len(es) == 1 {
		return strings.ToUpper(es[0].Str())
	}
	return ""
}

// Paces returns, for every node that a trigger of g runs, the paces of
// the enabled triggers that reach it (bit 1<<Pace), in three walks.
func Paces(g *Graph) map[*n8nschema.Node]uint8 {
	out := map[*n8nschema.Node]uint8{}
	for _, p := range []Pace{PaceInternal, PacePerson, PaceMachine} {
		var queue []*n8nschema.Node
		seen := map[*n8nschema.Node]bool{}
		for _, t := range g.Triggers() {
			if !t.Disabled && TriggerPace(t) == p {
				queue = append(queue, t)
				seen[t] = true
			}
		}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			out[u] |= 1 << p
			for _, e := range g.Out(u) {
				if e.Type == ConnMain && !seen[e.To] {
					seen[e.To] = true
					queue = append(queue, e.To)
				}
			}
			for _, s := range g.SubNodes(u, "") {
				if !seen[s] {
					seen[s] = true
					queue = append(queue, s)
				}
			}
		}
	}
	return out
}

// PersonPaced reports whether what runs n is paced by people alone: a
// person-paced trigger reaches it and no machine-paced one does.
func PersonPaced(paces map[*n8nschema.Node]uint8, n *n8nschema.Node) bool {
	return paces[n]&(1<<PacePerson) != 0 && paces[n]&(1<<PaceMachine) == 0
}
