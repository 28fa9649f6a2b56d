package analyze

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
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

// personTriggers are n8n's own triggers that a person's message or
// submission starts: its chats, where the person waits for the answer
// ("chat"), and its Form Trigger ("form").
var personTriggers = map[string]string{
	n8nschema.TypeChatTrigger:                    "chat",
	"@n8n/n8n-nodes-langchain.manualChatTrigger": "chat",
	n8nschema.TypeFormTrigger:                    "form",
}

// personServices are the services whose events are a person's message
// or submission, by the name triggerService gives them: chats and
// messaging bots (a user's message or mention;
// nodes-base/nodes/Telegram/TelegramTrigger.node.ts and the like), where
// the person waits for the answer ("chat"), and form, survey and booking
// services, where the person has left with the service's own confirmation
// ("form"), and meeting recorders, whose event is a meeting people held
// (paced like a booking; nobody waits for the run). A trigger of any
// package reads its service here: n8n's Typeform Trigger and a community
// Tally Trigger alike.
var personServices = map[string]string{
	"telegram":       "chat",
	"whatsapp":       "chat",
	"slack":          "chat",
	"microsoftteams": "chat",
	"twilio":         "chat",
	// Forms and surveys: one submission, one event.
	"typeform":        "form",
	"jotform":         "form",
	"surveymonkey":    "form",
	"formstack":       "form",
	"wufoo":           "form",
	"formio":          "form",
	"kobotoolbox":     "form",
	"tally":           "form",
	"fillout":         "form",
	"googleforms":     "form",
	"paperform":       "form",
	"cognitoforms":    "form",
	"zohoforms":       "form",
	"formbricks":      "form",
	"heyflow":         "form",
	"facebookleadads": "form", // a lead a person submits in an ad's form
	// Bookings: one person's booking, one event.
	"calendly":         "form",
	"acuityscheduling": "form",
	"cal":              "form", // Cal.com
	"calcom":           "form",
	// Meeting recorders: one meeting a person held, one event, sent when
	// its recording is processed (n8n-nodes-fathom.fathomTrigger).
	"fathom":    "form",
	"fireflies": "form",
	"tldv":      "form",
	"otter":     "form",
	"readai":    "form",
}

// triggerService names the service whose events a trigger type receives:
// the node's name without "Trigger", lower case and letters and digits
// only (n8n-nodes-base.typeformTrigger: typeform;
// n8n-nodes-tallyforms.tallyTrigger: tally). A community node whose own
// name is no service that personServices knows names it by its package,
// with a trailing "forms" dropped (n8n-nodes-tallyforms.formTrigger:
// tally). "" for a type that is no trigger.
func triggerService(typ string) string {
	i := strings.LastIndexByte(typ, '.')
	if i < 0 || n8nschema.Lookup(typ).Role != n8nschema.RoleTrigger {
		return ""
	}
	pkg, name := typ[:i], typ[i+1:]
	s := serviceKey(strings.TrimSuffix(name, "Trigger"))
	if personServices[s] != "" || pkg == "n8n-nodes-base" || pkg == "@n8n/n8n-nodes-langchain" {
		return s
	}
	if j := strings.LastIndexByte(pkg, '/'); j >= 0 {
		pkg = pkg[j+1:]
	}
	p := serviceKey(strings.TrimPrefix(pkg, "n8n-nodes-"))
	for _, k := range []string{p, strings.TrimSuffix(p, "forms")} {
		if personServices[k] != "" {
			return k
		}
	}
	return s
}

// serviceKey writes a name the one way personServices holds it: lower
// case, letters and digits only (jotForm, google-forms: jotform,
// googleforms).
func serviceKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		}
	}
	return b.String()
}

// personKind is what a trigger node's events are when a person starts
// them: "chat", "form", or "" for none.
func personKind(t *n8nschema.Node) string {
	if k := personTriggers[t.Type]; k != "" {
		return k
	}
	if customerOrder(t) {
		return "form"
	}
	return personServices[triggerService(t.Type)]
}

// customerOrder reports a shop's trigger on a customer's checkout: a
// Shopify Trigger on orders/create or checkouts/create
// (Shopify/ShopifyTrigger.node.js topic), a WooCommerce Trigger on
// order.created (WooCommerce/WooCommerceTrigger.node.js event). Each
// event is one customer's action, at that customer's time, as a booking
// is: the executions do not start in lockstep (readers of part IL). A
// shop's other topics (a product or inventory update, an order paid or
// fulfilled by the shop's systems) may come in batches and stay
// machine-paced.
func customerOrder(t *n8nschema.Node) bool {
	switch t.Type {
	case "n8n-nodes-base.shopifyTrigger":
		v, ok := t.Param("topic")
		return ok && v.Kind() == n8nschema.String && (v.Str() == "orders/create" || v.Str() == "checkouts/create")
	case "n8n-nodes-base.wooCommerceTrigger":
		v, ok := t.Param("event")
		return ok && v.Kind() == n8nschema.String && v.Str() == "order.created"
	}
	return false
}

// Converses reports whether a trigger starts an execution for a person
// who waits for its answer in a chat or a messaging app: when it fails,
// the person sees no answer come.
func Converses(t *n8nschema.Node) bool { return personKind(t) == "chat" && !callSummaries(t) }

// callSummaries reports a Twilio Trigger that listens only for "New Call"
// (com.twilio.voice.insights.call-summary.complete), a summary Twilio sends
// up to thirty minutes after a call has ended: nobody waits for it, unlike
// "New SMS" (nodes-base/nodes/Twilio/TwilioTrigger.node.ts updates).
func callSummaries(t *n8nschema.Node) bool {
	if t.Type != "n8n-nodes-base.twilioTrigger" {
		return false
	}
	u := t.Params().Get("updates").Elems()
	for _, e := range u {
		if e.Str() != "com.twilio.voice.insights.call-summary.complete" {
			return false
		}
	}
	return len(u) > 0
}

// TriggerPace says who drives a trigger node's executions. A Webhook that
// answers GET is opened by a browser (an approval link, a "run now" link,
// a page); one that takes POST is called by a machine.
func TriggerPace(t *n8nschema.Node) Pace {
	switch typ := t.Type; {
	case n8nschema.IsInternalTrigger(typ) && typ != n8nschema.TypeManualChatTrigger, n8nschema.IsScheduleTrigger(typ) && registersNoJob(t):
		return PaceInternal
	case personKind(t) != "" && !callSummaries(t):
		return PacePerson
	case typ == n8nschema.TypeWebhook:
		if webhookMethods(t) == "GET" {
			return PacePerson
		}
	}
	return PaceMachine
}

// TriggerPaceIn is TriggerPace read with the workflow the trigger starts:
// a Webhook that takes POST is paced by people when the workflow answers
// the sender in a messaging app (RelaysChat): a Telegram, WhatsApp, LINE,
// Slack or Discord bot wired through a plain Webhook instead of the app's
// trigger node; when a page in a browser posts to it (AnswersBrowser), a
// person's form (postsPersonForm) or a voice agent's tool; or when a
// booking or form service relays one person's action to it (RelayOf); or
// when it runs a schedule's job now (runsNow).
func TriggerPaceIn(g *Graph, t *n8nschema.Node) Pace {
	p := TriggerPace(t)
	if p != PaceMachine || g == nil || t.Type != n8nschema.TypeWebhook {
		return p
	}
	if g.relaysChat(t) || g.answersBrowser(t) || g.answersVoiceTool(t) || g.postsPersonForm(t) || RelayOf(g, t).Key != "" || g.runsNow(t) {
		return PacePerson
	}
	return p
}

// OnePersonPaces reports whether one person's actions start t's runs, one
// after another as the person acts: a person paces it (TriggerPaceIn),
// and it is no chat made public (Exposure), which anyone with the link
// opens, many people at once. Such runs do not come together when a
// dependency fails, and each costs what one action does.
func OnePersonPaces(g *Graph, t *n8nschema.Node) bool {
	return TriggerPaceIn(g, t) == PacePerson && !(t.Type == n8nschema.TypeChatTrigger && Exposure(t) == "public")
}

