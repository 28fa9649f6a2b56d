package analyze

import (
	"cmp"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// An open relay is a message sent from the owner's account (a mailbox, a
// number, a calendar's invitation) to a recipient that whoever starts the
// run chooses: a Gmail, Send Email, Outlook, SendGrid or Twilio send, or a
// calendar event's guest (calendar_invite.go), whose address is read from
// the request of a Webhook, a Form Trigger or a Chat Trigger, or an agent
// tool's send whose address the model fills in ($fromAI) from the
// stranger's message. When the trigger is open (Exposure), anyone can make
// the owner's account send to any address.
//
// What the recipient reads is followed back through the nodes that pass
// items on as they came (If, Filter, Switch, No Op, Wait, a disabled node)
// and through the fields a Set node writes (manual mode: nodes-base
// Set/v2/manual.mode.js, Set/v1/SetV1.node.js), to the trigger's item: a
// Webhook's holds the request under body, query, headers and params
// (nodes-base/nodes/Webhook/Webhook.node.ts, webhook()); a Form Trigger's
// holds the submitted fields (nodes-base/nodes/Form/utils.ts
// prepareFormReturnItem); a Chat Trigger's the chat message (chatInput).
// A Code node's field is followed to what it copies it from (codeReads:
// the request's body spread into the object it returns, a key set from a
// read, its input returned as it came). A field another node gives (a row
// looked up in the owner's sheet by an id, a value a Code node computes)
// is not the request's.

// OpenRelay is a message node that a run started at an open trigger sends to
// a recipient the caller chooses.
type OpenRelay struct {
	Node *n8nschema.Node
	// Recipient is the recipient parameter as written.
	Recipient string
	// Agent is the agent whose model fills the recipient in ($fromAI)
	// from the caller's message; nil when the request gives it.
	Agent *n8nschema.Node
	// PerMessage is true for a text, a WhatsApp message or a call, which
	// the provider bills per message (Twilio, Vonage, Vapi).
	PerMessage bool
	// Call is true for an outbound phone call (phoneCallEndpoint).
	Call bool
	// Invite is true for an event created in the owner's calendar with
	// the recipient among its attendees (calendarInvite): the calendar
	// invites them from the owner's account.
	Invite bool
	// Mailed is true for an Invite the service mails to its guests
	// (Microsoft Graph always, Google only with sendUpdates set).
	Mailed bool
}

// perMessage are the message nodes whose sends the provider bills per
// message or call.
var perMessage = map[string]bool{
	"n8n-nodes-base.twilio": true, "n8n-nodes-base.vonage": true, "n8n-nodes-base.plivo": true,
	"n8n-nodes-base.messageBird": true, "n8n-nodes-base.sms77": true, "n8n-nodes-base.msg91": true,
	"n8n-nodes-base.mocean": true, "n8n-nodes-base.whatsApp": true,
}

// perMessageHosts are the APIs of texts and calls an HTTP Request may
// send to: Twilio, Vonage (Nexmo), Plivo, Vapi, WhatsApp Cloud.
var perMessageHosts = []string{"api.twilio.com", "nexmo.com", "vonage.com", "api.plivo.com", "api.vapi.ai", "graph.facebook.com"}

// OpenRelays returns the message nodes among reach (RunReach of open
// trigger t, or what StrangerReach leaves of it) whose recipient the
// caller chooses, in file order. A
// message whose effect (ConsequenceIn) is no harm to a third party (a
// report to a fixed or configured address, the team's own people, the
// bot's answer to the sender, a colleague the owner's record names) is
// none.
func OpenRelays(g *Graph, t *n8nschema.Node, reach Reach) []OpenRelay {
	var out []OpenRelay
	var w *relayWalk // made on first need
	// A bot's message to the chat or number that wrote (a Telegram
	// chat id, a WhatsApp sender) reaches only the stranger themselves.
	bot := botExposure(t) != ""
	for _, n := range g.Nodes {
		if !reach.Has(n) || n == t || n.Disabled {
			continue
		}
		typ := strings.TrimSuffix(n.Type, "Tool")
		if exprs, mailed, ok := calendarInvite(n); ok {
			// An event whose guest the caller or the model picks.
			if w == nil {
				w = &relayWalk{g: g, t: t, stranger: reach, memo: map[fieldKey]bool{}}
			}
			if x, a := w.pickedRecipient(n, exprs, bot); x != "" {
				out = append(out, OpenRelay{Node: n, Recipient: x, Agent: a, Invite: true, Mailed: mailed})
			}
			continue
		}
		http := typ == n8nschema.TypeHTTPRequest
		if !mailers[typ] && !http {
			continue
		}
		exprs := recipientExprs(n)
		if !slices.ContainsFunc(exprs, func(x string) bool { return strings.Contains(x, "{{") }) {
			continue // no recipient, or a literal one
		}
		if freeFormWhatsApp(n, typ) {
			continue
		}
		call := false // an outbound phone call (Vapi, Twilio): harm, not a message
		var host string
		if http {
			u := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(n.Params().Get("url").Str(), "=")))
			host = hostOf(u)
			call = phoneCallEndpoint(host, pathOf(u))
		}
		e := ConsequenceIn(g, n)
		if e.Consequence != Harm || !e.Message && !call || e.Colleague || e.Answer {
			continue
		}
		r := OpenRelay{Node: n, PerMessage: perMessage[typ], Call: call}
		if w == nil {
			w = &relayWalk{g: g, t: t, stranger: reach, memo: map[fieldKey]bool{}}
		}
		if http {
			r.PerMessage = call || slices.ContainsFunc(perMessageHosts, func(h string) bool { return strings.HasSuffix(host, h) })
		}
		r.Recipient, r.Agent = w.pickedRecipient(n, exprs, bot)
		if r.Recipient != "" {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b OpenRelay) int { // file order
		i, _ := g.index(a.Node)
		j, _ := g.index(b.Node)
		return cmp.Compare(i, j)
	})
	return out
}

