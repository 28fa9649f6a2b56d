package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A Slack Trigger that hears messages in a channel its own workflow posts
// into starts that workflow again on each post. The trigger subscribes to
// nothing itself (Slack/SlackTrigger.node.js webhookMethods L285-297: the
// Slack app's event subscriptions decide what is sent) and webhook()
// drops an event only for (L298-359):
//
//   - its type: kept when the Trigger On list holds it, "any_event" or
//     "file_share" (L321-327: with file_share every type passes);
//   - its channel: event.channel must equal channelId unless Watch Whole
//     Workspace is on (L328-339);
//   - its user: event.user (or event.message.user) named in options.userIds,
//     "Usernames or IDs to Ignore" (L340-346);
//   - a reaction's emoji (L347-359).
//
// Nothing reads bot_id or subtype: the app's own posts pass. Slack sends a
// message.channels event for every message posted to a channel the app is
// in (docs.slack.dev/reference/events/message.channels), the app's own
// included; a post through a bot token carries the bot's user id and a
// bot_id (Bolt drops these by default, slack_bolt IgnoringSelfEvents:
// "message events can have $.event.bot_id"; its maintainers call replying
// to the app's own message events an infinite-loop pitfall,
// slackapi/bolt-python#307). An ephemeral message (chat.postEphemeral) is
// sent to no channel's history and makes no event; an app_mention fires
// only for a message naming the app, which its own post does not.

const typeSlackTrigger = "n8n-nodes-base.slackTrigger"

// slackMessageEvents are the Trigger On values whose webhook keeps a
// message event (SlackTrigger.node.js L323-325).
var slackMessageEvents = map[string]bool{"message": true, "any_event": true, "file_share": true}

// botFieldRE finds a condition on who wrote a Slack message: its user, its
// bot_id, bot_profile or app_id, its subtype (bot_message).
var botFieldRE = lazyregexp.New(`(?i)\b(?:bot_id|bot_profile|app_id|subtype|is_bot|botid)\b|(?:\.|\[\s*["'])user\b`)

// maxSlackWalks bounds the Slack Triggers of one workflow whose runs are
// walked (each walk visits the nodes a run reaches): a workflow past it is
// hand- or machine-made, and its later triggers are not judged, so a
// hostile file of thousands of triggers costs a bounded multiple of its
// size.
const maxSlackWalks = 32

// slackWalks is what slackSelfPosts keeps across one workflow's Slack
// Triggers: how many it walked, and whether a node tests who wrote a
// message (read once a node, not once a trigger).
type slackWalks struct {
	walked      int
	testsWriter map[*n8nschema.Node]bool
}

// writerTest reports an If, Switch, Filter or Code node that tests who
// wrote the message (botFieldRE over its parameters).
func (w *slackWalks) writerTest(m *n8nschema.Node) bool {
	if !n8nschema.IsBranch(m.Type) && !n8nschema.IsCode(m.Type) {
		return false
	}
	t, ok := w.testsWriter[m]
	if !ok {
		t = botFieldRE.MatchString(m.Params().Raw())
		w.testsWriter[m] = t
	}
	return t
}

// slackSelfPosts puts, for the Slack Trigger t, each Slack node that posts
// into a channel t hears and that t's run reaches with nothing on the way
// testing who wrote the message. An If, Switch or Filter that tests
// something else does not stop the walk: the cycle found then names it
// (Call.Branch), as the bot's post may pass it as a person's does.
func slackSelfPosts(g *Graph, t *n8nschema.Node, w *slackWalks, put func(m, t *n8nschema.Node)) {
	if !slackHearsMessages(t) || slackIgnoresUsers(t) || w.walked >= maxSlackWalks {
		return
	}
	w.walked++
	workspace := t.Params().Get("watchWorkspace").True()
	channel := ""
	if !workspace {
		if channel = slackChannel(t, "channelId"); channel == "" {
			return // an expression or no channel: which one is not known
		}
	}
	cred := slackCredential(t)
	walkRun(g, t, func(m *n8nschema.Node) bool {
		if w.writerTest(m) {
			return false // it may drop the app's own messages
		}
		raw, ok := slackPost(m)
		if !ok {
			return true
		}
		ch := literalChannel(raw)
		switch {
		case ch != "" && !workspace && ch == channel:
			put(m, t) // the channel the trigger watches, whoever posts
		case ch != "" && workspace && cred != "" && slackCredential(m) == cred:
			put(m, t) // the app's own post, in its workspace
		case refsTriggerChannel(raw, t):
			put(m, t) // back into the channel the message came from
		}
		return true
	})
}

// slackHearsMessages reports whether the trigger's Trigger On list keeps a
// message event. The list defaults to none (SlackTrigger.node.js L99), and
// then every event is dropped.
func slackHearsMessages(t *n8nschema.Node) bool {
	v, ok := t.Param("trigger")
	if !ok {
		return false
	}
	if v.Kind() == n8nschema.String {
		return slackMessageEvents[v.Str()]
	}
	for _, e := range v.ElemsSeq() {
		if e.Kind() == n8nschema.String && slackMessageEvents[e.Str()] {
			return true
		}
	}
	return false
}