// answersVoiceTool reports whether a Webhook is a voice agent's tool: the
// platform calls it during a phone call, with the call's tool invocation
// in the body, and waits for the result to speak it (responseMode
// responseNode or lastNode). The run reads that invocation from the body:
// Vapi's message.toolCalls, toolCallList or toolWithToolCallList (each
// call with its id and arguments, answered as results[].toolCallId), or
// Retell's call (with its call_id) together with args. The person on the
// call paces these requests; the same platform's end-of-call report reads
// none of them and stays a machine's event.
func answersVoiceTool(g *Graph, reached Reach, t *n8nschema.Node) bool {
	if m := t.Params().Get("responseMode").Str(); m != "responseNode" && m != "lastNode" {
		return false
	}
	var vapi, call, args bool
	for _, n := range reached.Nodes() {
		if n.Disabled {
			continue
		}
		for _, r := range g.bodyReads(n) {
			x := r.x
			if vapi || !r.of(t) {
				continue
			}
			// Each pattern holds its literal: most expressions hold none.
			vapi = strings.Contains(x, "body.message.") && vapiToolRE.MatchString(x)
			call = call || strings.Contains(x, "body.call.call_id") && retellCallRE.MatchString(x)
			args = args || strings.Contains(x, "body.args") && retellArgsRE.MatchString(x)
		}
	}
	return vapi || call && args
}

// vapiToolRE matches Vapi's tool invocation read from a request body;
// retellCallRE and retellArgsRE Retell's call id and a function's
// arguments.
var (
	vapiToolRE   = lazyregexp.New(`\bbody\.message\.(toolCalls|toolCallList|toolWithToolCallList)\b`)
	retellCallRE = lazyregexp.New(`\bbody\.call\.call_id\b`)
	retellArgsRE = lazyregexp.New(`\bbody\.args\b`)
)

// answersVoiceTool is the function of that name, read once per trigger of
// the graph.
func (g *Graph) answersVoiceTool(t *n8nschema.Node) bool {
	g.pacesOnce()
	if r, ok := g.voiceTool[t]; ok {
		return r
	}
	return t.Type == n8nschema.TypeWebhook && answersVoiceTool(g, g.walk(false, []*n8nschema.Node{t}), t)
}

// AnswersBrowser reports whether a Webhook is called by a page in a
// browser: it names the pages' origins allowed to call it (allowedOrigins,
// "*" by default: n8n-core nodes-loader/constants.js commonCORSParameters),
// or its answer is for a browser: a redirect (Respond to Webhook
// respondWith "redirect"), an HTML page (a text/html content type, or a
// body that is markup), or a CORS header a page's script needs to read it,
// or it takes a person's form and answers with the run's result
// (postsPersonForm). A service that sends events reads none of these.
func AnswersBrowser(g *Graph, t *n8nschema.Node) bool {
	if g == nil || t.Type != n8nschema.TypeWebhook {
		return false
	}
	reached := g.walk(false, []*n8nschema.Node{t})
	return answersBrowser(reached, t) || postsPersonForm(g, reached, t)
}

// answersBrowser is AnswersBrowser over the nodes t's runs reach, but for
// the person's form (read once per webhook by Graph.postsPersonForm).
func answersBrowser(reached Reach, t *n8nschema.Node) bool {
	opts := t.Params().Get("options")
	if o := strings.TrimSpace(opts.Get("allowedOrigins").Str()); o != "" && o != "*" {
		return true
	}
	if browserAnswer(opts.Get("responseContentType").Str(), "", opts.Get("responseHeaders")) {
		return true
	}
	for _, n := range reached.Nodes() {
		if n.Disabled || n.Type != n8nschema.TypeRespondToWebhook {
			continue
		}
		p := n.Params()
		if p.Get("respondWith").Str() == "redirect" {
			return true
		}
		body := ""
		if p.Get("respondWith").Str() == "text" {
			body = p.Get("responseBody").Str()
		}
		if browserAnswer("", body, p.Get("options").Get("responseHeaders")) {
			return true
		}
	}
	return false
}

// htmlRE matches a body that is an HTML page or fragment (not XML such as
// Twilio's TwiML).
var htmlRE = lazyregexp.New(`(?i)^\s*<(!doctype html|html|head|body|div|p|h[1-6]|style|script|meta)\b`)

// browserAnswer reports an answer meant for a browser: an HTML content
// type or body, or a CORS header.
func browserAnswer(contentType, body string, headers n8nschema.Value) bool {
	if strings.Contains(strings.ToLower(contentType), "text/html") {
		return true
	}
	if htmlRE.MatchString(strings.TrimPrefix(body, "=")) {
		return true
	}
	for _, e := range headers.Get("entries").ElemsSeq() {
		name := strings.ToLower(e.Get("name").Str())
		if strings.HasPrefix(name, "access-control-allow-") ||
			name == "content-type" && strings.Contains(strings.ToLower(e.Get("value").Str()), "text/html") {
			return true
		}
	}
	return false
}

// ConversesIn is Converses read with the workflow: a Webhook whose
// workflow answers the sender in a messaging app starts an execution for a
// person who waits for the answer, as a chat trigger does.
func ConversesIn(g *Graph, t *n8nschema.Node) bool {
	return Converses(t) || t.Type == n8nschema.TypeWebhook && g.relaysChat(t)
}

// RepliesToSender reports whether the runs a messaging trigger starts
// (ConversesIn) may answer the person who wrote, so that a failed run is
// an answer that does not come. A Webhook that relays a chat answers
// already (RelaysChat); a chat app's trigger must reach, its agents' tools
// included, a node that sends a chat message (an effect Message, e-mail
// aside) through the trigger's own app (a Telegram node after a Telegram
// Trigger) or to a recipient the run's data gives (a chat id, a phone, a
// channel in {{ }}). A relay that forwards each message elsewhere, to a
// fixed Slack channel or a board, never answers: its sender expects
// nothing, and sees nothing when a run fails. A chat (the Chat Trigger)
// shows its user the answer or the error itself.
func RepliesToSender(g *Graph, t *n8nschema.Node) bool {
	if !Converses(t) || t.Type == n8nschema.TypeChatTrigger || t.Type == n8nschema.TypeManualChatTrigger {
		return true
	}
	app := strings.TrimSuffix(t.Type, "Trigger")
	reach := g.walk(true, []*n8nschema.Node{t})
	for i, n := range g.Nodes {
		if n == t || !reach.Has(n) || !g.chatSender(i) {
			continue
		}
		if strings.TrimSuffix(n.Type, "Tool") == app {
			return true
		}
		for _, x := range chatRecipients(n) {
			if strings.HasPrefix(x, "=") && strings.Contains(x, "{{") {
				return true
			}
		}
	}
	return false
}

// RelaysChat reports whether the workflow a Webhook starts answers the
// sender in a messaging app, or takes an inbound text message as a
// messaging app's trigger does (smsInbound): a node it runs sends a chat message (a chat
// app, WhatsApp or SMS, or an HTTP call to a messaging API; e-mail is no
// conversation) to the sender named in the request's body (the chat id,
// the sender's number, a reply token the message came with), or to a reply
// URL the request brought (repliesThroughCallback). A service's webhook
// names no one to answer; a person's message does.
func RelaysChat(g *Graph, t *n8nschema.Node) bool {
	if g == nil || t.Type != n8nschema.TypeWebhook {
		return false
	}
	return relaysChat(g, g.walk(false, []*n8nschema.Node{t}), t)
}

// relaysChat is RelaysChat over the nodes t's runs reach.
func relaysChat(g *Graph, reach Reach, t *n8nschema.Node) bool {
	if smsInbound(g, reach, t) {
		return true
	}
	copied := bodyCopies(g, reach, t)
	if repliesThroughCallback(g, t, reach, copied) {
		return true
	}
	if r, ok := g.knownReplies(t); ok {
		return len(r) > 0
	}
	r, whole := senderReplies(g, reach, t, copied, true)
	if whole {
		g.keepReplies(t, r)
	}
	return len(r) > 0
}

