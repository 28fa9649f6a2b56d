package analyze

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A messaging bot is open to whoever writes to it. A Telegram bot's
// username is searchable in the app and bots are listed in directories;
// a WhatsApp business number takes a message from any number. The
// trigger's webhook itself is not open: Telegram signs its calls with the
// secret token n8n registered (nodes-base/nodes/Telegram/TelegramTrigger.node.js
// webhook(), x-telegram-bot-api-secret-token) and Meta with the app secret
// (nodes/WhatsApp/WhatsAppTrigger.node.js, x-hub-signature-256), so no one
// forges an update; but every message a stranger sends the bot is a real
// update, and starts a run.
//
// A Telegram Trigger can be told whom to answer: its options "Restrict to
// Chat IDs" (additionalFields.chatIds) and "Restrict to User IDs"
// (additionalFields.userIds) drop every update from another chat or user
// before a run starts (TelegramTrigger.node.js webhook(): `if (nodeVersion
// >= 1.2) { if (additionalFields.chatIds) ... return {} }`). The options
// are shown from version 1.1 but applied from 1.2: at 1.1 a list set there
// stops no one. The WhatsApp Trigger has no such option.
//
// Or the workflow tests the sender on the run's path (senderGate): an If,
// Filter or Switch that compares the sender's id (Telegram's
// message.chat.id, message.from.id, from.username; WhatsApp's
// messages[0].from, contacts[0].wa_id) with a literal or a fixed list, a
// Code node that does, or a lookup of the sender in the owner's own table
// that outputs no item when none is found (a node that outputs no items
// ends its branch of the run: packages/core/src/execution-engine/workflow-execute.ts,
// unless alwaysOutputData is set), or a branch right after a lookup of the
// sender through the owner's own service, or in the owner's table, that
// tests the answer (answerBranch: "is the sender's subscription active").
// A branch stops a stranger only on the
// outputs the owner's message alone takes (senderSense): the true output of
// an If "the sender equals the owner's id", the false output of one "is
// not", a Filter's kept items, a Switch's output for the owner's rule. The
// work hung on the other output runs for every stranger, and a test joined
// by "or" to another that anyone can pass stops no one.

// botExposure says "bot" for a messaging trigger that starts a run for
// anyone who writes to it: a Telegram Trigger whose restriction options
// are not applied, a WhatsApp Trigger that listens to messages.
func botExposure(t *n8nschema.Node) string {
	switch t.Type {
	case n8nschema.TypeTelegramTrigger:
		if t.TypeVersion >= 1.2 {
			for _, o := range []string{"additionalFields.chatIds", "additionalFields.userIds"} {
				if strings.TrimSpace(strings.TrimPrefix(t.Params().Get(o).Str(), "=")) != "" {
					return ""
				}
			}
		}
		return "bot"
	case TypeWhatsAppTrigger:
		ups := t.Params().Get("updates")
		if !ups.Exists() {
			return "bot" // the export lost it: read as the messages
		}
		if ups.Kind() == n8nschema.String && ups.Str() == "messages" {
			return "bot"
		}
		for _, u := range ups.ElemsSeq() {
			if u.Str() == "messages" {
				return "bot"
			}
		}
	}
	return ""
}

// TypeWhatsAppTrigger is the WhatsApp Business Cloud trigger.
const TypeWhatsAppTrigger = "n8n-nodes-base.whatsAppTrigger"

// botSenderRE matches a read of who wrote to a bot: Telegram's chat or
// user id or username, WhatsApp's sender number, or a field a workflow
// names so (chatId, user_id, sender_id).
var botSenderRE = lazyregexp.New(`(?i)\b(chat|from)\s*\??\.\s*(id|username)\b|\bmessages\s*\[\s*0\s*\]\s*\??\.\s*from\b|\bwa_id\b|\b(chat|user|sender|from|telegram|whatsapp)_?(id|number)\b`)

// senderTestRE matches a comparison of the sender (botSenderRE) with a
// fixed id in code or in an expression: chatId === 123456789,
// String(message.from.id) !== "12345", "12345" == chat_id,
// ALLOWED.includes(chatId). A literal compared with another field on the
// same line (state[chatId].status === "READY") is no test of the sender.
// (senderTester: the forms searched where they can start.)
var senderTestRE = newSenderTester(`((chat|from)\s*\??\.\s*(id|username)|messages\s*\[\s*0\s*\]\s*\??\.\s*from|wa_id|(chat|user|sender|from|telegram|whatsapp)_?(id|number))`)