// pickedRecipient returns the first of recipient values exprs of node n
// that whoever started the run picks: one the model fills in ($fromAI, or
// an HTTP Request tool's {placeholder}) for an agent whose prompt is the
// caller's message (that agent returned too), or one read from the
// request; at a bot (bot), not the chat or number that wrote.
func (w *relayWalk) pickedRecipient(n *n8nschema.Node, exprs []string, bot bool) (string, *n8nschema.Node) {
	for _, x := range exprs {
		model := strings.Contains(x, "$fromAI") || strings.Contains(x, "fromAI(") ||
			n.Type == n8nschema.TypeToolHTTPRequest && !strings.Contains(x, "{{") && placeholderRE.MatchString(x)
		if model {
			if a := w.askingAgent(n); a != nil {
				return x, a
			}
			continue
		}
		if bot && botSenderRE.MatchString(x) {
			continue // the bot answers whoever wrote: only they get it
		}
		if w.fromRequest(n, x) {
			return x, nil
		}
	}
	return "", nil
}

// askingAgent returns the agent of stranger that tool n is attached to
// and whose prompt is the caller's: the chat input it takes by default
// (promptType "auto", or a text that reads the request), so the model
// fills the tool's $fromAI recipient from what the caller wrote.
func (w *relayWalk) askingAgent(n *n8nschema.Node) *n8nschema.Node {
	return w.askingAgentOf(n, true)
}

// askingAgentOf is askingAgent; a prompt that tells the model where to
// send (toldWhere) counts only when where is set.
func (w *relayWalk) askingAgentOf(n *n8nschema.Node, where bool) *n8nschema.Node {
	for _, e := range w.g.OutOfType(n, ConnTool) {
		a := e.To
		if !w.stranger.Has(a) || a.Disabled || a.Type != n8nschema.TypeAgent {
			continue
		}
		prompt := "={{ $json.chatInput }}" // promptType auto (shown from Agent 1.3: AgentV1.node.js), and the text's default before
		if pt := a.Params().Get("promptType").Str(); pt == "define" {
			prompt = a.Params().Get("text").Str()
		}
		if w.fromRequest(a, prompt) && !(where && w.toldWhere(a, prompt)) {
			return a
		}
	}
	return nil
}

// addressWordRE matches a field path that names an address: an e-mail, a
// phone or a mobile number, a recipient, a "to".
var addressWordRE = lazyregexp.New(`(?i)(mail|phone|mobile|number|recipient|contact|(^|[^a-z])to([^a-z]|$))`)