// knownReplies returns senderReplies(g, g.walk(false, t), t, bodyCopies,
// false) of webhook t when RelaysChat or AnswersStarter has read it whole.
func (g *Graph) knownReplies(t *n8nschema.Node) ([]*n8nschema.Node, bool) {
	g.repliesMu.Lock()
	defer g.repliesMu.Unlock()
	r, ok := g.replies[t]
	return r, ok
}

// keepReplies keeps r as knownReplies' answer for t.
func (g *Graph) keepReplies(t *n8nschema.Node, r []*n8nschema.Node) {
	g.repliesMu.Lock()
	defer g.repliesMu.Unlock()
	if g.replies == nil {
		g.replies = map[*n8nschema.Node][]*n8nschema.Node{}
	}
	g.replies[t] = r
}

// senderReplies returns the chat senders among reach whose recipient is
// the sender named in the body of webhook t's request (the tests
// RelaysChat makes of each), and the nodes that reply to the request's own
// message or conversation by its id (idReplies), the first only when
// first is set; whole reports a list read to its end, the one first
// unset gives. copied is bodyCopies of t.
func senderReplies(g *Graph, reach Reach, t *n8nschema.Node, copied map[string]string, first bool) (replies []*n8nschema.Node, whole bool) {
	var out []*n8nschema.Node
	var carriers []string
	var built map[string]map[string]string // codeCopies, read once when needed
	inbound := -1                          // chatInbound, asked once when needed
	for i, n := range g.Nodes {
		if n == t || !reach.Has(n) || !g.chatSender(i) {
			continue
		}
		if carriers == nil {
			carriers = bodyCarriers(g, t)
		}
		if answersSender(g, reach, t, n, carriers, copied, &built, &inbound) {
			out = append(out, n)
			if first {
				break
			}
		}
	}
	if len(out) > 0 && first {
		return out, false
	}
	if carriers == nil {
		carriers = bodyCarriers(g, t)
	}
	return append(out, idReplies(g, reach, t, carriers)...), true
}

// answersSender reports whether chat sender n's recipient is the sender
// of webhook t's request (senderReplies); built and inbound hold
// codeCopies and chatInbound, read once when first needed.
func answersSender(g *Graph, reach Reach, t, n *n8nschema.Node, carriers []string, copied map[string]string, built *map[string]map[string]string, inbound *int) bool {
	for _, x := range chatRecipients(n) {
		x = readPaths(x)
		if readsBodyOf(x, carriers) && senderRE.MatchString(x) {
			return true
		}
		// The recipient is a field a Set node copied from the request
		// ({{ $json.channel_id }} after channel_id = body.channel_id,
		// or $('Edit Fields').item.json.phone).
		from, copiedFrom := "", false
		v := strings.TrimSpace(strings.TrimPrefix(x, "="))
		if m := itemFieldRE.FindStringSubmatch(v); m != nil {
			from, copiedFrom = copied[m[1]+m[2]]
		} else if m := setFieldRE.FindStringSubmatch(v); m != nil {
			if s := g.Node(m[1]); s != nil && s.Type == n8nschema.TypeSet {
				from, copiedFrom = copied[m[2]+m[3]]
			}
		}
		if copiedFrom && senderRE.MatchString(from) {
			return true
		}
		// Or a field a Code node built from the request
		// ($node['Normalize'].json.sender after sender: b.from, b
		// the body): a gateway's flat payload read once and renamed.
		if builtFieldRE.MatchString(x) {
			if *built == nil {
				*built = codeCopies(g, reach, carriers, copied)
			}
			if builtSender(*built, x) {
				return true
			}
		}
		// A phone number or chat id the request carried, in a request
		// that carries a chat message's text: the gateway's message
		// event names its sender by number (Z-API's phone, WATI's waId).
		var addr string
		switch {
		case copiedFrom:
			addr = from
		case readsBodyOf(x, carriers):
			addr = x
		default:
			continue
		}
		if !chatAddressRE.MatchString(lastBodyField(addr)) {
			continue
		}
		if *inbound < 0 {
			*inbound = 0
			if chatInbound(g, reach, t) {
				*inbound = 1
			}
		}
		if *inbound == 1 {
			return true
		}
	}
	// Or an address the gateway names in its own words (Fonnte's target,
	// a key no list holds), or a mention in the text (Discord's and
	// Slack's <@id>): a body field that is the sender and nothing else.
	for _, x := range payloadAddresses(n) {
		x = readPaths(x)
		if readsBodyOf(x, carriers) && senderValue(firstBodyRead(x)) {
			return true
		}
		if m := itemFieldRE.FindStringSubmatch(strings.TrimSpace(strings.TrimPrefix(x, "="))); m != nil && copiedSender(copied, "."+m[1]+m[2]) != "" {
			return true
		}
		if builtFieldRE.MatchString(x) {
			if *built == nil {
				*built = codeCopies(g, reach, carriers, copied)
			}
			if builtSender(*built, x) {
				return true
			}
		}
	}
	// Or a body the call takes whole from the item ({{ JSON.stringify(
	// $json.envio) }}) that the Code nodes feeding it build as a message
	// to the sender: to: para, para the sender's number it was given.
	if n8nschema.IsHTTPRequest(n.Type) && itemBodyRE.MatchString(n.Params().Get("jsonBody").Str()) {
		if *built == nil {
			*built = codeCopies(g, reach, carriers, copied)
		}
		return codeAddressesSender(g, n, *built)
	}
	return false
}

// AnswersStarter reports whether message n answers the person whose
// message started the run: every enabled trigger whose runs reach n is a
// Webhook whose request n's recipient reads the sender of (senderReplies:
// WhatsApp Cloud's from, Viber's sender, a chat id), so each run n sends
// in is that person's conversation, as a Telegram node's reply after a
// Telegram Trigger is.
func (g *Graph) AnswersStarter(n *n8nschema.Node) bool {
	if g == nil {
		return false
	}
	i, ok := g.index(n)
	if !ok {
		return false
	}
	g.startersOnce.Do(func() {
		g.starters = make([]bool, len(g.Nodes))
		answered := make([]bool, len(g.Nodes)) // by some trigger's sender
		other := make([]bool, len(g.Nodes))    // reached by a trigger it does not answer
		var walked map[string]bool             // outKey of the triggers but webhooks read so far
		if len(g.Triggers()) >= classMin {
			walked = map[string]bool{}
		}
		for _, t := range g.Triggers() {
			if t.Disabled {
				continue
			}
			// A trigger whose runs reach what an earlier one's reach (but
			// itself), and answer the same senders there, adds itself alone.
			same := t.Type == n8nschema.TypeWebhook && g.sameFacts(t) != t
			if !same && walked != nil && t.Type != n8nschema.TypeWebhook {
				if k := g.outKey(t); k != "" {
					same = walked[k]
					walked[k] = true
				}
			}
			if same {
				other[g.at(t)] = true
				continue
			}
			reach := g.walk(false, []*n8nschema.Node{t})
			mine := map[*n8nschema.Node]bool{}
			if t.Type == n8nschema.TypeWebhook {
				r, ok := g.knownReplies(t)
				if !ok {
					r, _ = senderReplies(g, reach, t, bodyCopies(g, reach, t), false)
					g.keepReplies(t, r)
				}
				for _, m := range r {
					mine[m] = true
				}
			}
			for _, m := range reach.Nodes() {
				if j, ok := g.index(m); ok {
					answered[j] = answered[j] || mine[m]
					other[j] = other[j] || !mine[m]
				}
			}
		}
		for j := range g.starters {
			g.starters[j] = answered[j] && !other[j]
		}
	})
	return g.starters[i]
}

// communitySender reports a node n8n does not ship (a community node such
// as n8n-nodes-evolution-api.evolutionApi, whose effect the catalog cannot
// tell) that may leave something behind and sends a message: a parameter
// names a chat address (remoteJid, number, chatId, phone) and another
// holds the message (messageText, text, caption, media). Whether it
// answers the request's sender is then read from the address, as for any
// chat node (relaysChat).
func communitySender(n *n8nschema.Node) bool {
	if n8nschema.Lookup(n.Type).Known || !HasEffect(n) {
		return false
	}
	_, msg := communityRecipients(n)
	return msg
}

