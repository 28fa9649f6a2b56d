package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A chat app is where a team talks to itself, but a bot's chat is also
// where it talks to each of its users. Telegram's sendMessage goes to the
// chat_id the node gives (Telegram.node.js L2148-2153: body.chat_id is
// the chatId parameter), and Discord's message send to a user opens a DM
// with the userId it gives (Discord/v2/actions/common.description.js
// sendToProperties: sendTo "user", userRLC). Who receives the message is
// that parameter:
//
//   - written in the node or read from the instance's variables ($env,
//     $vars): the team's chat or the owner's (configured);
//   - the chat of a person whose message started the run (a Telegram
//     Trigger's, a chat's): an answer in that conversation;
//   - read from other data in a run no person's message started (a price
//     alert's user_id, a "Users" sheet of subscribers on a schedule): a
//     message to each user the data names, a customer of the bot.

// botRecipient returns the parameter that names whom a bot's message goes
// to: a Telegram send's chatId, a Discord message sent to a user's DM
// (sendTo "user") its userId. ok is false for every other node and
// operation (a Slack, Teams or Mattermost channel is the team's
// workspace, whatever reads it; LINE's node is LINE Notify, which posts to
// the token's own chat).
func botRecipient(n *n8nschema.Node) (string, bool) {
	_, op := n8nschema.WriteOp(n)
	name := op[strings.LastIndexByte(op, '.')+1:]
	if !strings.HasPrefix(name, "send") || name == "sendChatAction" || name == "sendAndWait" {
		return "", false
	}
	param := ""
	switch strings.TrimSuffix(n.Type, "Tool") {
	case "n8n-nodes-base.telegram":
		param = "chatId"
	case "n8n-nodes-base.discord":
		if s, ok := n.Param("sendTo"); !ok || s.Kind() != n8nschema.String || s.Str() != "user" {
			return "", false // a channel by default (sendTo "channel")
		}
		param = "userId"
	default:
		return "", false
	}
	v, ok := n.Param(param)
	if !ok {
		return "", false
	}
	if s := v.Get("value"); s.Kind() == n8nschema.String {
		return s.Str(), true // a resource locator {"__rl": true, "value": …}
	}
	if v.Kind() != n8nschema.String {
		return "", false
	}
	return v.Str(), true
}

// messagesBotUsers reports a bot's message whose recipient is read from
// the data (botRecipient reads the item or another node's output, not only
// its parameters, and is not configured) in a node that only runs no person's message started
// reach (quietReach).
func messagesBotUsers(g *Graph, n *n8nschema.Node) bool {
	x, ok := botRecipient(n)
	if !ok || !strings.Contains(x, "{{") || !readsItem(paramReadRE.ReplaceAllString(x, "")) || configured(x) || setConfigured(g, n, x) {
		return false
	}
	i, ok := g.index(n)
	return ok && g.quietReach()[i]
}

// quietReach marks the nodes some trigger reaches and none whose runs may
// answer a person or report to the team does: a chat app's trigger, a
// Webhook that relays a chat (ConversesIn), an Execute Workflow Trigger
// (its caller may pass on the chat it answers) or an Error Trigger (its
// messages are the team's alerts). A Schedule, a poll, a form or a
// service's webhook starts the runs that remain.
func (g *Graph) quietReach() []bool {
	g.quietOnce.Do(func() {
		var quiet, loud []*n8nschema.Node
		for _, t := range g.Triggers() {
			if t.Disabled {
				continue
			}
			switch {
			case t.Type == n8nschema.TypeExecuteWorkflowTrigger || t.Type == n8nschema.TypeErrorTrigger || ConversesIn(g, t):
				loud = append(loud, t)
			default:
				quiet = append(quiet, t)
			}
		}
		g.quiet = make([]bool, len(g.Nodes))
		if len(quiet) == 0 {
			return
		}
		q, l := g.walk(true, quiet), g.walk(true, loud)
		for i, nd := range g.Nodes {
			g.quiet[i] = q.Has(nd) && !l.Has(nd)
		}
	})
	return g.quiet
}

// setConfigured reports a recipient that is one {{ }} reading a field a
// Set node of the workflow writes as a literal, or from the instance's
// variables ("Config": chatId = "-100123", or "<your chat id>" or "" for
// the importer to fill in): set by whoever built the workflow, as a literal
// in the node is.
func setConfigured(g *Graph, n *n8nschema.Node, x string) bool {
	m := soleExprRE.FindStringSubmatch(strings.TrimSpace(x))
	if m == nil {
		return false
	}
	// A literal, even empty (a blank the importer fills in), or the
	// instance's variables.
	return setFixes(g, n, strings.TrimSpace(m[1]), func(v string) bool { return !strings.Contains(v, "{{") || configured(v) })
}

// soleExprRE matches a parameter that is one {{ }} and nothing else.
var soleExprRE = lazyregexp.New(`^=?\{\{([^{}]*)\}\}$`)

// paramReadRE matches a read of another node's parameter
// ($node["Config"].parameter["values"]…): what the builder wrote in that
// node, not the data.
var paramReadRE = lazyregexp.New(`\$node\[\s*["'][^"']+["']\s*\]\s*\.\s*parameter\b`)
