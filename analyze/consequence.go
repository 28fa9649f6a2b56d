package analyze

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Consequence is what a node leaves behind when it runs once more for the
// same item: after a retry whose first attempt had committed, a
// redelivered webhook, a re-run execution. It orders by what a duplicate
// costs the owner.
type Consequence uint8

const (
	// NoEffect: not a write, or a POST that only reads or analyses (a
	// search, a scrape, a GraphQL query): a repeat costs a call.
	NoEffect Consequence = iota
	// SameState: a repeat re-applies the same state: fields set on one
	// record by id, a file written at a fixed path, a delete, a pause, a
	// write the API refuses to repeat.
	SameState
	// Nuisance: a duplicate the team sees and shrugs at: an alert in a team
	// channel, a report mailed to a fixed address, an extra row in a log, a
	// draft.
	Nuisance
	// SecondRecord: a second record in an app the owner works in: a row
	// in a sheet or table, a page, a task, a file. Someone sees it and
	// deletes it.
	SecondRecord
	// Unclear: a POST whose endpoint and provider say nothing about what
	// it creates: the duplicate may be anything from a log line to an
	// order.
	Unclear
	// Harm: a duplicate that reaches money or a third party: a charge, an
	// order, a booking, a message to a customer, a created deal or ticket,
	// a public post.
	Harm
)

var consequenceNames = [...]string{"no effect", "same state", "nuisance", "second record", "unclear", "harm"}

func (c Consequence) String() string {
	if int(c) < len(consequenceNames) {
		return consequenceNames[c]
	}
	return "unknown"
}

// Duplicates reports whether a repeat leaves a second effect.
func (c Consequence) Duplicates() bool { return c >= Nuisance }

// Effect is a write's consequence with what the duplicate is, in words
// ("a second message to a recipient taken from the data").
type Effect struct {
	Consequence Consequence
	// Op names the operation: "POST", "message.send".
	Op string
	// Duplicate says what a repeat leaves: "an alert in a team channel".
	Duplicate string
	// Message is true for a message to people (mail, SMS, chat): sent from
	// an error workflow it is an alert to the team, whoever receives it.
	Message bool
	// Colleague is true for a Harm message whose every recipient is a
	// record's field naming a role in the owner's organisation (a
	// supervisor's address read from the owner's own table): the
	// duplicate reaches a colleague asked to act, not a customer
	// (recipientsAreColleagues).
	Colleague bool
	// Answer is true for the bot's answer to the person whose message
	// started the run (AnswersStarter): a duplicate is a nuisance, but a
	// failure is an answer that does not come, no best-effort alert.
	Answer bool
	Conf   n8nschema.Confidence
}

// ConsequenceOf decides what running node n once more leaves behind. It is
// the one place that reads it: from the HTTP method and endpoint (what the
// URL says, endpoint.go), or from the app node's resource and operation
// with n8n's defaults (n8nschema.AppOperation), then from who receives the
// result.
func ConsequenceOf(n *n8nschema.Node) Effect {
	w, op, conf := n8nschema.WriteOpConf(n)
	if !w {
		return Effect{Op: op}
	}
	if n8nschema.IsHTTPRequest(n.Type) {
		u := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(n.Params().Get("url").Str(), "=")))
		if n8nschema.MockWrite(hostOf(u), pathOf(u)) {
			return Effect{Op: op, Conf: n8nschema.ConfHigh} // a mock API fakes the write and keeps nothing
		}
	}
	if _, ok := n8nschema.HTTPModelCallOf(n); ok {
		return Effect{Op: op, Conf: n8nschema.ConfHigh} // a model's answer, not a write
	}
	if n8nschema.ChatRequestBody(n) {
		return Effect{Op: op, Conf: n8nschema.ConfMedium} // a model's answer from a host the run decides
	}
	e := Effect{Op: op, Conf: conf}
	if n8nschema.IsWriteMethod(op) {
		// Both questions are asked of the write, then of the message.
		// Both read the JSON body's fields, found once.
		var fields [][]string
		found := false
		body := func() [][]string {
			if !found {
				fields, found = jsonBodyFields(n), true
			}
			return fields
		}
		// Both need a body field that names a recipient: most bodies
		// have none, and namesRecipient spares them the patterns.
		recipient := !n8nschema.IsHTTPRequest(n.Type) || namesRecipient(n)
		own := memo(func() bool { return recipient && ownRecipient(n, body()) })
		toItem := memo(func() bool { return recipient && messageToItem(n, body()) })
		team := memo(func() bool { return postsToTeamChannel(n, body) })
		e.Consequence, e.Duplicate, e.Conf = httpConsequence(n, op, own, toItem, team)
		if (e.Consequence == Harm || e.Consequence == SecondRecord) && itemlessPOST(n) {
			// The same request every time: what it starts is the server's.
			e.Consequence, e.Duplicate = Unclear, "a second run of whatever "+orUnknown(hostOf(strings.ToLower(n.Params().Get("url").Str())))+" does when called, with nothing from the item"
		}
		u := strings.ToLower(strings.TrimPrefix(n.Params().Get("url").Str(), "="))
		e.Message = e.Consequence >= Nuisance && (teamHost(hostOf(u)) || messagePath(pathOf(u)) || own() || toItem() || team())
	} else {
		e.Consequence, e.Duplicate = appConsequence(n, op)
		typ := strings.TrimSuffix(n.Type, "Tool")
		e.Message = e.Consequence >= Nuisance && (teamChannels[typ] || mailers[typ])
	}
	return e
}

// mayMessage is false only when ConsequenceOf(n).Message is: a message
// is a write that an app node of teamChannels or mailers makes, or a
// write an HTTP Request makes to a team host, at a message path or with a
// body that names a recipient or a team channel (an app's operation
// named as a method is read as an HTTP Request's, and kept). RelaysChat
// asks of every node, and most are none of these; reading their whole
// consequence (an endpoint's reads and writes) would cost more than the
// answer (TestMayMessage compares the two on every corpus node).
func mayMessage(n *n8nschema.Node) bool {
	if !n8nschema.IsHTTPRequest(n.Type) {
		typ := strings.TrimSuffix(n.Type, "Tool")
		if teamChannels[typ] || mailers[typ] {
			return true
		}
		// An app's operation named as a method is judged as one.
		_, op, _ := n8nschema.WriteOpConf(n)
		return n8nschema.IsWriteMethod(op)
	}
	if !n8nschema.IsWriteMethod(n8nschema.HTTPMethod(n)) {
		return false
	}
	u := strings.ToLower(strings.TrimPrefix(n.Params().Get("url").Str(), "="))
	return teamHost(hostOf(u)) || messagePath(pathOf(u)) || namesRecipient(n) ||
		postsToTeamChannel(n, func() [][]string { return jsonBodyFields(n) })
}