// communityRecipients returns the top-level parameters of a community node
// that name a chat address, and whether another holds a message.
func communityRecipients(n *n8nschema.Node) (addrs []string, message bool) {
	n.Params().Each(func(k string, v n8nschema.Value) bool {
		if v.Kind() != n8nschema.String {
			return true
		}
		switch {
		case chatAddressRE.MatchString(k):
			addrs = append(addrs, v.Str())
		case messageParamRE.MatchString(k):
			message = true
		}
		return true
	})
	return addrs, message && len(addrs) > 0
}

// messageParamRE matches a parameter that holds a message's content.
var messageParamRE = lazyregexp.New(`(?i)(message|text|caption|media)`)

// setFieldRE matches a recipient that is one field of a named node's item:
// {{ $('Edit Fields').item.json.phone }}.
var setFieldRE = lazyregexp.New(`^\{\{\s*\$\(\s*['"]([^'"]+)['"]\s*\)\.(?:item|first\(\)|last\(\))\.json(?:\.(\w+)|\[\s*["'](\w+)["']\s*\])\s*\}\}$`)

// chatAddressRE matches the last field of a body path that holds a phone
// number or a chat's id: phone, connectedPhone, number, waId, chatId.
var chatAddressRE = lazyregexp.New(`(?i)(phone|number|wa_?id|chat_?id|jid)$`)

// lastBodyField is the last field of the first request body path x reads
// (body.data.key.remoteJid: remoteJid), "" when it reads none.
func lastBodyField(x string) string {
	m := bodyPathRE.FindStringSubmatch(x)
	if m == nil {
		return ""
	}
	f := fieldNameRE.FindAllStringSubmatch(m[1], -1)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1][1] + f[len(f)-1][2]
}

// fieldNameRE takes each field of a body path: .text, ["message"].
var fieldNameRE = lazyregexp.New(`\.\s*(\w+)|\[\s*["'](\w+)["']\s*\]`)

// chatInbound reports whether the runs of webhook t read a chat message's
// text from the request: a field inside a text or message object of the
// body (Z-API's text.message, Evolution API's data.message.conversation,
// Green API's messageData.textMessageData.textMessage, a raw Telegram
// update's message.text, WhatsApp Cloud's messages[0].text.body). A
// messaging event nests the text because a message may be a text, an
// image or a voice note; a form or a service's event posts its fields
// flat (body.message, body.phone).
func chatInbound(g *Graph, reach Reach, t *n8nschema.Node) bool {
	for _, n := range reach.Nodes() {
		if n.Disabled {
			continue
		}
		for _, r := range g.bodyReads(n) {
			if !r.of(t) {
				continue
			}
			for _, m := range bodyPathRE.FindAllStringSubmatch(readPaths(r.x), -1) {
				f := fieldNameRE.FindAllStringSubmatch(m[1], -1)
				for i := 0; i+1 < len(f); i++ {
					if k := strings.ToLower(f[i][1] + f[i][2]); k == "text" || strings.Contains(k, "message") {
						return true
					}
				}
			}
		}
	}
	return false
}

// smsInbound reports a Webhook that Twilio (or a Twilio-compatible API)
// posts inbound SMS or WhatsApp messages to: its runs read the message's
// text and sender from the request body as Twilio names them, Body with
// From or WaId (capitalised form parameters, Twilio's messaging webhook
// request; a status callback sends MessageStatus and no Body). Each such
// request is a person's message, as the Twilio Trigger's "New SMS" event is.
func smsInbound(g *Graph, reach Reach, t *n8nschema.Node) bool {
	// Most runs name no Body at all: then no read below finds the text,
	// and the graph's body reads need not be found for it.
	for _, n := range reach.Nodes() {
		if !n.Disabled && mayNameBody(n.Params().Raw()) {
			return smsRead(g, reach, t)
		}
	}
	return false
}