// fixedValue reports whether a condition's other side is fixed by the
// owner: a literal that is not blank, or an expression that reads no item
// (the instance's variables, the environment).
func fixedValue(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || v == "=" {
		return false
	}
	if strings.Contains(v, "{{") {
		return !readsItems(v)
	}
	return true
}

// senderGate reports whether node n, on a bot trigger's run, stops a
// stranger's run there (see above), and at which outputs (stops): a Code
// node or a lookup stops it whole; a branch only at the outputs that the
// owner's message alone takes (senderBranch). written gives the table
// types the workflow writes to (writtenTypes), made on first need.
func senderGate(n *n8nschema.Node, written func() map[string]bool) (gateStops, bool) {
	if n.Disabled {
		return gateStops{}, false
	}
	p := n.Params()
	switch {
	case n8nschema.IsBranch(n.Type):
		outs := senderBranch(n, conditionSense)
		return gateStops{outs: outs}, len(outs) > 0
	case n8nschema.IsCode(n.Type):
		code := p.Get("jsCode").Str() + p.Get("functionCode").Str() + p.Get("pythonCode").Str()
		return gateStops{all: true}, senderTestRE.MatchString(code)
	case lookupTypes[n.Type]:
		if n.AlwaysOutputData || n.ContinuesOnFail() {
			return gateStops{}, false
		}
		return gateStops{all: true}, senderLookup(n, written)
	}
	return gateStops{}, false
}

// senderLookup reports an enabled read of the owner's table (lookupTypes,
// lookupOps) by the sender's id, in a table the workflow does not write
// to (writtenTypes). Whether it outputs an item when it finds none is the
// caller's to ask.
func senderLookup(n *n8nschema.Node, written func() map[string]bool) bool {
	if n.Disabled || !lookupTypes[n.Type] {
		return false
	}
	p := n.Params()
	op := p.Get("operation").Str()
	if op == "" && n.Type != "n8n-nodes-base.googleSheets" || op != "" && !slices.Contains(lookupOps, op) {
		return false
	}
	if written()[n.Type] {
		return false // the run's own rows: the stranger's are found
	}
	return readsSender(p)
}

// readsSender reports a parameter of p, at any depth, that is an
// expression reading the sender's id (botSenderRE).
func readsSender(p n8nschema.Value) bool {
	found := false
	p.Scalars(func(v n8nschema.Value) bool {
		s := v.Str()
		found = strings.Contains(s, "{{") && botSenderRE.MatchString(s)
		return !found
	})
	return found
}

// gateStops are the outputs of a gate a stranger's run does not pass:
// all of them (a Code node's test, a lookup that finds no one, a fetch
// that throws), or the listed main outputs of a branch. A branch's error
// output (continueErrorOutput) is never listed.
type gateStops struct {
	all  bool
	outs []int
}

// stops reports whether a stranger's run ends on edge e out of the gate.
func (s gateStops) stops(e *Edge) bool {
	return s.all || e.Type == ConnMain && !e.Error && slices.Contains(s.outs, e.Output)
}

// A sender test's sense: which outcome of it only the owner's message
// takes. An If's true output (0) and a Filter's kept items (0) are the
// items a condition holds for, its false output and the Filter's
// discarded items (1) the others (nodes-base/nodes/If/V2/IfV2.node.js and
// Filter/V2/FilterV2.node.js execute: return [trueItems, falseItems],
// [keptItems, discardedItems]; If/V1 alike). A test "the sender equals
// the owner's id" (equals, contains, regex, starts or ends with) holds for
// the owner alone; "is not" (notEquals, notContains, notRegex, ...) fails
// for the owner alone. A branch that sends the owner's message one way and
// every stranger's the other is a gate only where the work hangs on the
// owner's side: an If "equals" whose work is on its false output lets
// every stranger through.
type senderSense int8

const (
	noSenderTest senderSense = iota
	ownerIfTrue              // the condition holds only for the owner
	ownerIfFalse             // the condition fails only for the owner
)