// effect is ConsequenceOf(g.Nodes[i]), decided once per node of the
// graph: the attempt model asks it of every write, RelaysChat of every
// node mayMessage does not rule out.
func (g *Graph) effect(i int) Effect {
	g.effectsOnce.Do(func() {
		g.effects = make([]Effect, len(g.Nodes))
		g.effectOnce = make([]sync.Once, len(g.Nodes))
	})
	g.effectOnce[i].Do(func() { g.effects[i] = ConsequenceOf(g.Nodes[i]) })
	return g.effects[i]
}

// memo returns f, called at most once.
func memo(f func() bool) func() bool {
	var asked, v bool
	return func() bool {
		if !asked {
			v, asked = f(), true
		}
		return v
	}
}

// httpConsequence reads an HTTP Request node's write from its method and
// endpoint; own, toItem and team are ownRecipient, messageToItem and
// postsToTeamChannel of n.
func httpConsequence(n *n8nschema.Node, method string, own, toItem, team func() bool) (Consequence, string, n8nschema.Confidence) {
	u := strings.TrimPrefix(n.Params().Get("url").Str(), "=")
	switch method {
	case "DELETE":
		return SameState, "", n8nschema.ConfHigh
	case "PUT":
		return SameState, "", n8nschema.ConfMedium // replaces the resource (RFC 9110 §9.2.2)
	case "PATCH":
		// Sets fields, unless the endpoint appends (Notion's
		// PATCH /blocks/{id}/children adds blocks).
		if appendPathRE.MatchString(pathOf(u)) {
			return SecondRecord, "more content appended to the same record", n8nschema.ConfMedium
		}
		return SameState, "", n8nschema.ConfMedium
	}
	if readingPOST(n) || igContainer(n) {
		return NoEffect, "", n8nschema.ConfMedium
	}
	if settingPOST(n) || namedCopy(n) || namedUpload(n) || postgrestUpsert(n) {
		return SameState, "", n8nschema.ConfMedium
	}
	host := strings.ToLower(hostOf(u))
	path := strings.ToLower(pathOf(u))
	harm := memo(func() bool { return paymentHost(host) || harmPathRE.MatchString(path) })
	switch {
	case teamHost(host):
		return Nuisance, "a second alert in a team channel", n8nschema.ConfHigh
	case phoneCallEndpoint(host, path):
		return Harm, "a second phone call to the number the request names, placed by " + host, n8nschema.ConfHigh
	case harm() && draftStatus(n):
		// Created with status "DRAFT" (Xero's Invoices take Status
		// DRAFT, SUBMITTED or AUTHORISED): a draft in the owner's own
		// books that someone approves before anything is sent or paid.
		return Nuisance, "a second draft " + harmWord(path) + " at " + orUnknown(host) + ", to delete before it is approved", n8nschema.ConfMedium
	case harm():
		return Harm, "a second " + harmWord(path) + " at " + orUnknown(host), n8nschema.ConfHigh
	case bookingEndpoint(n):
		return Harm, "a second booking at " + orUnknown(host), n8nschema.ConfMedium
	case invitesFromData(n):
		// An event created with attendees: the calendar sends each an
		// invitation (Graph /me/events, Google Calendar events.insert).
		return Harm, "a second invitation to the attendees, through " + orUnknown(host), n8nschema.ConfMedium
	case graphQLInsert(n, u) && graphQLUpsert(n):
		return SameState, "", n8nschema.ConfMedium
	case graphQLInsert(n, u):
		return SecondRecord, "a second row inserted through " + orUnknown(host) + "'s GraphQL API", n8nschema.ConfMedium
	case team():
		return Nuisance, "a second alert in a team channel", n8nschema.ConfMedium
	case messagePath(path):
		if fixed, ok := bodyRecipient(n); ok && fixed {
			return Nuisance, "a second message to the fixed recipient the node names", n8nschema.ConfMedium
		}
		return Harm, "a second message sent through " + orUnknown(host), n8nschema.ConfMedium
	case draftRE.MatchString(n.Name) || draftRE.MatchString(n.Params().Get("jsonBody").Str()):
		return Nuisance, "a second draft", n8nschema.ConfMedium
	case logName(n.Name) || logPathRE.MatchString(path):
		return Nuisance, "a second row in a log", n8nschema.ConfMedium
	case workspaceHost(host):
		return SecondRecord, "a second record at " + host, n8nschema.ConfHigh
	case own():
		return Nuisance, "a second call or message to the owner's own number or chat", n8nschema.ConfMedium
	case toItem():
		return Harm, "a second message to a recipient taken from the data, through " + orUnknown(host), n8nschema.ConfMedium
	}
	return Unclear, "a second copy of whatever " + orUnknown(host) + " creates", n8nschema.ConfMedium
}

// postsToTeamChannel reports an HTTP call that posts a text to a chat
// channel named "#name" (Slack's, Mattermost's, Rocket.Chat's spelling of
// a workspace channel): its body has a channel field and a text field, and
// every channel it can name is such a name, written in the node or, when
// the agent's model fills it ($fromAI), the only kind the field's
// description offers the model ("e.g. #vip-support or #ops-alerts"). A
// workspace channel is read by the team, not by a customer, whatever
// service relays the post. body gives the JSON body's fields
// (jsonBodyFields).
func postsToTeamChannel(n *n8nschema.Node, body func() [][]string) bool {
	if !n8nschema.IsHTTPRequest(n.Type) {
		return false
	}
	text, channel, other := false, false, false
	judge := func(key, val string) {
		switch {
		case textKeyRE.MatchString(key):
			text = true
		case channelKeyRE.MatchString(key):
			if workspaceChannel(val) {
				channel = true
			} else {
				other = true
			}
		}
	}
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		judge(p.Get("name").Str(), p.Get("value").Str())
	}
	if !channel && !other && !ascii.ContainsFold(n.Params().Get("jsonBody").Str(), "channel") {
		return false // no field can name a channel (channelKeyRE)
	}
	for _, m := range body() {
		judge(m[1], m[2])
	}
	return text && channel && !other
}

// channelKeyRE matches the body field that names a chat channel.
var channelKeyRE = lazyregexp.New(`(?i)^(channel|channel_?name)$`)

// workspaceChannel reports a channel value that can only be a "#name":
// the literal, or one $fromAI whose description names such channels and
// nothing the model could take for an address (no @, no digits run).
func workspaceChannel(v string) bool {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), "=")), `"'`))
	if hashChannelRE.MatchString(v) {
		return true
	}
	m := fromAIOnlyRE.FindStringSubmatch(v)
	if m == nil {
		return false
	}
	desc := m[2]
	return hashNameRE.MatchString(desc) && !strings.Contains(desc, "@") && !digitsRE.MatchString(desc)
}