// mayNameBody is false when no string of a node's parameters, as
// readPaths writes it, can hold "Body": raw JSON without it, with no \u
// escape that may spell it, and no B before a space or an escape, which
// squeeze may join to "ody" in a body alias's path.
func mayNameBody(raw string) bool {
	if strings.Contains(raw, "Body") || strings.Contains(raw, `\u`) {
		return true
	}
	for i := strings.IndexByte(raw, 'B'); i >= 0 && i+1 < len(raw); {
		switch raw[i+1] {
		case ' ', '\\', '\t', '\n', '\r', '\f', '\v':
			return true
		}
		j := strings.IndexByte(raw[i+1:], 'B')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// smsRead is smsInbound's reading of the body fields the runs read.
func smsRead(g *Graph, reach Reach, t *n8nschema.Node) bool {
	var text, from bool
	read := func(x string) {
		if !strings.Contains(x, "Body") && !strings.Contains(x, "From") && !strings.Contains(x, "WaId") {
			return // no field below can be read
		}
		for _, m := range bodyPathRE.FindAllStringSubmatch(x, -1) {
			f := firstFieldRE.FindStringSubmatch(m[1])
			if f == nil {
				continue
			}
			switch f[1] + f[2] {
			case "Body":
				text = true
			case "From", "WaId":
				from = true
			}
		}
	}
	for _, n := range reach.Nodes() {
		if n.Disabled {
			continue
		}
		for _, r := range g.bodyReads(n) {
			if r.of(t) {
				read(r.x)
			}
		}
		// A Code node reads the request without {{ }}: $json.body.Body.
		for _, k := range []string{"jsCode", "functionCode"} {
			if c := n.Params().Get(k).Str(); strings.Contains(c, "Body") {
				read(c)
			}
		}
	}
	return text && from
}

// firstFieldRE takes the first field of a body path: .Body, ["From"].
var firstFieldRE = lazyregexp.New(`^\s*(?:\.\s*(\w+)|\[\s*["'](\w+)["']\s*\])`)

// bodyCopies returns the fields Set nodes among reached fill from t's
// request body, each with the expression that reads it.
func bodyCopies(g *Graph, reached Reach, t *n8nschema.Node) map[string]string {
	copied := map[string]string{}
	for _, n := range reached.Nodes() {
		if n.Disabled || n.Type != n8nschema.TypeSet {
			continue
		}
		for _, r := range g.bodyReads(n) {
			if !strings.HasSuffix(r.rel, ".value") || !r.of(t) {
				continue
			}
			if name := n.Params().Get(strings.TrimSuffix(r.rel, "value") + "name").Str(); name != "" {
				copied[name] = r.x
			}
		}
	}
	return copied
}

// relaysChat is RelaysChat, read once per trigger of the graph: several
// rules ask of every trigger, and each answer walks what the trigger runs.
func (g *Graph) relaysChat(t *n8nschema.Node) bool {
	if g == nil {
		return false
	}
	g.pacesOnce()
	if r, ok := g.relays[t]; ok {
		return r
	}
	return RelaysChat(g, t) // not one of the graph's triggers
}

// answersBrowser is AnswersBrowser, read once per trigger of the graph.
func (g *Graph) answersBrowser(t *n8nschema.Node) bool {
	g.pacesOnce()
	if r, ok := g.browser[t]; ok {
		return r
	}
	return AnswersBrowser(g, t) // not one of the graph's triggers
}

// pacesOnce reads RelaysChat, AnswersBrowser and answersVoiceTool for
// every webhook of the graph, once.
func (g *Graph) pacesOnce() {
	g.relaysOnce.Do(func() {
		g.relays = map[*n8nschema.Node]bool{}
		g.browser = map[*n8nschema.Node]bool{}
		g.voiceTool = map[*n8nschema.Node]bool{}
		for _, tr := range g.Triggers() {
			if tr.Type != n8nschema.TypeWebhook {
				continue
			}
			if r := g.sameFacts(tr); r != tr {
				g.relays[tr], g.browser[tr], g.voiceTool[tr] = g.relays[r], g.browser[r], g.voiceTool[r]
				continue
			}
			reached := g.walk(false, []*n8nschema.Node{tr})
			g.relays[tr] = relaysChat(g, reached, tr)
			g.browser[tr] = answersBrowser(reached, tr)
			g.voiceTool[tr] = answersVoiceTool(g, reached, tr)
		}
	})
}

// chatSender reports whether g.Nodes[i] is enabled and sends a chat
// message (a message that is no e-mail), decided once per node and only
// for the nodes a trigger's runs reach: RelaysChat asks for each webhook.
func (g *Graph) chatSender(i int) bool {
	g.chatOnce.Do(func() {
		g.chatsOnce = make([]sync.Once, len(g.Nodes))
		g.chats = make([]bool, len(g.Nodes))
	})
	g.chatsOnce[i].Do(func() {
		n := g.Nodes[i]
		g.chats[i] = !n.Disabled && (mayMessage(n) && !emailer(n) && g.effect(i).Message || communitySender(n))
	})
	return g.chats[i]
}

// senderRE matches the part of a message event that names who sent it or
// where to answer: Telegram's message.chat.id, WhatsApp's from, wa_id or
// remoteJid, LINE's replyToken or source.userId, Slack's channel_id or
// event.user, Discord's interaction token or channel. A customer's phone in
// an order event is no sender: the order was not a message.
var senderRE = lazyregexp.New(`(?i)\b(chat|from|sender|author|reply_?token|replyToken|remote_?jid|remoteJid|wa_id|source|channel(_?id)?|user(_?id)?|conversation|interaction|callback|token)\b`)

// repliesThroughCallback reports whether the workflow answers a person's
// message at a reply URL the request brought (Slack's response_url, a chat
// relay's callback): an HTTP call whose URL is a field of the request body,
// read there or copied by a Set node, that posts a chat message (text,
// content, blocks, attachments, embeds), for a request that names its
// sender (user, from, chat, author). A machine's callback (the resume URL
// of a waiting workflow, a job's completion hook) carries a result, not a
// message, and its request names no sender.
func repliesThroughCallback(g *Graph, t *n8nschema.Node, reached Reach, copied map[string]string) bool {
	// The call first: most runs make none to a URL the request brought,
	// and then its body's fields need not be read.
	calls := false
	for _, n := range reached.Nodes() {
		if n.Disabled || !n8nschema.IsHTTPRequest(n.Type) || !n8nschema.IsWriteMethod(n8nschema.HTTPMethod(n)) {
			continue
		}
		u := readPaths(strings.TrimSpace(strings.TrimPrefix(n.Params().Get("url").Str(), "=")))
		if !strings.HasPrefix(u, "{{") || !strings.HasSuffix(u, "}}") || strings.Count(u, "{{") != 1 {
			continue // a URL of the workflow's own, not one the request brought
		}
		inBody := readsBody(u, t)
		if m := itemFieldRE.FindStringSubmatch(u); m != nil {
			if _, ok := copied[m[1]+m[2]]; ok {
				inBody = true
			}
		}
		if inBody && postsChatText(n) {
			calls = true
			break
		}
	}
	if !calls {
		return false
	}
	for _, n := range reached.Nodes() {
		if n.Disabled {
			continue
		}
		for _, r := range g.bodyReads(n) {
			if !r.of(t) {
				continue
			}
			for _, m := range bodyPathRE.FindAllStringSubmatch(r.x, -1) {
				if senderFieldRE.MatchString(m[1]) {
					return true
				}
			}
		}
	}
	return false
}

// codeCopies returns, by Code node, the fields of the items it returns
// that it fills with the request's sender, each with the read of the
// body it comes from, for the Code nodes among reached that read the
// body of one of carriers: their input's ($json.body,
// $input.first().json.body) when one feeds them, or one they name. A
// field is a key: value pair of its code (as readPaths writes it), or a
// variable returned by its name ({ from, text }); its value may read the
// sender through the code's variables and functions (codeBinds: chatId:
// digits + '@c.us' after digits = String(raw), raw = msg.from). A Code
// node fed the request may walk the body first (for (const m of
// value.messages)): a field of a local variable (m.from) is read from it.
func codeCopies(g *Graph, reached Reach, carriers []string, copied map[string]string) map[string]map[string]string {
	out := map[string]map[string]string{}
	var senders []string // the fields Set nodes fill with the sender
	for f := range copied {
		if copiedSender(copied, "."+f) != "" {
			senders = append(senders, f)
		}
	}
	for _, n := range reached.Nodes() {
		if n.Disabled || n.Type != n8nschema.TypeCode {
			continue
		}
		code := n.Params().Get("jsCode").Str()
		if !strings.Contains(code, "body") && !slices.ContainsFunc(senders, func(f string) bool { return strings.Contains(code, f) }) {
			continue
		}
		fed := false
		for _, e := range g.In(n) {
			fed = fed || e.Type == ConnMain && slices.Contains(carriers, e.From.Name)
		}
		code = readPaths(code)
		binds := codeBinds(code)
		sender := func(read, in string) bool {
			if copiedSender(copied, read) != "" {
				return true // a Set node's copy of the sender, read from its item
			}
			if !senderValue(read) {
				return false
			}
			if fed {
				return true // the input is the request: any read is of it
			}
			if !strings.Contains(in, "json.body.") {
				return false
			}
			for _, r := range nodeRefRE.FindAllStringSubmatch(in, -1) {
				if slices.Contains(carriers, r[1]+r[2]) {
					return true
				}
			}
			return false
		}
		add := func(field, v string) {
			if _, seen := out[n.Name][field]; seen {
				return
			}
			if r := traceRead(v, binds, sender); r != "" {
				r = cmp.Or(copiedSender(copied, r), r) // the body's read, which names the sender
				if out[n.Name] == nil {
					out[n.Name] = map[string]string{}
				}
				out[n.Name][field] = r
			}
		}
		for _, m := range codeFieldRE.FindAllStringSubmatch(code, -1) {
			add(m[1], m[2])
		}
		for _, f := range shorthandFields(code, binds) {
			add(f, f)
		}
		// { ...$json.body, wait: t } hands on every field of the body
		// under its own name: a sender among them (userId) is read as
		// the body's.
		if fed && bodySpreadRE.MatchString(code) {
			if out[n.Name] == nil {
				out[n.Name] = map[string]string{}
			}
			out[n.Name][spreadBody] = "json.body"
		}
	}
	return out
}

// spreadBody is the key codeCopies gives a Code node that returns the
// request's body spread into its item; bodySpreadRE finds that spread.
const spreadBody = "...body"

var bodySpreadRE = lazyregexp.New(`\.\.\.\s*(?:\$json|\$input\.(?:item|first\(\)|last\(\))\.json|\bitem\.json)\.body\b`)

// copiedSender returns the read of the request's sender that a Set node
// copied into the field read names last (webhook_from = {{
// $json.body.sender }}, read as setData.webhook_from), or "".
func copiedSender(copied map[string]string, read string) string {
	v, ok := copied[read[strings.LastIndexByte(read, '.')+1:]]
	if !ok {
		return ""
	}
	for _, r := range memberReadRE.FindAllString(readPaths(v), -1) {
		if strings.Contains(r, ".body.") && senderValue(r) {
			return r
		}
	}
	return ""
}

// firstBodyRead is the first request body path x reads, as a read
// (json.body.sender), "" when it reads none.
func firstBodyRead(x string) string {
	if m := bodyPathRE.FindStringSubmatch(x); m != nil {
		return "json.body" + dotted(m[1])
	}
	return ""
}

// payloadAddresses returns what HTTP call n names as an address under any
// key: each body field whose whole value is one {{ }} (Fonnte's target:
// "{{ $json.from }}"), and each mention in a value (<@{{ $json.userId
// }}>: Discord and Slack notify the user it names).
func payloadAddresses(n *n8nschema.Node) []string {
	if !n8nschema.IsHTTPRequest(n.Type) {
		return nil
	}
	var out []string
	add := func(v string) {
		v = strings.TrimSpace(v)
		if m := soleExprRE.FindStringSubmatch(v); m != nil {
			out = append(out, "={{"+m[1]+"}}")
		}
		for _, m := range mentionRE.FindAllStringSubmatch(v, 4) {
			out = append(out, "={{"+m[1]+"}}")
		}
	}
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		add(p.Get("value").Str())
	}
	for _, m := range jsonBodyFields(n) {
		add(strings.Trim(m[2], `"'`))
	}
	return out
}

// mentionRE finds a user's mention whose id an expression gives: <@{{
// $json.userId }}>, <@!{{ … }}>.
var mentionRE = lazyregexp.New(`<@!?\{\{([^{}]*)\}\}>`)

// maxCallsRead and maxArgsLen bound what codeBinds reads of a function's
// calls (the first 16, each within 4 KiB of its name), so that code with
// many calls, or calls left open, is read in time linear in its length.
const (
	maxCallsRead = 16
	maxArgsLen   = 4 << 10
)

// codeBinds returns what code binds each variable to: the value of its
// declaration or assignment (const v = …, v = …), and, for a parameter
// of a function the code declares (function f(a, v), const f = (a, v)
// =>), the argument each call of that function passes in its place.
func codeBinds(code string) map[string][]string {
	binds := map[string][]string{}
	for _, m := range bindRE.FindAllStringSubmatch(code, -1) {
		binds[m[1]] = append(binds[m[1]], m[2])
	}
	for _, re := range []*lazyregexp.Regexp{funcDeclRE, arrowDeclRE} {
		// At most 16 functions each: every one scans the code for its calls.
		for _, m := range re.FindAllStringSubmatch(code, 16) {
			params := strings.Split(m[2], ",")
			for i, calls := 0, 0; i < len(code) && calls < maxCallsRead; {
				j := strings.Index(code[i:], m[1]+"(")
				if j < 0 {
					break
				}
				j += i
				i = j + len(m[1]) + 1
				if j > 0 && isWordByte(code[j-1]) || strings.HasSuffix(strings.TrimRight(code[:j], " \t"), "function") {
					continue // another name's tail, or the declaration itself
				}
				calls++
				args := callArgs(code[i:min(len(code), i+maxArgsLen)])
				for k, p := range params {
					if p = strings.TrimSpace(p); k < len(args) && varNameRE.MatchString(p) {
						binds[p] = append(binds[p], args[k])
					}
				}
			}
		}
	}
	return binds
}

// traceRead returns the first field read (m.from, json.body.chat.id)
// that value v makes, itself or through the variables it names (binds,
// each followed once), that ok accepts; ok is given the read and the
// value it was found in. "" when there is none.
func traceRead(v string, binds map[string][]string, ok func(read, in string) bool) string {
	seen := map[string]bool{}
	queue := []string{v}
	for len(queue) > 0 && len(seen) < 64 {
		x := queue[0]
		queue = queue[1:]
		for _, r := range memberReadRE.FindAllString(x, -1) {
			if ok(r, x) {
				return r
			}
		}
		eachIdent(x, func(id string) bool {
			if !seen[id] && len(binds[id]) > 0 {
				seen[id] = true
				queue = append(queue, binds[id]...)
			}
			return true
		})
	}
	return ""
}

// shorthandFields returns the variables of binds that code returns by
// name in an object literal: { from, text }.
func shorthandFields(code string, binds map[string][]string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		if code[i] != '{' && code[i] != ',' {
			continue
		}
		j := i + 1
		for j < len(code) && (code[j] == ' ' || code[j] == '\t' || code[j] == '\n' || code[j] == '\r') {
			j++
		}
		k := j
		for k < len(code) && isWordByte(code[k]) {
			k++
		}
		e := k
		for e < len(code) && (code[e] == ' ' || code[e] == '\t' || code[e] == '\n' || code[e] == '\r') {
			e++
		}
		if k > j && e < len(code) && (code[e] == ',' || code[e] == '}') && len(binds[code[j:k]]) > 0 {
			out = append(out, code[j:k])
		}
	}
	return out
}