// The operations that hold for a match, and those that hold for no match:
// If/Filter/Switch v2 and later store operator.operation (equals,
// notEquals, contains, notContains, startsWith, notStartsWith, endsWith,
// notEndsWith, regex, notRegex: n8n-workflow's filter operators), If 1
// and Switch 1-2 operation (equal, notEqual, ...: nodes-base/nodes/If/V1/IfV1.node.js
// compareOperationFunctions). An operation n8n fills in when the export
// leaves it out is an equality (If 2's default operator {type: string,
// operation: equals}; If 1's and Switch 2's default 'equal').
var (
	matchOps   = map[string]bool{"": true, "equals": true, "equal": true, "contains": true, "regex": true, "startsWith": true, "endsWith": true}
	noMatchOps = map[string]bool{"notEquals": true, "notEqual": true, "notContains": true, "notRegex": true, "notStartsWith": true, "notEndsWith": true}
)

// conditionSense reads one condition: a sender field (botSenderRE) on one
// side, and on the other a fixed value (fixedValue), or, in an equality,
// a blank (a template's place for the owner's id: as written no one
// passes, filled in only the owner does); or a side that is itself a
// comparison of the sender with a fixed id (senderTestRE: {{ $json.chat.id
// === 123 }}), read as a boolean tested true or false.
func conditionSense(left, right, op string) senderSense {
	for _, s := range [2][2]string{{left, right}, {right, left}} {
		sender, other := s[0], s[1]
		if !botSenderRE.MatchString(sender) {
			continue
		}
		if m := senderTestRE.FindString(sender); m != "" {
			if strings.Contains(sender, "||") || strings.Contains(sender, "!(") || strings.Contains(sender, "?") && !strings.Contains(m, "?") {
				continue // the comparison is a part of a larger test: not read
			}
			// The side is a boolean: the owner's when it is true,
			// unless it says "!==" or "!…includes(".
			inner := !strings.Contains(m, "!=") && !negatedIncludes(sender, m)
			switch o := strings.TrimSpace(strings.TrimPrefix(other, "=")); {
			case op == "true" || op == "" && o == "":
			case op == "false":
				inner = !inner
			case matchOps[op] && (o == "true" || o == ""):
			case matchOps[op] && o == "false", noMatchOps[op] && (o == "true" || o == ""):
				inner = !inner
			case noMatchOps[op] && o == "false":
			default:
				continue
			}
			if inner {
				return ownerIfTrue
			}
			return ownerIfFalse
		}
		blank := strings.TrimSpace(strings.TrimPrefix(other, "=")) == ""
		switch {
		case !fixedValue(other) && !(blank && (op == "" || op == "equals" || op == "equal")):
		case !exactTest(op, other):
		case matchOps[op]:
			return ownerIfTrue
		case noMatchOps[op]:
			return ownerIfFalse
		}
	}
	return noSenderTest
}

// exactTest reports whether a comparison of the sender with a fixed
// value (other) lets through the owner's id alone, near enough: equality;
// a list or an id of five characters or more that contains the sender or
// that the sender contains; a regex of five characters or more that does
// not match any run (".*", ".+"). A contains of "1", a regex ".*", a
// prefix or a suffix pass strangers too.
func exactTest(op, other string) bool {
	v := strings.TrimSpace(strings.TrimPrefix(other, "="))
	switch strings.TrimPrefix(strings.TrimPrefix(op, "not"), "Not") {
	case "", "equals", "equal", "Equals", "Equal":
		return true
	case "contains", "Contains":
		return len(v) >= 5
	case "regex", "Regex":
		return len(v) >= 5 && !strings.Contains(v, ".*") && !strings.Contains(v, ".+")
	}
	return false
}

// negatedIncludes reports a senderTestRE match m in s that is an
// includes( preceded by a "!" (!ALLOWED.includes(chatId)).
func negatedIncludes(s, m string) bool {
	i := strings.Index(s, m)
	if i < 0 || !strings.HasPrefix(strings.ToLower(m), "includes(") {
		return false
	}
	pre := strings.TrimRight(s[:i], " .")
	j := strings.LastIndexAny(pre, "!(=&|{ ")
	return j >= 0 && pre[j] == '!'
}