// hashChannelRE matches a literal channel name; hashNameRE finds one in a
// text (after a space or at the start); fromAIOnlyRE matches a value that
// is one $fromAI('key', 'description', …) and nothing else; digitsRE a
// run of digits an id or a number is made of.
var (
	hashChannelRE = lazyregexp.New(`^#[A-Za-z0-9][\w.-]*$`)
	hashNameRE    = lazyregexp.New(`(^|[\s(,:])#[A-Za-z][\w.-]*`)
	fromAIOnlyRE  = lazyregexp.New(`^\{\{\s*\$fromAI\(\s*(['"])[^'"]*['"]\s*,\s*['"]([^'"]*)['"][^)]*\)\s*\}\}$`)
	digitsRE      = lazyregexp.New(`\d{4,}`)
)

// workspaceHosts are the APIs of apps a team keeps its own records in
// (notes, tables, tasks, files), as their app nodes do.
var workspaceHosts = []string{"api.notion.com", "api.airtable.com", "sheets.googleapis.com", "www.googleapis.com",
	"docs.googleapis.com", "api.todoist.com", "api.clickup.com", "api.trello.com", "api.baserow.io", "app.nocodb.com",
	"api.monday.com", "app.asana.com", "api.linear.app", "graph.microsoft.com", "content.dropboxapi.com", "api.clockify.me"}