// memberReadRE finds the field reads of a value: m.from, json.body.chat.id.
var memberReadRE = lazyregexp.New(`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+`)

// bindRE finds a variable's declaration or assignment and its value
// (not ==, =>, +=, <=).
var bindRE = lazyregexp.New(`(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*=\s*([^=>;\n][^;\n]*)`)

// varNameRE matches a JavaScript identifier, whole.
var varNameRE = lazyregexp.New(`^[A-Za-z_$][\w$]*$`)

// funcDeclRE and arrowDeclRE find a function's name and parameters.
var (
	funcDeclRE  = lazyregexp.New(`\bfunction\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\)`)
	arrowDeclRE = lazyregexp.New(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\(([^)]*)\)\s*=>`)
)

// codeFieldRE finds key: value pairs of an object literal in code, the
// value running to the next comma, brace or line end (json: { sender: …
// on one line is two pairs).
var codeFieldRE = lazyregexp.New(`["']?([A-Za-z_]\w*)["']?\s*:\s*([^,{}\n]+)`)

// builtSender reports whether x reads a field a Code node of built
// filled with the request's sender (a field whose value reads the body's
// from, sender, chat.id: senderRE): one field of that node's item
// ($node['Normalize'].json.sender, $('Normalize').item.json.sender), or
// of the item the node reads ($json.sender, $input.item.json.sender,
// item.json.sender), a field some Code node of built filled so: n8n
// hands a Code node's fields on, by name, to the nodes after it.
func builtSender(built map[string]map[string]string, x string) bool {
	for _, m := range builtFieldRE.FindAllStringSubmatch(x, -1) {
		if node := m[1] + m[2]; node != "" {
			if fields, ok := built[node]; ok {
				if senderValue(fields[m[3]+m[4]]) {
					return true
				}
				continue
			}
		}
		if senderField(built, m[3]+m[4]) {
			return true
		}
	}
	return false
}

// senderField reports whether some Code node of built fills field f
// with the request's sender.
func senderField(built map[string]map[string]string, f string) bool {
	for _, fields := range built {
		if v, ok := fields[f]; ok && senderValue(v) {
			return true
		}
		if v, ok := fields[spreadBody]; ok && senderValue(v+"."+f) {
			return true
		}
	}
	return false
}

// senderValue reports whether a read names the request's sender: its
// last field does (from, remoteJid), or the field before an id (chat.id,
// from.id).
func senderValue(read string) bool {
	fs := strings.Split(read, ".")[1:]
	if len(fs) == 0 {
		return false
	}
	last := fs[len(fs)-1]
	if strings.EqualFold(last, "id") && len(fs) > 1 {
		last = fs[len(fs)-2]
	}
	return senderRE.MatchString(last)
}

// itemBodyRE matches a JSON body that is the item or one of its fields,
// sent whole: {{ $json }}, {{ JSON.stringify($json.envio) }}.
var itemBodyRE = lazyregexp.New(`^=?\s*\{\{\s*(?:JSON\.stringify\(\s*)?\$json(?:\.\w+)?\s*\)?\s*\}\}\s*$`)

// codeAddressesSender reports whether every node that feeds HTTP call n
// its items (through an If, a Filter, a Switch or a No Op) is a Code
// node that builds a message to the request's sender: a recipient key
// (to, chat_id, number: recipientKey) whose value reads a field built
// with the sender (senderField: to: msg.telefone), or names a variable
// bound so (const para = msg.telefone) or a parameter of a function the
// code calls so (function texto(para, t) {… to: para …} called as
// texto(msg.telefone, t)).
func codeAddressesSender(g *Graph, n *n8nschema.Node, built map[string]map[string]string) bool {
	var codes []*n8nschema.Node
	done := walkBack(g, n, 4, func(s *n8nschema.Node) (follow, ok bool) {
		switch {
		case s.Disabled:
			return false, true
		case s.Type == n8nschema.TypeCode:
			codes = append(codes, s)
			return false, true
		case n8nschema.IsBranch(s.Type) || s.Type == n8nschema.TypeNoOp:
			return true, true // gates pass items as they are, as n8nschema's itemSource reads them
		}
		return false, false // a feeder whose items say nothing of the recipient
	})
	if !done || len(codes) == 0 {
		return false
	}
	for _, c := range codes {
		if !buildsSenderMessage(readPaths(codeOf(c)), built) {
			return false
		}
	}
	return true
}

// buildsSenderMessage is codeAddressesSender's test of one Code node's
// code.
func buildsSenderMessage(code string, built map[string]map[string]string) bool {
	binds := codeBinds(code)
	built1 := func(read, _ string) bool {
		fs := strings.Split(read, ".")
		return senderField(built, fs[len(fs)-1])
	}
	for _, m := range codeFieldRE.FindAllStringSubmatch(code, -1) {
		if recipientKey(m[1]) && traceRead(m[2], binds, built1) != "" {
			return true
		}
	}
	return false
}

// isWordByte reports a byte of an identifier.
func isWordByte(c byte) bool {
	return ascii.IsWord(c) || c == '$'
}

// callArgs splits the arguments of a call whose '(' came just before s,
// at the commas outside nested brackets, up to its ')'.
func callArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ']', '}':
			depth--
		case ')':
			if depth == 0 {
				return append(out, strings.TrimSpace(s[start:i]))
			}
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil
}

// builtFieldRE matches a read of one field of a named node's item, or of
// the item the node reads.
var builtFieldRE = lazyregexp.New(`\$(?:\(\s*['"]([^'"]+)['"]\s*\)(?:\.(?:item|first\(\)|last\(\)))?|node\[\s*["']([^"']+)["']\s*\])\.json\.(\w+)|(?:\$json|\$input\.(?:item|first\(\)|last\(\))\.json|\bitem\.json)\.(\w+)`)

// bodyPathRE finds the path of a request body field an expression reads:
// body.user_id, json["body"]["user_id"], body.message.chat.id.
var bodyPathRE = lazyregexp.New(`body(?:["']\s*\])?((?:\s*(?:\.\s*\w+|\[\s*["']\w+["']\s*\]))+)`)

// senderFieldRE matches a body field that names who sent the request: a
// Slack command's user_id or user_name, a chat message's from, chat or
// author, WhatsApp's wa_id or remoteJid.
var senderFieldRE = lazyregexp.New(`(?i)\b(user(_?id|_?name)?|from|sender|author|chat|wa_id|remote_?jid|member)\b`)

// itemFieldRE matches a URL that is one field of the item:
// {{ $json.response_url }}, {{ $json["callback"] }}.
var itemFieldRE = lazyregexp.New(`^\{\{\s*\$json(?:\.(\w+)|\[\s*["'](\w+)["']\s*\])\s*\}\}$`)

// chatTextRE matches the message fields of a chat reply: Slack's text,
// blocks and attachments, Discord's content and embeds, a relay's message.
var chatTextRE = lazyregexp.New(`(?i)^(text|content|message|blocks|attachments|embeds)$|["'](text|content|message|blocks|attachments|embeds)["']\s*:`)

// postsChatText reports whether an HTTP call's body holds a chat message.
func postsChatText(n *n8nschema.Node) bool {
	p := n.Params()
	for _, k := range []string{"bodyParameters.parameters", "bodyParametersUi.parameter"} {
		for _, e := range p.Get(k).ElemsSeq() {
			if chatTextRE.MatchString(e.Get("name").Str()) {
				return true
			}
		}
	}
	for _, k := range []string{"jsonBody", "bodyParametersJson", "body"} {
		if chatTextRE.MatchString(p.Get(k).Str()) {
			return true
		}
	}
	return false
}

// emailer reports an e-mail node or API: a message, but not a chat.
func emailer(n *n8nschema.Node) bool {
	switch strings.TrimSuffix(n.Type, "Tool") {
	case "n8n-nodes-base.gmail", "n8n-nodes-base.emailSend", "n8n-nodes-base.microsoftOutlook",
		"n8n-nodes-base.mailgun", "n8n-nodes-base.sendGrid", "n8n-nodes-base.mailjet", "n8n-nodes-base.mandrill",
		"n8n-nodes-base.postmark", "n8n-nodes-base.awsSes", "n8n-nodes-base.sendInBlue":
		return true
	}
	u := strings.ToLower(n.Params().Get("url").Str())
	return n8nschema.IsHTTPRequest(n.Type) && strings.Contains(u, "mail")
}

// chatRecipients returns the parameters that say whom a message goes to:
// a chat node's conversation, an HTTP call's recipient fields and its URL
// (a Discord interaction's callback carries its token).
func chatRecipients(n *n8nschema.Node) []string {
	if n8nschema.IsHTTPRequest(n.Type) {
		out := append(recipientExprs(n), n.Params().Get("url").Str())
		// A body built in one expression: {{ ({ to: $node['N'].json.from }) }}.
		for _, m := range exprFieldRE.FindAllStringSubmatch(n.Params().Get("jsonBody").Str(), -1) {
			if recipientKey(m[1]) && readsItem(m[2]) {
				out = append(out, strings.TrimSpace(m[2]))
			}
		}
		return out
	}
	var out []string
	if !n8nschema.Lookup(n.Type).Known {
		out, _ = communityRecipients(n)
	}
	for _, p := range chatParams {
		if v, ok := n.Param(p); ok {
			if s := v.Get("value").Str(); s != "" {
				out = append(out, s) // a resource locator {"__rl": true, "value": …}
			} else {
				out = append(out, v.Str())
			}
		}
	}
	return out
}

// readsBody reports whether an expression reads the body of the request
// webhook t received: $('Webhook').item.json.body…, $node["Webhook"].json
// ["body"]…, or $json.body… carried along the way.
func readsBody(x string, t *n8nschema.Node) bool {
	json, names := bodiesRead(x)
	return json || slices.Contains(names, t.Name)
}

// bodyCarriers are the names of t and of the nodes that pass t's items on
// as they came, reached from t through such nodes only: a Filter, an If, a
// Switch, a Set, a Wait, a No Op. $('Filter').item.json.body.… reads the
// webhook's body as $('Webhook') would.
func bodyCarriers(g *Graph, t *n8nschema.Node) []string {
	out := []string{t.Name}
	seen := map[*n8nschema.Node]bool{t: true}
	queue := []*n8nschema.Node{t}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range g.OutOfType(n, ConnMain) {
			m := e.To
			if seen[m] || m.Disabled || e.Error {
				continue
			}
			seen[m] = true
			switch m.Type {
			case n8nschema.TypeIf, n8nschema.TypeFilter, n8nschema.TypeSwitch, n8nschema.TypeSet,
				n8nschema.TypeWait, n8nschema.TypeNoOp:
				out = append(out, m.Name)
				queue = append(queue, m)
			}
		}
	}
	return out
}