// conditionsSense combines the senses of one test's conditions: "and"
// (every condition must hold) takes the true way only when each holds,
// so one owner's test holding is enough to keep strangers off it; "or"
// takes it when any holds, so every condition must be the owner's test.
// The false way is the mirror: under "and" every condition must fail only
// for the owner, under "or" one is enough. It says whether the true and
// the false outcome are the owner's alone.
func conditionsSense(senses []senderSense, or bool) (ownerTrue, ownerFalse bool) {
	if len(senses) == 0 {
		return false, false
	}
	count := func(want senderSense) int {
		k := 0
		for _, s := range senses {
			if s == want {
				k++
			}
		}
		return k
	}
	t, f := count(ownerIfTrue), count(ownerIfFalse)
	if or {
		return t == len(senses), f > 0
	}
	return t > 0, f == len(senses)
}

// filterSense reads a filter parameter (If 2, Filter 2, a Switch 3 rule's
// conditions): conditions[] of leftValue, rightValue and
// operator.operation, joined by combinator ("and" unless "or").
func filterSense(f n8nschema.Value, read conditionReader) (ownerTrue, ownerFalse bool) {
	var senses []senderSense
	for _, c := range f.Get("conditions").ElemsSeq() {
		senses = append(senses, read(c.Get("leftValue").Str(), c.Get("rightValue").Str(), c.Get("operator.operation").Str()))
	}
	return conditionsSense(senses, f.Get("combinator").Str() == "or")
}

// v1Sense reads If 1's and Filter 1's conditions: lists by data type
// (string, number, boolean, dateTime) of value1, operation and value2,
// joined by If 1's combineOperation ("all" unless "any") or Filter 1's
// combineConditions ("AND" unless "OR": nodes-base/nodes/Filter/V1/FilterV1.node.js).
func v1Sense(p n8nschema.Value, read conditionReader) (ownerTrue, ownerFalse bool) {
	var senses []senderSense
	p.Get("conditions").Each(func(typ string, list n8nschema.Value) bool {
		for _, c := range list.ElemsSeq() {
			senses = append(senses, read(c.Get("value1").Str(), c.Get("value2").Str(), v1Operation(typ, c.Get("operation").Str())))
		}
		return true
	})
	return conditionsSense(senses, p.Get("combineOperation").Str() == "any" || p.Get("combineConditions").Str() == "OR")
}

// v1Operation gives the operation n8n runs for a condition of If 1,
// Filter 1 or a Switch 1 or 2 rule of data type typ that stores op: an
// export leaves out a parameter at its default, and the default differs
// by type: equal for boolean and string, smaller for number, after for
// dateTime (nodes-base/dist/nodes/If/V1/IfV1.node.js, Filter/V1/FilterV1.node.js,
// Switch/V1/SwitchV1.node.js, Switch/V2/SwitchV2.node.js: each type's
// operation default).
func v1Operation(typ, op string) string {
	if op != "" {
		return op
	}
	switch typ {
	case "number":
		return "smaller"
	case "dateTime":
		return "after"
	}
	return "equal"
}

// A conditionReader reads one condition of a branch (its two sides and
// its operation) as a test of who wrote: conditionSense, the sender's id
// compared with the owner's; answerSense, the owner's service's answer
// about the sender.
type conditionReader func(left, right, op string) senderSense