func workspaceHost(host string) bool {
	for _, h := range workspaceHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

func orUnknown(host string) string {
	if host == "" {
		return "the endpoint"
	}
	return host
}

// pathOf returns the path of a URL, without scheme, host, query or
// fragment.
func pathOf(u string) string {
	if _, rest, ok := strings.Cut(u, "://"); ok {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			u = rest[i:]
		} else {
			u = ""
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u
}

// appendPathRE matches a PATCH endpoint that adds content.
var appendPathRE = lazyregexp.New(`(?i)/(children|append|add|items|comments|messages)/?$`)

// teamHosts are services where a team reads its own alerts: Slack incoming
// webhooks and chat.postMessage, Discord webhooks, the Telegram Bot API,
// ntfy, Microsoft Teams and Google Chat webhooks, Pushover, Pushbullet.
var teamHosts = []string{"slack.com", "discord.com", "discordapp.com", "api.telegram.org", "ntfy.sh",
	"webhook.office.com", "outlook.office.com", "chat.googleapis.com", "api.pushover.net", "api.pushbullet.com"}

// teamHost reports a team channel's host, or a self-hosted ntfy, Gotify,
// Mattermost or Rocket.Chat server named for what it runs.
func teamHost(host string) bool {
	for _, h := range teamHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	for _, s := range []string{"ntfy", "gotify", "mattermost", "rocket"} {
		if strings.Contains(host, s) {
			return true
		}
	}
	return false
}

// paymentHost reports an API that moves money: the payment providers whose
// idempotency header the catalog knows (Stripe, PayPal, Adyen, ...).
func paymentHost(host string) bool {
	_, ok := n8nschema.KeyHeaderFor(host)
	return ok
}

// harmPathRE matches an endpoint whose collection is money, a booking or a
// customer's case: /v1/charges, /orders, /bookings, /deals, /tickets.
var harmPathRE = lazyregexp.New(`(?i)/(charges?|payments?|payouts?|orders?|invoices?|refunds?|transfers?|checkouts?|bookings?|reservations?|appointments?|deals?|tickets?|opportunit(y|ies)|subscriptions?)(/|$)`)

// bookingWords name a booking in an endpoint's last path segment, where
// the segment is more than the collection harmPathRE reads: the owner's
// webhook /webhook/vfd-book, /api/create-booking, /bookAppointment.
var bookingWords = map[string]bool{"book": true, "booking": true, "bookings": true, "reserve": true,
	"reservation": true, "reservations": true, "appointment": true, "appointments": true}

// bookingEndpoint reports an HTTP call whose last path segment names a
// booking among its words (urlVerbs): what the endpoint is for, whoever
// serves it.
func bookingEndpoint(n *n8nschema.Node) bool {
	return slices.ContainsFunc(urlVerbs(n), func(w string) bool { return bookingWords[w] })
}

// attendeesRE finds a JSON body's attendee list: "attendees": [.
var attendeesRE = lazyregexp.New(`(?i)["']?\battendees["']?\s*:\s*\[`)

// fromDataRE finds a value the item or the model gives: an expression, a
// $fromAI or $json read, or an HTTP Request tool's {placeholder}.
var fromDataRE = lazyregexp.New(`\{\{|\$fromAI|\$json|\{[A-Za-z_][\w]*\}`)

// invitesFromData reports an HTTP call that creates an event with
// attendees taken from the item or the model ({"attendees": [{"emailAddress":
// {"address": "{email}"}}]}): the calendar invites each, a customer among
// them. Attendees written in the node are the owner's choice and are left
// to the rest of httpConsequence. One reader of the body, with RS307's
// calendarInvite: httpAttendees.
func invitesFromData(n *n8nschema.Node) bool {
	return slices.ContainsFunc(httpAttendees(n), fromDataRE.MatchString)
}

// closeOf returns the index of the "]" that closes a list whose "[" was
// just before s, or -1; one pass, strings skipped.
func closeOf(s string) int {
	depth, inStr, esc := 0, byte(0), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr != 0:
			if c == '\\' {
				esc = true
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '[':
			depth++
		case c == ']':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// harmWord names the collection harmPathRE found.
func harmWord(path string) string {
	m := harmPathRE.FindStringSubmatch(path)
	if m == nil {
		return "payment"
	}
	w := strings.ToLower(m[1])
	switch {
	case w == "opportunities":
		return "opportunity"
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// phoneCallEndpoint reports an API call that places an outbound phone
// call: Vapi's POST /call (and /call/phone) rings the customer's number
// (docs.vapi.ai/outbound_call_python), Twilio's POST
// /2010-04-01/Accounts/{sid}/Calls dials its To number
// (twilio.com/docs/voice/make-calls).
func phoneCallEndpoint(host, path string) bool {
	switch host {
	case "api.vapi.ai":
		return path == "/call" || path == "/call/" || path == "/call/phone"
	case "api.twilio.com":
		return strings.HasSuffix(path, "/calls") || strings.HasSuffix(path, "/calls.json")
	}
	return false
}

// draftStatus reports an HTTP body that creates its record with status
// "draft" (a field status or Status set to DRAFT): the record waits in the
// owner's own app for someone to approve it.
func draftStatus(n *n8nschema.Node) bool {
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		if strings.EqualFold(p.Get("name").Str(), "status") && strings.EqualFold(strings.TrimSpace(p.Get("value").Str()), "draft") {
			return true
		}
	}
	if !ascii.ContainsFold(n.Params().Get("jsonBody").Str(), "draft") {
		return false
	}
	for _, m := range jsonBodyFields(n) {
		if strings.EqualFold(m[1], "status") && strings.EqualFold(strings.Trim(strings.TrimSpace(m[2]), `"'`), "draft") {
			return true
		}
	}
	return false
}

// messagePathRE matches an endpoint that sends a message to someone: SMS,
// WhatsApp, e-mail APIs (/messages, /sms, /mail/send, /sendText).
var messagePathRE = lazyregexp.New(`(?i)/(messages?|sms|mail|e?mails?|send[-_a-z]*|whatsapp)(/|$)`)

// messagePath is messagePathRE.MatchString(path). A match holds one of
// messageStems in some case of its ASCII letters; a path with a byte past
// ASCII is matched as it is ((?i) reads ſ as s).
func messagePath(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] >= utf8.RuneSelf {
			return messagePathRE.MatchString(path)
		}
	}
	for _, w := range messageStems {
		if ascii.ContainsFold(path, w) {
			return messagePathRE.MatchString(path)
		}
	}
	return false
}

// messageStems are what each word of messagePathRE holds.
var messageStems = [...]string{"mess", "sms", "mail", "send", "whatsapp"}

// logPathRE matches an endpoint that records what happened: /logs,
// /events/log, /audit.
var logPathRE = lazyregexp.New(`(?i)/(logs?|audit|activit(y|ies)|history)(/|$)`)

// logNameRE matches a node or table named for a log of what happened:
// "Log to Sheets", "Audit log", "Activity", "Run history", "Tracking".
var logNameRE = lazyregexp.New(`(?i)(^|[^a-z])(log|logs|logging|logger|audit|activity|activities|history|tracking|tracker|journal)([^a-z]|$)`)

// loginRE matches "log in", "log into": a login, not a log.
var loginRE = lazyregexp.New(`(?i)\blog\s*(in|into|on|out)\b`)

func logName(s string) bool { return logNameRE.MatchString(s) && !loginRE.MatchString(s) }

// appConsequence reads an app node's write from its type, resource and
// operation, and who receives it.
func appConsequence(n *n8nschema.Node, op string) (Consequence, string) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	res, kind, _ := n8nschema.AppOperation(n)
	name := op
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		name = op[i+1:]
	}
	words := splitWords(name)
	if query, insert := n8nschema.SQLQuery(n); query {
		if insert {
			return SecondRecord, "a second row inserted"
		}
		return SameState, ""
	}
	switch {
	case acknowledgements[typ+" "+op]:
		return NoEffect, "" // a spinner stopped, "typing…" shown: nothing is kept
	case !kind.Duplicates():
		return SameState, ""
	case n8nschema.KeyedStore(typ) && kind == n8nschema.OpCreate && !strings.HasPrefix(strings.ToLower(name), "copy"):
		return SameState, "" // the caller names the object: a repeat overwrites it
	case createRefusedWhenPresent(n, typ, op):
		return SameState, ""
	case len(words) > 0 && (readVerbs[words[0]] || analysisWords[words[len(words)-1]]):
		return NoEffect, "" // runs an analysis (TheHive executeAnalyzer)
	case res == "draft" || strings.Contains(strings.ToLower(name), "draft"):
		return Nuisance, "a second draft"
	case refusesRepeat[typ]:
		return SameState, ""
	case teamChannels[typ]:
		return Nuisance, "a second message in a team chat"
	case mailers[typ]:
		if name == "reply" || strings.HasPrefix(name, "reply") {
			return Harm, "a second reply to the sender"
		}
		if fixedRecipient(n) {
			return Nuisance, "a second report to a fixed address"
		}
		return Harm, "a second message to a recipient taken from the data"
	case typ == "n8n-nodes-base.xero" && strings.EqualFold(n.Params().Get("additionalFields.status").Str(), "DRAFT"):
		// The Xero node sends additionalFields.status as the record's
		// Status (Xero.node.js L267-268): a draft bill or invoice.
		return Nuisance, "a second draft " + orUnknown(res) + " in Xero, to delete before it is approved"
	case harmResources[res] || money[typ] && kind == n8nschema.OpCreate:
		w := res
		if w == "" {
			w = "payment"
		}
		return Harm, "a second " + w
	case publishers[typ]:
		return Harm, "a second public post"
	case attendees(n):
		return Harm, "a second invitation to the attendees"
	case logName(n.Name) || logName(targetName(n)):
		return Nuisance, "a second row in a log"
	}
	return SecondRecord, "a second record in " + appName(typ)
}

// appName is the node type's name without its package: "googleSheets".
func appName(typ string) string {
	_, name, _ := strings.Cut(typ, ".")
	return name
}

// analysisWords end an execute operation that analyses.
var analysisWords = map[string]bool{"analyzer": true, "analyze": true, "analysis": true, "scan": true}

// teamChannels are chat apps where a team talks to itself or a bot answers
// a chat: a duplicate shows as the same message twice.
var teamChannels = map[string]bool{
	"n8n-nodes-base.slack": true, "n8n-nodes-base.telegram": true, "n8n-nodes-base.microsoftTeams": true,
	"n8n-nodes-base.discord": true, "n8n-nodes-base.mattermost": true, "n8n-nodes-base.rocketchat": true,
	"n8n-nodes-base.googleChat": true, "n8n-nodes-base.matrix": true, "n8n-nodes-base.zulip": true,
	"n8n-nodes-base.pushover": true, "n8n-nodes-base.pushbullet": true, "n8n-nodes-base.gotify": true,
	"n8n-nodes-base.line": true, "n8n-nodes-base.signl4": true, "n8n-nodes-base.pushcut": true,
	"n8n-nodes-base.spontit": true, "n8n-nodes-base.ciscoWebex": true, "n8n-nodes-base.twake": true,
	"n8n-nodes-base.flock": true,
}

// mailers send e-mail, SMS or WhatsApp to an address: a report to the
// team when the address is fixed, a message to a customer when it comes
// from the data.
var mailers = map[string]bool{
	"n8n-nodes-base.gmail": true, "n8n-nodes-base.emailSend": true, "n8n-nodes-base.microsoftOutlook": true,
	"n8n-nodes-base.mailgun": true, "n8n-nodes-base.sendGrid": true, "n8n-nodes-base.mailjet": true,
	"n8n-nodes-base.mandrill": true, "n8n-nodes-base.postmark": true, "n8n-nodes-base.awsSes": true,
	"n8n-nodes-base.sendInBlue": true, "n8n-nodes-base.twilio": true, "n8n-nodes-base.vonage": true,
	"n8n-nodes-base.messageBird": true, "n8n-nodes-base.plivo": true, "n8n-nodes-base.sms77": true,
	"n8n-nodes-base.msg91": true, "n8n-nodes-base.mocean": true, "n8n-nodes-base.whatsApp": true,
	"n8n-nodes-base.gmailTool": true,
}

// recipientParams hold a mailer's recipient: Gmail sendTo, Send Email
// toEmail, Outlook toRecipients, SES toAddresses, Twilio and Vonage to,
// WhatsApp recipientPhoneNumber, MessageBird recipients.
var recipientParams = []string{"sendTo", "toEmail", "toRecipients", "toAddresses", "to", "recipientPhoneNumber", "recipients", "toList", "phoneNumber"}

// fixedRecipient reports whether a mailer sends to an address written in
// the node or the instance's settings (the team's own), not one taken from
// the item.
func fixedRecipient(n *n8nschema.Node) bool {
	for _, p := range recipientParams {
		if v, ok := n.Param(p); ok {
			return v.Kind() == n8nschema.String && configured(v.Str())
		}
	}
	return false
}

// configured reports whether a recipient is set by whoever built the
// workflow: a literal, or an expression that reads only the instance's
// variables ({{ $env.ALERT_PHONE }}, {{ $vars.team_chat }}). A recipient
// that reads the item comes from the data.
func configured(s string) bool {
	if strings.TrimSpace(strings.TrimPrefix(s, "=")) == "" {
		return false
	}
	if !strings.Contains(s, "{{") {
		return true
	}
	rest := exprRE.ReplaceAllStringFunc(s, func(x string) string {
		if settingRE.MatchString(x) && !strings.Contains(x, "$json") && !strings.Contains(x, "$(") &&
			!strings.Contains(x, "$node") && !strings.Contains(x, "$input") && !strings.Contains(x, "$item") {
			return ""
		}
		return "\x00"
	})
	return !strings.Contains(rest, "\x00")
}

// exprRE finds the {{ … }} parts of a parameter; settingRE the instance's
// variables an expression may read.
var (
	exprRE    = lazyregexp.New(`\{\{[\s\S]*?\}\}`)
	settingRE = lazyregexp.New(`\$(env|vars)\b`)
)

// recipientKeyRE matches the body field of a messaging API that names who
// receives the message: WhatsApp gateways' number or chatId, Twilio-style
// to, LINE's to or replyToken, Telegram's chat_id, Viber's receiver, a phone or a
// recipient.
var recipientKeyRE = lazyregexp.New(`(?i)^(to|to_?number|to_?phone|to_?email|participants?|number|phone|phone_?number|chat_?id|recipient|recipients|receiver|jid|remote_?jid|msisdn|destination|mobile|reply_?token)$`)

// recipientKey is recipientKeyRE.MatchString(k), looked up for an ASCII
// key: the regexp's set-up cost ~3,000 instructions on each short JSON key
// of every body. A key outside ASCII goes to the regexp, for (?i) folds ſ
// and the Kelvin sign. TestRecipientKeyAsRegexp keeps the two in step.
func recipientKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return recipientKeyRE.MatchString(k)
		}
	}
	switch strings.ToLower(k) {
	case "to", "to_number", "tonumber", "to_phone", "tophone", "to_email", "toemail", "participant", "participants",
		"number", "phone", "phone_number", "phonenumber", "chat_id", "chatid", "recipient", "recipients", "receiver",
		"jid", "remote_jid", "remotejid", "msisdn", "destination", "mobile", "reply_token", "replytoken":
		return true
	}
	return false
}