// toldWhere reports whether agent a's prompt (text and system message)
// gives the model the address to send to itself: a literal e-mail address,
// or a field a Set node of the workflow writes as one (or leaves blank, a
// template's place for the owner's own), and no address field of the
// request. Such a model sends where the owner said ("send the summary to
// my address: {{ $json.emailAddress }}"); only an injected instruction in
// the caller's text could turn it elsewhere, which this rule does not
// claim.
func (w *relayWalk) toldWhere(a *n8nschema.Node, prompt string) bool {
	text := prompt + "\n" + a.Params().Get("options.systemMessage").Str()
	told := false
	for _, m := range exprRE.FindAllString(text, -1) {
		inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(m, "{{"), "}}"))
		if addressWordRE.MatchString(inner) && w.fromRequest(a, m) {
			return false // the caller's own address, handed to the model
		}
		told = told || w.setAddress(a, inner)
	}
	if told {
		return true
	}
	for _, f := range strings.Fields(exprRE.ReplaceAllString(text, " ")) {
		if f = strings.Trim(f, ".,;:()[]<>\"'`*"); strings.Contains(f, "@") && addressRE.MatchString(f) {
			return true
		}
	}
	return false
}

// setAddress reports whether expr (fieldRefRE: one field of a named
// node's output, or of n's own $json) reads a field that the Set nodes it
// comes from in the trigger's runs write as an address (ownAddress) or
// leave blank.
func (w *relayWalk) setAddress(n *n8nschema.Node, expr string) bool {
	m := fieldRefRE.FindStringSubmatch(expr)
	if m == nil {
		return false
	}
	var names []string
	for _, p := range fieldPathRE.FindAllString(m[4], -1) {
		names = append(names, strings.Trim(p, `"'`))
	}
	var srcs []*n8nschema.Node
	if m[3] != "" {
		for _, e := range w.g.InOfType(n, ConnMain) {
			if w.stranger.Has(e.From) {
				srcs = append(srcs, e.From)
			}
		}
	} else if s := w.g.Node(m[1] + m[2]); s != nil {
		srcs = append(srcs, s)
	}
	for _, s := range srcs {
		v, found := setLiteral(s, strings.Join(names, "."))
		if !found || strings.TrimSpace(v) != "" && !ownAddress(v, nil) {
			return false
		}
	}
	return len(srcs) > 0
}

// relayWalk follows recipients back to open trigger t's request within
// the nodes its runs reach (stranger), each node's field once (memo).
//
// A field is the request's when the field it is read from is (an OR over
// its sources), so on a loop the fields of one strongly connected
// component share one answer. The walk is Tarjan's: a field asked again
// while it is still being walked (open, its place on stack) answers false
// for now, and the lowest place so read (low) tells whether the answer
// found leaned on a field still open. A true answer is final at once (an
// OR only grows), for the field and for every field above it on the
// stack, which all lead back to it; a false one is final only when
// nothing lower on the stack was read (the component is closed), and is
// then stored for the whole component. Each field is still walked once.
type relayWalk struct {
	g        *Graph
	t        *n8nschema.Node
	stranger Reach
	memo     map[fieldKey]bool
	open     map[fieldKey]int
	stack    []fieldKey
	low      int // only read below a field on the stack: its zero is never used
}

// freeFormWhatsApp reports a WhatsApp Cloud message that is not a
// template: the WhatsApp node's send and send-and-wait (its default is
// sendTemplate: nodes-base/nodes/WhatsApp/MessagesDescription.js), or an
// HTTP call to graph.facebook.com whose body is no template. Meta
// delivers such a message only to a number that wrote to the business in
// the last 24 hours (developers.facebook.com/docs/whatsapp/cloud-api/guides/send-messages,
// "customer service window"); to any other number the API answers an
// error: a stranger cannot open a conversation with it. Twilio's SMS
// node sends its Body as a WhatsApp message when toWhatsapp is on
// (nodes-base/nodes/Twilio/Twilio.node.js L221-224), under the same rule.
func freeFormWhatsApp(n *n8nschema.Node, typ string) bool {
	switch {
	case typ == "n8n-nodes-base.twilio":
		return n.Params().Get("toWhatsapp").True()
	case typ == "n8n-nodes-base.whatsApp":
		op := n.Params().Get("operation").Str()
		return op != "" && op != "sendTemplate"
	case typ == n8nschema.TypeHTTPRequest:
		host := hostOf(strings.ToLower(strings.TrimPrefix(n.Params().Get("url").Str(), "=")))
		if !strings.HasSuffix(host, "graph.facebook.com") {
			return false
		}
		return !strings.Contains(n.Params().Raw(), "template")
	}
	return false
}