// senderBranch gives the main outputs of an If, Filter or Switch that
// only the owner's message takes (see senderSense), each condition read
// by read. If and Filter: the
// true or kept output (0) and the false or discarded one (1). Switch 3
// (nodes-base/nodes/Switch/V3/SwitchV3.node.js): rule i's items go to
// output i, unmatched ones to the extra output after the rules
// (options.fallbackOutput "extra") or to the rule output it names (a
// number); Switch 2 (Switch/V2/SwitchV2.node.js) alike with its rules
// comparing value1 with each rule's value2, and Switch 1
// (Switch/V1/SwitchV1.node.js) sends a rule's items to the rule's
// output. An output is the owner's when each rule that sends items there
// holds only for the owner; the fallback output when some rule fails only
// for the owner. A Switch that routes by an expression is no test.
func senderBranch(n *n8nschema.Node, read conditionReader) []int {
	p := n.Params()
	var outs []int
	add := func(i int, yes bool) {
		if yes {
			outs = append(outs, i)
		}
	}
	switch n.Type {
	case n8nschema.TypeIf, n8nschema.TypeFilter:
		var t, f bool
		if c := p.Get("conditions"); c.Get("conditions").Kind() == n8nschema.Array {
			t, f = filterSense(c, read)
		} else {
			t, f = v1Sense(p, read)
		}
		add(0, t)
		add(1, f)
	case n8nschema.TypeSwitch:
		if mode := p.Get("mode").Str(); mode != "" && mode != "rules" {
			return nil
		}
		owner := map[int]bool{} // by output: does only the owner's message get there
		set := func(i int, yes bool) {
			if old, ok := owner[i]; ok {
				yes = yes && old
			}
			owner[i] = yes
		}
		anyFalse := false // some rule fails only for the owner
		fallback := -1
		if n.TypeVersion >= 3 {
			rules := p.Get("rules.values").Elems()
			for i, r := range rules {
				t, f := filterSense(r.Get("conditions"), read)
				set(i, t)
				anyFalse = anyFalse || f
			}
			switch fb := p.Get("options.fallbackOutput"); {
			case fb.Str() == "extra":
				fallback = len(rules)
			case fb.Kind() == n8nschema.Number:
				if v, _ := fb.Num(); v >= 0 {
					fallback = int(v)
				}
			}
		} else {
			value1 := p.Get("value1").Str()
			typ := p.Get("dataType").Str()
			if typ == "" {
				typ = "number" // Switch/V1/SwitchV1.node.js, Switch/V2/SwitchV2.node.js: dataType's default
			}
			for i, r := range p.Get("rules.rules").ElemsSeq() {
				out := i
				if n.TypeVersion < 2 {
					v, _ := r.Get("output").Num()
					out = int(v)
				}
				if out < 0 {
					continue
				}
				s := read(value1, r.Get("value2").Str(), v1Operation(typ, r.Get("operation").Str()))
				set(out, s == ownerIfTrue)
				anyFalse = anyFalse || s == ownerIfFalse
			}
			if v, ok := p.Get("fallbackOutput").Num(); ok && v >= 0 {
				fallback = int(v)
			}
		}
		if fallback >= 0 {
			set(fallback, anyFalse)
		}
		for i, yes := range owner {
			add(i, yes)
		}
		slices.Sort(outs)
	}
	return outs
}

// lookupTypes are the owner's tables a workflow looks a sender up in, and
// lookupOps the operations that read rows (and output none when no row
// matches).
var lookupTypes = map[string]bool{
	"n8n-nodes-base.googleSheets": true, "n8n-nodes-base.airtable": true, "n8n-nodes-base.supabase": true,
	"n8n-nodes-base.postgres": true, "n8n-nodes-base.mySql": true, "n8n-nodes-base.notion": true,
	"n8n-nodes-base.baserow": true, "n8n-nodes-base.nocoDb": true, "n8n-nodes-base.dataTable": true,
	"n8n-nodes-base.microsoftExcel": true,
}

var lookupOps = []string{"read", "get", "getAll", "lookup", "search", "select", "getMany", "list", "getRows", "rowGet"}

// senderGates are the nodes of reach that stop a stranger's run at bot
// trigger t (senderGate), with the outputs where they stop it.
func senderGates(g *Graph, reach Reach, t *n8nschema.Node) map[*n8nschema.Node]gateStops {
	out := map[*n8nschema.Node]gateStops{}
	var types map[string]bool
	written := func() map[string]bool { // one pass over the workflow, however many lookups
		if types == nil {
			types = writtenTypes(g)
		}
		return types
	}
	kinds := map[*n8nschema.Node]lookupKind{} // each lookup judged once, however many branches it feeds
	kind := func(m *n8nschema.Node) lookupKind {
		k, ok := kinds[m]
		if !ok {
			switch {
			case ownerLookup(m):
				k = ownerAsked
			case senderLookup(m, written):
				k = tableRead
			}
			kinds[m] = k
		}
		return k
	}
	for _, n := range reach.Nodes() {
		if n == t {
			continue
		}
		if s, ok := senderGate(n, written); ok {
			out[n] = s
		} else if outs := answerBranch(g, n, kind); len(outs) > 0 {
			out[n] = gateStops{outs: outs}
		}
	}
	return out
}