// bodyFieldRE finds "key": value pairs in a JSON body written as text, the
// value a string, a number or a flat array (participants: [...]).
var bodyFieldRE = lazyregexp.New(`["']?([A-Za-z_]+)["']?\s*:\s*("(?:[^"\\]|\\.)*"|'[^']*'|\{\{[\s\S]*?\}\}|\[[^\]]*\]|[+\d][\d\s-]*)`)

// bodyRecipient reads the recipient an HTTP call to a messaging API names
// in its body (body parameters or a JSON body): fixed when it is written in
// the node or read from the instance's variables (the owner's own number, the
// team's chat), not when it comes from the item. ok is false when the body
// names no recipient.
func bodyRecipient(n *n8nschema.Node) (fixed, ok bool) {
	fixed = true
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		if recipientKey(p.Get("name").Str()) {
			ok = true
			fixed = fixed && configured(p.Get("value").Str())
		}
	}
	for _, m := range bodyFieldRE.FindAllStringSubmatch(n.Params().Get("jsonBody").Str(), -1) {
		if recipientKey(m[1]) {
			ok = true
			fixed = fixed && configured(strings.Trim(m[2], `"'`))
		}
	}
	return fixed && ok, ok
}

// ownRecipient reports whether an HTTP call, to any API, names in its body
// only recipients that are the owner's or the team's own: a phone number,
// an e-mail address or a chat id written in the node, or read from the
// instance's variables ({{ $env.OWNER_PHONE }}). A voice call or a text
// to the owner's own phone is an alert to the team, whatever the API. A
// recipient field holding anything else ("to": "en" of a translation) is
// not an address. body is jsonBodyFields of n.
func ownRecipient(n *n8nschema.Node, body [][]string) bool {
	vals := recipientsIn(n, body)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !ownAddress(v, nil) {
			return false
		}
	}
	return true
}

// ownAddress reports whether recipient value v is the owner's: a literal
// phone number, e-mail address or chat id, or an expression whose parts
// read only the instance's variables or, when fixedRef is given, a field
// fixedRef says the workflow itself fixes.
func ownAddress(v string, fixedRef func(expr string) bool) bool {
	v = strings.TrimSpace(strings.Trim(strings.TrimPrefix(strings.TrimSpace(v), "="), `"'`))
	if strings.HasPrefix(v, "[") {
		v = strings.TrimSpace(strings.Trim(strings.Trim(v, "[] "), `"'`)) // one recipient in a list
	}
	switch {
	case strings.ContainsAny(v, "{}[],") && !strings.HasPrefix(v, "{{"):
		return false // objects or several values: not read here
	case strings.Contains(v, "{{"):
		if strings.Count(v, "{{") != strings.Count(v, "}}") {
			return false
		}
		if configured(v) {
			return true
		}
		if fixedRef == nil {
			return false
		}
		rest := exprRE.ReplaceAllStringFunc(v, func(x string) string {
			if configured(x) || fixedRef(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(x, "{{"), "}}"))) {
				return ""
			}
			return "\x00"
		})
		return !strings.ContainsAny(rest, "\x00$")
	}
	return addressRE.MatchString(v)
}

// draftRE matches a node or a body that makes a draft (JMAP's $draft
// keyword, "Create draft reply"): nobody receives it until someone sends it.
var draftRE = lazyregexp.New(`(?i)(^|[^a-z])\$?drafts?([^a-z]|$)`)

// addressRE matches a literal phone number, chat id or e-mail address:
// "+1 555 0100", "-1001234567", "ops@example.com".
var addressRE = lazyregexp.New(`^(\+?-?[\d\s().-]{5,}|[^\s@]+@[^\s@]+\.[a-zA-Z]{2,})$`)

// textKeyRE matches the body field of a message's text: text, message,
// body, content, a template, a subject.
var textKeyRE = lazyregexp.New(`(?i)^(text|message|messages|body|content|msg|sms|caption|html|subject|template|template_?name|first_?message)$`)