// fromRequest reports whether expression x of node n reads a field of
// trigger t's request: by the name of t or of a node that hands the field
// on, or as $json (or $input's item) of an input of n that does.
func (w *relayWalk) fromRequest(n *n8nschema.Node, x string) bool {
	if !strings.Contains(x, "{{") {
		return false
	}
	found := false
	sc := exprScan{x: x, endFrom: len(x) + 1, jsonFrom: len(x) + 1} // nothing searched yet
	var asked map[jsonAsk]bool                                      // a field path asked of a source already
	ask := func(src *n8nschema.Node, at int) bool {
		if asked == nil {
			asked = map[jsonAsk]bool{}
		}
		k := jsonAsk{src, at}
		if asked[k] {
			return false
		}
		asked[k] = true
		return true
	}
	nodeRefs(x, func(name string, end int) {
		if !found {
			if src := w.g.Node(name); src != nil && w.stranger.Has(src) {
				if path, at := sc.jsonPath(end, false); ask(src, at) {
					found = w.fieldFrom(src, path)
				}
			}
		}
	})
	if found {
		return true
	}
	for _, ref := range []string{"$json", "$input"} {
		for i := 0; !found; {
			j := strings.Index(x[i:], ref)
			if j < 0 {
				break
			}
			i += j + len(ref)
			if i < len(x) && (x[i] == '_' || x[i] == '$' || 'a' <= x[i]|0x20 && x[i]|0x20 <= 'z' || '0' <= x[i] && x[i] <= '9') {
				continue // $jsonData, $inputs: another name
			}
			path, at := sc.jsonPath(i, ref == "$json")
			if path == nil || !ask(nil, at) {
				continue
			}
			for _, e := range w.g.InOfType(n, ConnMain) {
				if !e.Error && w.stranger.Has(e.From) && w.fieldFrom(e.From, path) {
					found = true
					break
				}
			}
		}
	}
	return found
}

// jsonAsk is a field path read at place at of an expression, asked of
// node src (nil: of the inputs).
type jsonAsk struct {
	src *n8nschema.Node
	at  int
}

// exprScan reads the field paths of expression text x at places asked in
// increasing order, finding the end of each {{ }} and each "json" once: a
// recipient of k reads costs its length, not k times its length.
type exprScan struct {
	x string
	// x[endFrom:end] holds no "}}" and end is the next one (len(x): none);
	// likewise jsonFrom and json for "json".
	endFrom, end, jsonFrom, json int
	parens                       []int32 // parens[i]: the '(' in x[:i], made on first need
}

// next returns the place of the first sub in s.x at or after i, searching
// again only when i is outside the stretch searched last (from..at).
func (s *exprScan) next(sub string, i int, from, at *int) int {
	if i < *from || i > *at {
		*from, *at = i, len(s.x)
		if j := strings.Index(s.x[i:], sub); j >= 0 {
			*at = i + j
		}
	}
	return *at
}

// jsonPath reads the field path after the first .json that follows place
// i within its {{ }} (the text after a node's name or $input:
// .item.json.body.email, .first().json["email"]), or right at i when
// afterJSON (after $json): the names in order, up to the first part that
// is not a name, and the place it starts. nil (and -1) when the text
// reads no json.
func (s *exprScan) jsonPath(i int, afterJSON bool) ([]string, int) {
	e := s.next("}}", i, &s.endFrom, &s.end)
	if afterJSON {
		return jsonPathAfter(s.x[i:e]), i
	}
	j := s.next("json", i, &s.jsonFrom, &s.json)
	if j+len("json") > e {
		return nil, -1
	}
	if s.parens == nil {
		s.parens = make([]int32, len(s.x)+1)
		for k := range len(s.x) {
			s.parens[k+1] = s.parens[k]
			if s.x[k] == '(' {
				s.parens[k+1]++
			}
		}
	}
	if s.parens[j]-s.parens[i] > 3 {
		return nil, -1
	}
	return jsonPathAfter(s.x[j+len("json") : e]), j
}

// jsonPathAfter reads the field path that rest, the text after a json,
// starts with.
func jsonPathAfter(rest string) []string {
	path := []string{}
	for {
		rest = strings.TrimLeft(rest, " \t\n")
		rest = strings.TrimPrefix(rest, "?")
		switch {
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
			k := 0
			for k < len(rest) && (rest[k] == '_' || rest[k] == '$' || 'a' <= rest[k]|0x20 && rest[k]|0x20 <= 'z' || k > 0 && '0' <= rest[k] && rest[k] <= '9') {
				k++
			}
			if k == 0 {
				return path
			}
			path = append(path, rest[:k])
			rest = rest[k:]
		case strings.HasPrefix(rest, "[") && len(rest) > 2 && (rest[1] == '"' || rest[1] == '\''):
			end := strings.IndexByte(rest[2:], rest[1])
			if end < 0 {
				return path
			}
			path = append(path, rest[2:2+end])
			rest = strings.TrimLeft(rest[3+end:], " ")
			if !strings.HasPrefix(rest, "]") {
				return path
			}
			rest = rest[1:]
		default:
			return path
		}
	}
}