// writtenTypes gives the table node types (lookupTypes) that a node of
// the workflow, its tool too, writes rows with (an operation that is not
// a read): such a table is the bot's own store of whoever writes (a queue
// of messages, a profile made on the first message), where a stranger's
// row is found once the run has made it, not the owner's list of who may
// write.
func writtenTypes(g *Graph) map[string]bool {
	out := map[string]bool{}
	for _, m := range g.Nodes {
		typ := strings.TrimSuffix(m.Type, "Tool")
		if m.Disabled || !lookupTypes[typ] {
			continue
		}
		op := m.Params().Get("operation").Str()
		if op == "" && m.Type != "n8n-nodes-base.googleSheets" || op != "" && !slices.Contains(lookupOps, op) {
			out[typ] = true
		}
	}
	return out
}

// A bot may ask the owner's own service about the sender: an HTTP Request
// that reads (GET, the method every version sends when it stores none:
// n8nschema.SentMethod) with the sender's id in its URL, query or body
// (botSenderRE), "is this user's subscription active", and a branch right
// after it that tests the answer ($json.active is true). The owner's
// service answers for the owner's users; a stranger's id is not among
// them, so the answer's test fails for a stranger (or the service refuses
// the id: an HTTP Request v3 throws on a status of 400 or more,
// nodes-base/nodes/HttpRequest/V3/HttpRequestV3.node.js, and the run ends
// there). The outputs a stranger's run takes are those where the answer's
// test fails (answerSense); the work hung on the others is the members'.
//
// What is not such a lookup: a call to a public API (ownerService: a host
// the catalog knows as a service's, as api.telegram.org, whose getChat
// and getChatMember answer for any user), a call whose host an expression
// builds, a write (POST, PUT: a stranger may register through it), a
// branch that reads anything but the answer's own fields, one fed by
// anything but such lookups.

// ownerLookup reports an enabled HTTP Request that reads from a literal
// host that is no public API (ownerService) with the sender's id in an
// expression of its parameters.
func ownerLookup(n *n8nschema.Node) bool {
	if n.Disabled || n.Type != n8nschema.TypeHTTPRequest {
		return false
	}
	if m, _, ok := n8nschema.SentMethod(n); !ok || m != "GET" {
		return false
	}
	url := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(n.Params().Get("url").Str()), "="))
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return false
	}
	host, _, _ := strings.Cut(strings.ToLower(n8nschema.URLHost(url)), ":")
	host = strings.TrimSuffix(host, ".") // a fully qualified name: api.telegram.org. is api.telegram.org
	if !strings.Contains(host, ".") || !ownerService(host) {
		return false
	}
	return readsSender(n.Params())
}

// ownerService reports a host that is not a known public API: none the
// catalog names a service by (apiHosts), none with a provider's known
// rate limits (n8nschema.RateLimitOf), no team messenger (teamHost), no
// Google API (*.googleapis.com). Those answer for any user or any key.
func ownerService(host string) bool {
	h := strings.TrimPrefix(strings.TrimSuffix(host, "."), "www.")
	if apiHosts[h] != "" || teamHost(h) || h == "googleapis.com" || strings.HasSuffix(h, ".googleapis.com") {
		return false
	}
	_, known := n8nschema.RateLimitOf("", h)
	return !known
}

// answerItemOnFail reports a lookup that puts an item on its main output
// when its request fails or finds nothing: Continue (regular output), the
// legacy continueOnFail, Always Output Data (an empty item), Never Error
// or Ignore Response Code (the error answer's body: n8nschema.IgnoresStatus).
// Continue (using error output) sends the error item to the error output.
func answerItemOnFail(n *n8nschema.Node) bool {
	return n.AlwaysOutputData || n8nschema.IgnoresStatus(n) ||
		n.ContinuesOnFail() && n.OnError != "continueErrorOutput"
}

// lookupKind is what a node feeding a branch is to answerBranch: an
// owner's lookup (ownerLookup), a read of the owner's table by the sender's
// id (senderLookup), or neither.
type lookupKind int8

const (
	notLookup lookupKind = iota
	ownerAsked
	tableRead
)