// slackIgnoresUsers reports whether options.userIds names anyone: the bot
// may be among them (its user id is not in the export).
func slackIgnoresUsers(t *n8nschema.Node) bool {
	v, ok := t.Param("options.userIds")
	if !ok {
		return false
	}
	if v.Kind() == n8nschema.String {
		return strings.TrimSpace(v.Str()) != ""
	}
	for _, e := range v.ElemsSeq() {
		if e.Kind() != n8nschema.String || strings.TrimSpace(e.Str()) != "" {
			return true
		}
	}
	return false
}

// slackChannel returns the literal channel id a channel parameter names
// (a resource locator's value, the id in a By URL value, a plain string);
// "" for an expression or none.
func slackChannel(n *n8nschema.Node, key string) string {
	return literalChannel(channelParam(n, key))
}

// channelParam returns a channel parameter as written: a resource
// locator's value (the id of a By URL value), a plain string.
func channelParam(n *n8nschema.Node, key string) string {
	v, ok := n.Param(key)
	if !ok {
		return ""
	}
	mode := ""
	if v.Kind() == n8nschema.Object {
		mode = v.Get("mode").Str()
		v = v.Get("value")
	}
	if v.Kind() != n8nschema.String {
		return ""
	}
	s := strings.TrimSpace(v.Str())
	if mode == "url" && !strings.Contains(s, "{{") {
		// extractValue: https://app.slack.com/client/.*/([a-zA-Z0-9]{2,})
		s = strings.TrimRight(s, "/")
		s = s[strings.LastIndexByte(s, '/')+1:]
	}
	return s
}

// literalChannel is a channel as written when it is no expression.
func literalChannel(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	if strings.HasPrefix(s, "=") || strings.Contains(s, "{{") {
		return ""
	}
	return s
}

// slackCredential is the id of the Slack credential a node names, "" when
// none or a template's blank.
func slackCredential(n *n8nschema.Node) string {
	for _, typ := range []string{"slackApi", "slackOAuth2Api"} {
		c := n.Field("credentials").Get(typ)
		if _, blank := n8nschema.TemplateCredential(n, typ); blank || c.Kind() != n8nschema.Object {
			continue
		}
		if id := c.Get("id").Str(); id != "" {
			return typ + ":" + id
		}
	}
	return ""
}

// slackPost reports whether m posts a Slack message into a channel, and
// the channel as written: a Slack node's message post to select "channel"
// (Slack/V2/SlackV2.node.js message post L563-591: an ephemeral option
// makes it chat.postEphemeral, which makes no event; send-and-wait posts
// with chat.postMessage too, L313; Slack v1 posts to its channel
// parameter), or an HTTP Request POST to chat.postMessage with a channel
// field in its body.
func slackPost(m *n8nschema.Node) (string, bool) {
	if n8nschema.IsHTTPRequest(m.Type) {
		return httpPostMessage(m)
	}
	if strings.TrimSuffix(m.Type, "Tool") != "n8n-nodes-base.slack" {
		return "", false
	}
	_, op := n8nschema.WriteOp(m)
	if op != "message.post" && op != "message.sendAndWait" {
		return "", false
	}
	if m.TypeVersion < 2 {
		return channelParam(m, "channel"), true
	}
	if sel, _ := m.Param("select"); sel.Str() != "channel" {
		return "", false // a direct message to a user, or none chosen
	}
	if e, ok := m.Param("otherOptions.ephemeral"); ok && e.Kind() == n8nschema.Object {
		return "", false
	}
	return channelParam(m, "channelId"), true
}

// httpPostMessage reads an HTTP Request that POSTs to Slack's
// chat.postMessage: its channel field, from the body's parameters or its
// JSON text.
func httpPostMessage(m *n8nschema.Node) (string, bool) {
	if !strings.Contains(m.Params().Get("url").Str(), "slack.com/api/chat.postMessage") || n8nschema.HTTPMethod(m) != "POST" {
		return "", false
	}
	for _, p := range m.Params().Get("bodyParameters.parameters").ElemsSeq() {
		if p.Get("name").Str() == "channel" {
			return p.Get("value").Str(), true
		}
	}
	for _, f := range jsonBodyFields(m) {
		if f[1] == "channel" {
			return f[2], true
		}
	}
	return "", false
}

// refsTriggerChannel reports whether a channel as written is the channel
// of the message that started the run: $('Trigger').item.json.channel (or
// .first(), .last()).
func refsTriggerChannel(ch string, t *n8nschema.Node) bool {
	return strings.Contains(ch, "$('"+t.Name+"')") && strings.Contains(strings.ReplaceAll(ch, " ", ""), "json.channel}}")
}