// fieldFrom reports whether field path of the items node src outputs
// holds what the caller of trigger t sent.
func (w *relayWalk) fieldFrom(src *n8nschema.Node, path []string) bool {
	// Each node's field is asked once per trigger: a branchy graph or a
	// long chain of Set nodes does not make the walk repeat itself.
	key := fieldKey{src, strings.Join(path, "\x00")}
	if v, ok := w.memo[key]; ok {
		return v
	}
	if w.open == nil {
		w.open = map[fieldKey]int{}
	}
	if at, ok := w.open[key]; ok {
		w.low = min(w.low, at)
		return false // for now: a cycle back here adds nothing of its own
	}
	at, outer := len(w.stack), w.low
	w.open[key] = at
	w.stack = append(w.stack, key)
	w.low = at
	v := w.fieldFromOnce(src, path)
	if !v && w.low < at {
		w.low = min(outer, w.low) // leaned on an open field: not final yet
		return false
	}
	for _, k := range w.stack[at:] {
		w.memo[k] = v
		delete(w.open, k)
	}
	w.stack = w.stack[:at]
	w.low = outer
	return v
}

// fieldKey names a field path of a node's output.
type fieldKey struct {
	node *n8nschema.Node
	path string
}

func (w *relayWalk) fieldFromOnce(src *n8nschema.Node, path []string) bool {
	if src == w.t {
		return requestField(w.t, path)
	}
	inputs := func() bool {
		for _, e := range w.g.InOfType(src, ConnMain) {
			if !e.Error && w.stranger.Has(e.From) && w.fieldFrom(e.From, path) {
				return true
			}
		}
		return false
	}
	if passesItems(src) {
		return inputs()
	}
	if strings.HasPrefix(src.Type, "@n8n/n8n-nodes-langchain.") {
		return w.modelOfRequest(src)
	}
	if n8nschema.IsCode(src.Type) {
		exprs, keeps := codeReads(src, path)
		for _, x := range exprs {
			if w.fromRequest(src, x) {
				return true
			}
		}
		return keeps && inputs()
	}
	if src.Type != n8nschema.TypeSet || len(path) == 0 {
		return false
	}
	val, found, keeps := setField(src, path)
	if found {
		return w.fromRequest(src, val)
	}
	return keeps && inputs()
}

// modelOfRequest reports whether model node src (an agent, a chain, a
// "message a model" node) answers a prompt that reads the request: what
// it outputs is then the caller's to steer, a phone number it formats as
// much as any text.
func (w *relayWalk) modelOfRequest(src *n8nschema.Node) bool {
	if n8nschema.IsAgent(src.Type) && src.Params().Get("promptType").Str() != "define" {
		return w.fromRequest(src, "={{ $json.chatInput }}")
	}
	found := false
	src.Params().Walk(func(_ string, v n8nschema.Value) {
		if !found && v.Kind() == n8nschema.String && strings.Contains(v.Str(), "{{") {
			found = w.fromRequest(src, v.Str())
		}
	})
	return found
}

// requestField reports whether field path of trigger t's item is what
// its caller sent: a Webhook's body, query, headers or URL params, any
// field of a form's submission or a chat's message.
func requestField(t *n8nschema.Node, path []string) bool {
	if t.Type != n8nschema.TypeWebhook {
		return true
	}
	return len(path) > 0 && slices.Contains([]string{"body", "query", "headers", "params"}, path[0])
}

// setField returns the value Set node s (manual mode) writes to the
// field path starts with, and whether it hands the input's other fields
// on (setKeeps; keepOnlySet false before v3).
func setField(s *n8nschema.Node, path []string) (val string, found, keeps bool) {
	p := s.Params()
	if m := p.Get("mode").Str(); s.TypeVersion >= 3 && m != "" && m != "manual" {
		return "", false, false
	}
	match := func(name string) bool {
		parts := strings.Split(name, ".")
		return len(parts) <= len(path) && slices.Equal(parts, path[:len(parts)])
	}
	if s.TypeVersion < 3 {
		keeps = !p.Get("keepOnlySet").True()
		p.Get("values").Each(func(_ string, typed n8nschema.Value) bool {
			for _, a := range typed.ElemsSeq() {
				if match(a.Get("name").Str()) {
					val, found = a.Get("value").Str(), true
					return false
				}
			}
			return true
		})
		return val, found, keeps
	}
	keeps, _ = setKeeps(s)
	for _, a := range p.Get("assignments.assignments").ElemsSeq() {
		if match(a.Get("name").Str()) {
			return a.Get("value").Str(), true, keeps
		}
	}
	for _, a := range p.Get("fields.values").ElemsSeq() {
		if match(a.Get("name").Str()) {
			typ := a.Get("type").Str()
			if typ == "" {
				typ = "stringValue"
			}
			return a.Get(typ).Str(), true, keeps
		}
	}
	return "", false, keeps
}