// readsBodyOf is readsBody for any of the nodes named.
func readsBodyOf(x string, names []string) bool {
	json, read := bodiesRead(x)
	if json {
		return true
	}
	for _, nm := range read {
		if slices.Contains(names, nm) {
			return true
		}
	}
	return false
}

// bodiesRead says whose request body an expression reads: any webhook's
// when it reads $json.body, and the nodes it names that way.
func bodiesRead(x string) (json bool, names []string) {
	if !strings.Contains(x, "{{") || !strings.Contains(x, "body") {
		return false, nil // every read below names the body
	}
	if strings.Contains(x, "$json.body") || strings.Contains(x, `$json["body"]`) || strings.Contains(x, "$json['body']") {
		return true, nil
	}
	nodeRefs(x, func(name string, end int) {
		if strings.Contains(exprRest(x, end), "body") {
			names = append(names, name)
		}
	})
	return false, names
}

// A bodyRead is a string parameter (at rel) that reads a request body.
type bodyRead struct {
	rel, x string
	json   bool     // $json.body: the body of whichever webhook ran
	names  []string // the nodes whose body it names
}

// of reports whether r reads the body of webhook t's request (readsBody).
func (r *bodyRead) of(t *n8nschema.Node) bool {
	return r.json || slices.Contains(r.names, t.Name)
}