// answerBranch gives the outputs of branch n that only a member's message
// takes when every main input of n is the main output of an owner's
// lookup (ownerLookup) or of a read of the owner's table by the sender's
// id (senderLookup: one that outputs an item when it finds no row, Always
// Output Data, which is otherwise no gate), and n tests the answer or the
// row found (answerSense). A table read's item for no row is empty
// (n8n-core/dist/execution-engine/workflow-execute.js ensureAlwaysOutputData
// gives [{json: {}}]), so its test is read as not sure. kind judges a
// feeding node (senderGates judges each once per trigger: one lookup may
// feed thousands of branches, and each judgement walks its parameters).
func answerBranch(g *Graph, n *n8nschema.Node, kind func(*n8nschema.Node) lookupKind) []int {
	if n.Disabled || !n8nschema.IsBranch(n.Type) {
		return nil
	}
	sure, asked, fed := true, false, false
	for _, e := range g.In(n) {
		if e.Type != ConnMain {
			continue
		}
		if e.Error || e.Output != 0 {
			return nil
		}
		switch kind(e.From) {
		case ownerAsked:
			sure = sure && !answerItemOnFail(e.From)
			asked = true
		case tableRead:
			sure = false // a gate itself, unless it outputs an item for no row
		default:
			return nil
		}
		fed = true
	}
	if !fed {
		return nil
	}
	return senderBranch(n, func(left, right, op string) senderSense { return answerSense(left, right, op, sure, asked) })
}

// answerFieldRE matches an expression that is one field of the item's
// JSON, the lookup's answer: {{ $json.active }}, {{ $json["plan"] }},
// {{ $json.data.status }}.
var answerFieldRE = lazyregexp.New(`^=?\s*\{\{\s*\$json((?:\s*\??\.\s*[A-Za-z_$][\w$]*|\[\s*(?:"[^"]*"|'[^']*'|\d+)\s*\])+)\s*\}\}\s*$`)

// answerDenials are the fixed values that say "not a member" when an
// answer's field equals them.
var answerDenials = map[string]bool{"false": true, "0": true, "null": true, "none": true, "no": true,
	"inactive": true, "expired": true, "blocked": true, "banned": true}

// answerSense reads one condition on a lookup's answer: one side is a
// field of the answer (answerFieldRE), the other a fixed value where the
// operation takes one. It is a member's test only where the member's side
// needs the field present with a member's value, so that an answer that
// lacks the field takes a stranger's way: "is true" and "equals" a fixed
// value that is no denial are ownerIfTrue; "is false" and "is not equal
// to" such a value ownerIfFalse. n8n-workflow's filter
// (dist/cjs/node-parameters/filter-parameter.js
// executeFilterConditionWithRegexTest) reads a missing field as not
// existing, empty, not true and false (boolean "false" is !left), and
// unequal to any value: an item that lacks the field (an error item
// {error}, an empty one, a service's 200 with {} for an id it does not
// know) fails each member's test above and so takes a stranger's way.
//
// What is no test of the sender:
//   - "equals false" (or 0, inactive: answerDenials) and "is not equal to"
//     a denial, sure or not: a missing field is not false, so an answer
//     that lacks the field ({}, {"found": false}, {"error": "unknown
//     user"}, which many services send with a status of 200 for an id
//     they do not know) takes the side read as a member's;
//   - after the owner's service (asked: ownerLookup), a presence test
//     ("exists", "is not empty" and their negations: exists is
//     left !== undefined && left !== null, evaluateExistsOperation): a
//     service answers a stranger's id with the same field ({"active":
//     false}, {"status": "inactive"}). After a table read that always
//     outputs data it is a test: the item for no row is empty
//     ({json: {}}), a found row has the field;
//   - a field named error when the lookup is not sure (answerItemOnFail):
//     the error item's own field.
func answerSense(left, right, op string, sure, asked bool) senderSense {
	for _, s := range [2][2]string{{left, right}, {right, left}} {
		m := answerFieldRE.FindStringSubmatch(s[0])
		if m == nil || botSenderRE.MatchString(m[1]) || !sure && strings.Contains(strings.ToLower(m[1]), "error") {
			continue
		}
		other := strings.TrimSpace(strings.TrimPrefix(s[1], "="))
		denial := answerDenials[strings.ToLower(strings.Trim(other, `"'`))]
		switch op {
		case "true":
			return ownerIfTrue
		case "false":
			return ownerIfFalse
		case "exists", "notEmpty", "isNotEmpty":
			if !asked {
				return ownerIfTrue
			}
		case "notExists", "empty", "isEmpty":
			if !asked {
				return ownerIfFalse
			}
		case "", "equals", "equal":
			if fixedValue(s[1]) && !denial {
				return ownerIfTrue
			}
		case "notEquals", "notEqual":
			if fixedValue(s[1]) && !denial {
				return ownerIfFalse
			}
		}
	}
	return noSenderTest
}