// ReadablePath reports whether a Webhook's path is one a stranger may
// guess: set to words (contact-form, send-email), not the random id n8n
// gives a new webhook (a UUID) or another run of hex digits.
func ReadablePath(t *n8nschema.Node) bool {
	p := strings.Trim(strings.TrimSpace(t.Params().Get("path").Str()), "/")
	if p == "" || uuidRE.MatchString(p) || strings.Contains(p, "{{") {
		return false
	}
	hex := 0
	for i := 0; i < len(p); i++ {
		if c := p[i] | 0x20; '0' <= p[i] && p[i] <= '9' || 'a' <= c && c <= 'f' || p[i] == '-' {
			hex++
		}
	}
	if hex == len(p) && len(p) >= 12 {
		return false
	}
	run := 0
	for i := 0; i < len(p); i++ {
		if c := p[i] | 0x20; 'a' <= c && c <= 'z' {
			run++
			if run >= 3 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// An OwnerAction is an agent tool that acts in the owner's account with
// what the model fills in from the message of whoever started the run (at
// an open trigger, a stranger's word) and changes what the owner has or
// speaks as the owner to others: a Gmail reply (to the owner's
// correspondents, in their thread) or delete; a Google Calendar event
// changed or deleted (the owner's meetings moved or cancelled). A mail
// sent to a fixed or the owner's own address only fills what the owner
// reads (RS306 and RS402 speak of that), and a send to an address the
// model picks is an OpenRelay. So is a created event whose guest the
// model or the request picks (calendarInvite); one whose guests are fixed
// lands in the owner's calendar and is neither.
type OwnerAction struct {
	Node  *n8nschema.Node
	Agent *n8nschema.Node
	// What says what the tool does: "sends mail", "deletes calendar events".
	What string
}

// ownerAction says what tool n does in the owner's account, "" when
// nothing this file reads as the owner's action. The Gmail node's
// resource defaults to message and its operation to send (nodes-base
// Google/Gmail/v2/MessageDescription.js); Google Calendar's to event and
// create (Google/Calendar/GoogleCalendar.node.js, EventDescription.js).
func ownerAction(n *n8nschema.Node) string {
	r, _ := n.Param("resource")
	o, _ := n.Param("operation")
	res, op := r.Str(), o.Str()
	switch n.Type {
	case "n8n-nodes-base.gmailTool":
		if res != "" && res != "message" {
			return ""
		}
		switch op {
		case "reply":
			return "replies to mail"
		case "delete":
			return "deletes mail"
		}
	case "n8n-nodes-base.googleCalendarTool":
		if res != "" && res != "event" {
			return ""
		}
		switch op {
		case "update":
			return "changes calendar events"
		case "delete":
			return "deletes calendar events"
		}
	}
	return ""
}

// OwnerActions returns the agent tools among reach (what a stranger's run
// at open trigger t reaches) that act in the owner's account
// (ownerAction) for an agent whose prompt is the caller's message
// (askingAgent), in file order.
func OwnerActions(g *Graph, t *n8nschema.Node, reach Reach) []OwnerAction {
	var out []OwnerAction
	var w *relayWalk
	for _, n := range reach.Nodes() {
		if n.Disabled {
			continue
		}
		what := ownerAction(n)
		if what == "" {
			continue
		}
		if w == nil {
			w = &relayWalk{g: g, t: t, stranger: reach, memo: map[fieldKey]bool{}}
		}
		if a := w.askingAgentOf(n, false); a != nil {
			out = append(out, OwnerAction{Node: n, Agent: a, What: what})
		}
	}
	slices.SortFunc(out, func(a, b OwnerAction) int {
		i, _ := g.index(a.Node)
		j, _ := g.index(b.Node)
		return cmp.Compare(i, j)
	})
	return out
}