// bodyReads are node n's string parameters that read a request body,
// found once per graph: every webhook asks of every node its runs reach.
func (g *Graph) bodyReads(n *n8nschema.Node) []bodyRead {
	g.bodiesOnce.Do(func() {
		g.bodies = map[*n8nschema.Node][]bodyRead{}
		for i, n := range g.Nodes {
			if n.Disabled {
				continue // what a disabled node reads, no run reads
			}
			if raw := n.Params().Raw(); !strings.Contains(raw, `\u`) && !(strings.Contains(raw, "{{") && strings.Contains(raw, "body")) {
				continue // none of its strings holds both (an escape aside, \u may spell them)
			}
			// g.paths holds the same strings, in the order of this walk,
			// as readPaths writes them: relayOf asks for them too.
			texts, k := g.paths(i), 0
			n.Params().Walk(func(rel string, v n8nschema.Value) {
				if v.Kind() != n8nschema.String {
					return // no number or boolean holds "{{"
				}
				x := texts[k]
				k++
				if json, names := bodiesRead(x); json || len(names) > 0 {
					g.bodies[n] = append(g.bodies[n], bodyRead{rel: rel, x: x, json: json, names: names})
				}
			})
		}
	})
	return g.bodies[n]
}

// webhookMethods returns the Webhook node's method (httpMethod, GET by
// default; nodes-base/nodes/Webhook/description.ts), or "" when it takes
// several (with multipleMethods the default is GET and POST:
// nodes-base/nodes/Webhook/Webhook.node.ts).
func webhookMethods(t *n8nschema.Node) string {
	v, ok := t.Param("httpMethod")
	if !ok {
		if t.Params().Get("multipleMethods").True() {
			return ""
		}
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
		var starts []*n8nschema.Node
		for _, t := range g.Triggers() {
			if !t.Disabled && TriggerPaceIn(g, t) == p {
				starts = append(starts, t)
			}
		}
		for _, n := range ReachFrom(g, starts...).Nodes() {
			out[n] |= 1 << p
		}
	}
	return out
}

// PersonPaced reports whether what runs n is paced by people alone: a
// person-paced trigger reaches it and no machine-paced one does.
func PersonPaced(paces map[*n8nschema.Node]uint8, n *n8nschema.Node) bool {
	return paces[n]&(1<<PacePerson) != 0 && paces[n]&(1<<PaceMachine) == 0
}

// idReplies returns the nodes among reach that answer the message webhook
// t's request carried by its own id: an HTTP Request that posts to a URL
// whose path holds, after messages/ or conversations/, the message or
// conversation id the request brought (Feishu/Lark's POST
// …/im/v1/messages/{message_id}/reply, Chatwoot's POST
// …/conversations/{conversation_id}/messages), or a Code node whose code
// builds such a URL and posts to it (this.helpers.httpRequest with method
// POST). The request must carry that id: an expression or a Code node of
// the run reads it off the request body (body.message_id,
// body.conversation.id). A private note (private: true) is seen by the
// team only, and answers no one.
func idReplies(g *Graph, reach Reach, t *n8nschema.Node, carriers []string) []*n8nschema.Node {
	var carried map[string]bool // requestIDs, read once when needed
	var out []*n8nschema.Node
	for _, n := range reach.Nodes() {
		if n.Disabled || n == t {
			continue
		}
		var ids []string
		switch {
		case n8nschema.IsHTTPRequest(n.Type) && n8nschema.IsWriteMethod(n8nschema.HTTPMethod(n)):
			u := n.Params().Get("url").Str()
			if !strings.HasPrefix(u, "=") || privateNoteRE.MatchString(n.Params().Raw()) {
				continue
			}
			for _, m := range idURLRE.FindAllStringSubmatch(readPaths(u), -1) {
				if readsBodyOf(m[2], carriers) {
					ids = append(ids, "") // the id read off the request itself
				}
				ids = append(ids, lastID(m[2]))
			}
		case n.Type == n8nschema.TypeCode:
			// The URL first: most code builds none.
			code := codeOf(n)
			urls := idCodeURLRE.FindAllStringSubmatch(code, -1)
			if len(urls) == 0 || !codeSends(code) || !postMethodRE.MatchString(code) || privateNoteRE.MatchString(code) {
				continue
			}
			for _, m := range urls {
				ids = append(ids, lastID(m[2]+m[3]))
			}
		}
		if len(ids) == 0 {
			continue
		}
		if carried == nil {
			carried = requestIDs(g, reach, t)
		}
		for _, id := range ids {
			if id == "" || carried[id] {
				out = append(out, n)
				break
			}
		}
	}
	slices.SortFunc(out, func(a, b *n8nschema.Node) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// idURLRE matches a URL path segment, after messages/ or conversations/,
// that is an expression, followed by the reply's own path: /reply, or
// /messages after a conversation.
var idURLRE = lazyregexp.New(`/(messages|conversations)/(\{\{[^}]*\}\})/(reply|messages)\b`)

// idCodeURLRE matches code that builds such a URL from a variable:
// "/conversations/" + item.conversation_id + "/messages",
// `/messages/${messageId}/reply`.
var idCodeURLRE = lazyregexp.New(`/(messages|conversations)/(?:["'` + "`" + `]\s*\+\s*([\w$.?\[\]'"]+)\s*\+\s*["'` + "`" + `]|\$\{\s*([\w$.?\[\]'"]+)\s*\})/(?:reply|messages)\b`)

// postMethodRE matches code that sends a POST.
var postMethodRE = lazyregexp.New(`(?i)method\s*:\s*["']POST["']`)

// privateNoteRE matches a message marked private: a team's note in the
// conversation, which its sender does not see.
var privateNoteRE = lazyregexp.New(`\\?["']?private\\?["']?\s*:\s*true\b`)

// idNameRE matches the name of a message's or conversation's id:
// message_id, messageId, conversation_id, conversationId.
var idNameRE = lazyregexp.New(`(?i)^(message|conversation)_?id$`)

// lastID is the id name a read ends in, normalised (message_id and
// messageId are messageid; conversation.id and conversation?.id are
// conversationid), "" when it names no message or conversation id.
func lastID(x string) string {
	f := idReadRE.FindAllStringSubmatch(x, -1)
	if len(f) == 0 {
		return "-"
	}
	last := f[len(f)-1][1] + f[len(f)-1][2]
	if strings.EqualFold(last, "id") && len(f) > 1 {
		last = f[len(f)-2][1] + f[len(f)-2][2] + "id"
	}
	if !idNameRE.MatchString(last) {
		return "-"
	}
	return strings.ToLower(strings.ReplaceAll(last, "_", ""))
}

// idReadRE takes each name of a read: item.conversation_id,
// payload.conversation?.id, $json["message_id"].
var idReadRE = lazyregexp.New(`(?:^|[.?\s{(])(\w+)|\[\s*["'](\w+)["']\s*\]`)

// requestIDs are the message and conversation ids (lastID) that the runs
// of webhook t read off its request body: in an expression that reads the
// body, or in a Code node whose code reads json.body and names the id.
func requestIDs(g *Graph, reach Reach, t *n8nschema.Node) map[string]bool {
	out := map[string]bool{}
	for _, n := range reach.Nodes() {
		if n.Disabled {
			continue
		}
		for _, r := range g.bodyReads(n) {
			if !r.of(t) {
				continue
			}
			for _, m := range bodyPathRE.FindAllStringSubmatch(readPaths(r.x), -1) {
				if id := lastID(m[1]); id != "-" {
					out[id] = true
				}
			}
		}
		if n.Type != n8nschema.TypeCode {
			continue
		}
		code := codeOf(n)
		if !strings.Contains(code, "json.body") && !strings.Contains(code, `json["body"]`) && !strings.Contains(code, "json['body']") {
			continue
		}
		for _, m := range codeIDRE.FindAllString(code, -1) {
			if id := lastID(m); id != "-" {
				out[id] = true
			}
		}
	}
	return out
}

// codeIDRE finds the reads of a message's or conversation's id in code:
// x.message_id, payload.conversation?.id, body.conversationId.
var codeIDRE = lazyregexp.New(`\.\s*(?:message_?[iI]d|conversation_?[iI]d|conversation\??\.id)\b`)