// messageToItem reports whether an HTTP call, to an API the catalog does
// not know, sends a message text to a recipient read from the item (a
// lead's phone in participants or to, a customer's e-mail): whatever the
// API, a repeat is a second message to that person. body is
// jsonBodyFields of n.
func messageToItem(n *n8nschema.Node, body [][]string) bool {
	text, fromItem := false, false
	judge := func(key, val string) {
		switch {
		case textKeyRE.MatchString(key):
			text = true
		case recipientKey(key) && readsItem(val):
			fromItem = true
		}
	}
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		judge(p.Get("name").Str(), p.Get("value").Str())
	}
	for _, m := range body {
		judge(m[1], m[2])
	}
	for _, m := range exprFieldRE.FindAllStringSubmatch(n.Params().Get("jsonBody").Str(), -1) {
		judge(m[1], m[2]) // a body built in one expression: {{ { to: $json.phone } }}
	}
	return text && fromItem
}

// exprFieldRE finds key: value pairs of an object written in an
// expression, the value running to the next comma or brace.
var exprFieldRE = lazyregexp.New(`["']?([A-Za-z_]+)["']?\s*:\s*(\[[^\]]*\]|[^,}\n]+)`)

// readsItem reports whether a value reads the item or another node's
// output: $json, $('Lead'), $node["Lead"], $input, $item.
func readsItem(v string) bool {
	for _, s := range []string{"$json", "$(", "$node", "$input", "$item"} {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// money are app nodes whose created records are money: a charge, an
// order, an invoice, a payout.
var money = map[string]bool{
	"n8n-nodes-base.stripe": true, "n8n-nodes-base.payPal": true, "n8n-nodes-base.shopify": true,
	"n8n-nodes-base.wooCommerce": true, "n8n-nodes-base.chargebee": true, "n8n-nodes-base.paddle": true,
	"n8n-nodes-base.quickbooks": true, "n8n-nodes-base.xero": true, "n8n-nodes-base.invoiceNinja": true,
	"n8n-nodes-base.wise": true, "n8n-nodes-base.magento2": true,
}

// harmResources are resources whose created record reaches money or a
// customer: orders and invoices, bookings, CRM deals, support tickets.
var harmResources = map[string]bool{
	"order": true, "invoice": true, "charge": true, "payment": true, "payout": true, "refund": true,
	"transfer": true, "bill": true, "estimate": true, "salesOrder": true, "purchaseOrder": true,
	"booking": true, "appointment": true, "reservation": true, "deal": true, "opportunity": true,
	"ticket": true, "case": true, "conversation": true,
}

// publishers post in public: a duplicate is seen by everyone.
var publishers = map[string]bool{
	"n8n-nodes-base.linkedIn": true, "n8n-nodes-base.facebookGraphApi": true, "n8n-nodes-base.reddit": true,
	"n8n-nodes-base.medium": true, "n8n-nodes-base.discourse": true,
}

// createRefusedWhenPresent reports a create that the API refuses once its
// object exists, so that a repeat fails instead of writing twice: the
// GitHub node's file create sends PUT /repos/{owner}/{repo}/contents/{path}
// with no sha (n8n-nodes-base/dist/nodes/Github/Github.node.js asks for
// the sha only for edit), and GitHub's "create or update file contents"
// answers a PUT with no sha for a path that exists with 422 ("sha" wasn't
// supplied). A path that changes on each attempt (the time, a random
// value: n8nschema.ClassifyKey) names a new file each time.
func createRefusedWhenPresent(n *n8nschema.Node, typ, op string) bool {
	if typ != "n8n-nodes-base.github" || op != "file.create" {
		return false
	}
	p, ok := n.Param("filePath")
	if !ok || p.Kind() != n8nschema.String {
		return false
	}
	k, _ := n8nschema.ClassifyKey(p.Str())
	return k != n8nschema.KeyPerAttempt && k != n8nschema.KeyEmpty
}

// refusesRepeat are APIs that reject a duplicate: X refuses a post with
// the same text as a recent one ("duplicate content").
var refusesRepeat = map[string]bool{"n8n-nodes-base.twitter": true}

// acknowledgements are operations that only change what the person's chat
// app shows for a moment and store nothing: Telegram's answerCallbackQuery
// stops the pressed button's spinner (with an optional toast), and
// sendChatAction shows "typing…" for a few seconds
// (nodes-base/dist/nodes/Telegram/Telegram.node.js, resource callback
// operation answerQuery, message sendChatAction). A repeat costs a call, a
// failure loses no data. Other nodes offer no such operation.
var acknowledgements = map[string]bool{
	"n8n-nodes-base.telegram callback.answerQuery":   true,
	"n8n-nodes-base.telegram message.sendChatAction": true,
}

// attendees reports a calendar event that invites people: a second one
// sends a second invitation.
func attendees(n *n8nschema.Node) bool {
	for _, p := range []string{"additionalFields.attendees", "additionalFields.attendeesUi", "attendees"} {
		if v, ok := n.Param(p); ok && v.Kind() != n8nschema.Null && (v.Str() != "" || v.Len() > 0) {
			return true
		}
	}
	return false
}

// targetName returns the name of the sheet or table a store node writes
// to, as the editor keeps it ({"__rl": true, "cachedResultName": …} or a
// plain name).
func targetName(n *n8nschema.Node) string {
	for _, p := range []string{"sheetName", "tableId", "table", "tableName", "databaseId", "base"} {
		v, ok := n.Param(p)
		if !ok {
			continue
		}
		if s := v.Get("cachedResultName").Str(); s != "" {
			return s
		}
		if v.Kind() == n8nschema.String {
			return v.Str()
		}
	}
	return ""
}

// BestEffort reports whether a write only records or announces what
// happened: a team alert, a row in a log, a run-tracking mark ("Update
// run history", a POST to /logs), a usage counter bumped (CounterBump).
// Its failure loses a line, not data.
func BestEffort(n *n8nschema.Node) bool {
	return bestEffort(n, ConsequenceOf(n))
}

// BestEffortIn is BestEffort with the consequence read in the workflow
// (ConsequenceIn): a bot's message to each of its users is no team alert.
func BestEffortIn(g *Graph, n *n8nschema.Node) bool {
	return bestEffort(n, ConsequenceIn(g, n))
}

// bestEffort is BestEffort of n whose consequence is e.
func bestEffort(n *n8nschema.Node, e Effect) bool {
	if n8nschema.HumanGate(n) {
		return false // a send-and-wait asks for a decision the run waits on
	}
	if e.Consequence == Nuisance && !e.Answer && !deliversFile(n) {
		return true
	}
	u := strings.TrimPrefix(n.Params().Get("url").Str(), "=")
	return logName(n.Name) || logName(targetName(n)) || logPathRE.MatchString(pathOf(u)) || CounterBump(n)
}

// RenamesFile reports a Google Drive v3 update that only gives a file a
// new name: no new content (changeFileContent off), no option but the
// fields it returns (nodes-base Google/Drive/v2/actions/file/
// update.operation.js). Its failure leaves the old name, not lost data.
func RenamesFile(n *n8nschema.Node) bool {
	p := n.Params()
	if n.Type != "n8n-nodes-base.googleDrive" || n.TypeVersion < 3 || p.Get("operation").Str() != "update" ||
		p.Get("resource").Exists() && p.Get("resource").Str() != "file" || p.Get("changeFileContent").True() ||
		strings.TrimPrefix(p.Get("newUpdatedFileName").Str(), "=") == "" {
		return false
	}
	only := true
	p.Get("options").Each(func(k string, _ n8nschema.Value) bool {
		only = k == "fields"
		return only
	})
	return only
}

// ConsequenceIn is ConsequenceOf read with the workflow around the node: a
// message to the sender of the webhook request that started the run is
// the bot's answer in that person's chat (AnswersStarter); a
// bot's message to a chat id read from the data in a run no person's
// message started goes to each user the data names (messagesBotUsers); a
// message whose recipients are read from a directory of the team's own
// people (a users table filtered to admins, a staff sheet) is an alert to
// the team, not a message to a customer.
func ConsequenceIn(g *Graph, n *n8nschema.Node) Effect {
	e, known := Effect{}, false
	if g != nil {
		if i, ok := g.index(n); ok {
			e, known = g.effect(i), true // decided once: the attempt model asked it of every write
		}
	}
	if !known {
		e = ConsequenceOf(n)
	}
	if e.Consequence == Nuisance && e.Message && g != nil && messagesBotUsers(g, n) {
		// Each user of the bot the data names, not the team's chat
		// (bot_users.go); a directory of the team's own people, or a
		// chat id the workflow fixes, turns it back below.
		e.Consequence, e.Duplicate = Harm, "a second message to each user of the bot the data names (its chat or user id read from the data)"
	}
	if e.Consequence.Duplicates() && e.Message && g != nil {
		if i, ok := g.index(n); ok {
			if trig, _, ok := g.bodylessRecipient(i); ok {
				// Its recipient reads a body the trigger's items never
				// carry (trigger_body.go): the message goes to no one.
				e.Consequence, e.Duplicate = NoEffect, "a message to no one: its recipient reads a body field the items of "+strconv.Quote(trig.Name)+" never carry"
				return e
			}
		}
	}
	if (e.Consequence == Harm || e.Consequence == SecondRecord) && g != nil {
		if trig, ok := g.bodylessPOST(n); ok {
			// Every value it reads of the item is a body field the
			// trigger's items never carry: the same request every run.
			e.Consequence, e.Duplicate = Unclear, "a second run of whatever "+orUnknown(hostOf(strings.ToLower(n.Params().Get("url").Str())))+" does when called, with nothing from the item (every field it reads is under a body the items of "+strconv.Quote(trig.Name)+" never carry)"
		}
	}
	if e.Consequence == Harm && e.Message && g != nil && g.AnswersStarter(n) {
		// The bot's answer to the person whose message started the run
		// (a WhatsApp Cloud or Viber send to the webhook's sender): a
		// second copy in that conversation, as a Telegram reply after a
		// Telegram Trigger is.
		e.Consequence, e.Duplicate, e.Answer = Nuisance, "a second copy of the answer in the chat of the person whose message started the run", true
		return e
	}
	if e.Consequence == Harm && e.Message && g != nil && recipientsAreColleagues(g, n) {
		e.Colleague, e.Duplicate = true, "a second message to a colleague the record names by role (a supervisor's, a manager's or an assignee's address)"
		return e
	}
	if e.Consequence == Harm && e.Message && g != nil && recipientsAreStaff(g, n) {
		e.Consequence, e.Duplicate = Nuisance, "a second alert to the team's own people"
	}
	if (e.Consequence == Harm && e.Message || e.Consequence == Unclear && n8nschema.IsHTTPRequest(n.Type)) && g != nil && recipientFixedInWorkflow(g, n) {
		e.Consequence, e.Duplicate = Nuisance, "a second call or message to the owner's own number or address, set in the workflow"
	}
	return e
}

// recipientExprs returns the parameters that name a message's recipient: a
// mailer's address, or the recipient fields of a messaging API's body.
func recipientExprs(n *n8nschema.Node) []string {
	if n8nschema.IsHTTPRequest(n.Type) && !namesRecipient(n) {
		return nil
	}
	return recipientsIn(n, jsonBodyFields(n))
}

// namesRecipient is false when no body field of HTTP call n can name a
// recipient: no body parameter's name, and no key before a ':' in its
// JSON body, matches recipientKeyRE. Every field bodyFieldRE and
// exprFieldRE find is such a key: the whole run of [A-Za-z_] before an
// optional quote, spaces and the colon (a match starts after a quote or a
// value, neither of which ends in a letter). Testing the keys costs a
// fraction of running those patterns over the body.
func namesRecipient(n *n8nschema.Node) bool {
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		if recipientKey(p.Get("name").Str()) {
			return true
		}
	}
	s := n.Params().Get("jsonBody").Str()
	for i := strings.IndexByte(s, ':'); i >= 0; {
		if k := keyBefore(s, i); k != "" && recipientKey(k) {
			return true
		}
		j := strings.IndexByte(s[i+1:], ':')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// keyBefore returns the key a "key": or key: ends at the colon s[colon]:
// the run of ASCII letters and '_' before an optional quote and spaces
// (\s), or "".
func keyBefore(s string, colon int) string {
	i := colon
	for i > 0 && strings.IndexByte(" \t\n\f\r", s[i-1]) >= 0 {
		i--
	}
	if i > 0 && (s[i-1] == '"' || s[i-1] == '\'') {
		i--
	}
	end := i
	for i > 0 && (s[i-1] == '_' || 'a' <= s[i-1]|0x20 && s[i-1]|0x20 <= 'z') {
		i--
	}
	return s[i:end]
}

// jsonBodyFields is bodyFieldRE's matches in n's JSON body.
func jsonBodyFields(n *n8nschema.Node) [][]string {
	return bodyFieldRE.FindAllStringSubmatch(n.Params().Get("jsonBody").Str(), -1)
}

// recipientsIn is recipientExprs with the JSON body's fields found.
func recipientsIn(n *n8nschema.Node, body [][]string) []string {
	if n8nschema.IsHTTPRequest(n.Type) {
		var out []string
		for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
			if recipientKey(p.Get("name").Str()) {
				out = append(out, p.Get("value").Str())
			}
		}
		for _, m := range body {
			if recipientKey(m[1]) {
				out = append(out, m[2])
			}
		}
		return out
	}
	if x, ok := botRecipient(n); ok {
		return []string{x}
	}
	for _, p := range recipientParams {
		if v, ok := n.Param(p); ok {
			return []string{v.Str()}
		}
	}
	return nil
}

// staffRE matches what names the team's own people in a table, a sheet, a
// query or the node that reads them: admins, staff, employees, the team,
// managers, operators, moderators.
var staffRE = lazyregexp.New(`(?i)(^|[^a-z])(admins?|administrators?|staff|employees?|team|team_?members|managers?|operators?|moderators?|on_?call)([^a-z]|$)`)

// recipientsAreStaff reports whether every recipient of message n is read
// from a look-up of the team's own people: the node the recipient
// expression names, or for $json the nodes that feed n (through nodes
// that only reshape items), reads a store, and that read names staff (its
// node name, its table or sheet, its query or filter).
func recipientsAreStaff(g *Graph, n *n8nschema.Node) bool {
	exprs := recipientExprs(n)
	if len(exprs) == 0 {
		return false
	}
	for _, x := range exprs {
		if !strings.Contains(x, "{{") {
			return false // a fixed recipient is judged by ConsequenceOf
		}
		srcs := recipientSources(g, n, x)
		if len(srcs) == 0 {
			return false
		}
		for _, s := range srcs {
			if !staffLookup(s) {
				return false
			}
		}
	}
	return true
}

// recipientSources returns the nodes a recipient expression x of message n
// reads: those it names with $('…'), and the nodes that feed n when it
// reads $json or $input.
func recipientSources(g *Graph, n *n8nschema.Node, x string) []*n8nschema.Node {
	var srcs []*n8nschema.Node
	for _, m := range nodeRefRE.FindAllStringSubmatch(x, -1) {
		if s := g.Node(m[1] + m[2]); s != nil {
			srcs = append(srcs, s)
		}
	}
	if strings.Contains(x, "$json") || strings.Contains(x, "$input") {
		srcs = append(srcs, feeders(g, n)...)
	}
	return srcs
}

// recipientsAreColleagues reports whether every recipient of message n is
// a field of a record the workflow read from the owner's own store (a
// query, a sheet, a table: not a trigger's payload, which a stranger may
// fill) whose name says it holds the address of a role in the
// organisation: a supervisor's, a manager's ({{ $json.email_przelozonego }},
// {{ $json.manager.email }}). Only a word list tells a role from a
// customer here; roleFieldRE keeps it to a few roles.
func recipientsAreColleagues(g *Graph, n *n8nschema.Node) bool {
	exprs := recipientExprs(n)
	if len(exprs) == 0 {
		return false
	}
	for _, x := range exprs {
		fields := jsonFieldRE.FindAllStringSubmatch(x, -1)
		if len(fields) == 0 {
			return false
		}
		for _, f := range fields {
			if !roleField(f[1]) {
				return false
			}
		}
		srcs := recipientSources(g, n, x)
		if len(srcs) == 0 {
			return false
		}
		for _, s := range srcs {
			if w, _ := n8nschema.WriteOp(s); w || n8nschema.IsTriggerNode(s.Type) || g.Spec(s).Role != n8nschema.RoleExternal {
				return false
			}
		}
	}
	return true
}

// jsonFieldRE takes the field path an expression reads from an item:
// json.email_przelozonego, json.manager.email, json["manager_email"].
var jsonFieldRE = lazyregexp.New(`json((?:\.\w+|\[\s*["'][^"']+["']\s*\])+)`)

// roleFieldRE matches a field path that names the address of a role in
// the owner's organisation: supervisor, superior, manager, boss, team
// lead, a task's assignee, and the supervisor's Polish (przełożony,
// kierownik) and German (Vorgesetzte) names. A word list, kept to these few roles: nothing in
// the workflow tells a colleague's address from a customer's otherwise.
var roleFieldRE = lazyregexp.New(`(^|[^a-z])(supervisors?|superiors?|managers?|boss|team_?leads?|assignees?|prze[lł]o[zż]on\pL*|kierownik\pL*|vorgesetzte\pL*)([^a-z]|$)`)

// roleField is roleFieldRE on a field path with its camelCase words split
// (managerEmail reads as manager_email).
func roleField(path string) bool {
	var b strings.Builder
	for i, r := range path {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return roleFieldRE.MatchString(b.String())
}

// feeders returns the nodes whose items reach n's $json: its main inputs,
// and through nodes that only reshape or route items (Set, Code, If,
// Merge...), theirs, a few hops back.
func feeders(g *Graph, n *n8nschema.Node) []*n8nschema.Node {
	var out []*n8nschema.Node
	walkBack(g, n, 4, func(s *n8nschema.Node) (follow, ok bool) {
		if g.Spec(s).Role == n8nschema.RoleExternal || n8nschema.IsTriggerNode(s.Type) {
			out = append(out, s)
			return false, true
		}
		return true, true
	})
	return out
}

// walkBack visits the nodes that feed n on main connections, each once,
// back to at most hops connections from n: visit says whether to go on
// back past a node (follow) and whether to go on at all (ok). It reports
// whether the walk ended with nothing left to follow, neither stopped by
// visit nor cut at hops.
func walkBack(g *Graph, n *n8nschema.Node, hops int, visit func(s *n8nschema.Node) (follow, ok bool)) bool {
	seen := map[*n8nschema.Node]bool{n: true}
	frontier := []*n8nschema.Node{n}
	for hop := 0; hop < hops && len(frontier) > 0; hop++ {
		var next []*n8nschema.Node
		for _, m := range frontier {
			for _, e := range g.InOfType(m, ConnMain) {
				s := e.From
				if seen[s] {
					continue
				}
				seen[s] = true
				follow, ok := visit(s)
				if !ok {
					return false
				}
				if follow {
					next = append(next, s)
				}
			}
		}
		frontier = next
	}
	return len(frontier) == 0
}

// staffLookup reports whether node s reads records that name the team's
// own people: a read (no write) whose name, table, sheet, query or filter
// says admins, staff, employees, team.
func staffLookup(s *n8nschema.Node) bool {
	if w, _ := n8nschema.WriteOp(s); w || n8nschema.IsTriggerNode(s.Type) {
		return false
	}
	if staffRE.MatchString(s.Name) || staffRE.MatchString(targetName(s)) {
		return true
	}
	found := false
	for _, p := range []string{"query", "filters", "filterByFormula", "filtersUI", "where", "conditions", "filterType", "options.filter"} {
		n := s.Params().Get(p)
		n.Scalars(func(v n8nschema.Value) bool {
			found = found || v.Kind() == n8nschema.String && staffRE.MatchString(v.Str())
			return true
		})
	}
	return found
}

// deliversFile reports whether a chat node sends a file (Telegram's
// sendDocument, sendPhoto, sendVideo…; a file upload to Slack): a receipt
// forwarded to the reviewers, the day's recipe, a generated report. The
// file is the work the workflow does, not an alert about it.
func deliversFile(n *n8nschema.Node) bool {
	res, _, _ := n8nschema.AppOperation(n)
	if res == "file" {
		return true
	}
	_, op := n8nschema.WriteOp(n)
	op = op[strings.LastIndexByte(op, '.')+1:]
	if !strings.HasPrefix(op, "send") {
		return false
	}
	switch strings.TrimPrefix(op, "send") {
	case "Document", "Photo", "Video", "Audio", "Voice", "MediaGroup", "Animation", "File":
		return true
	}
	return false
}
