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
// unless alwaysOutputData is set).

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
		for _, u := range ups.Elems() {
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
// stranger's run there (see above). written gives the table types the
// workflow writes to (writtenTypes), made on first need.
func senderGate(n *n8nschema.Node, written func() map[string]bool) bool {
	if n.Disabled {
		return false
	}
	p := n.Params()
	switch {
	case n8nschema.IsBranch(n.Type):
		// Pairs of sides under one parent: leftValue/rightValue (If 2,
		// Filter, Switch 3), value1/value2 (If 1); and Switch 1-2's
		// value1 against each rule's value2.
		sides := map[string]map[string]string{}
		p.Walk(func(rel string, v n8nschema.Value) {
			i := strings.LastIndexByte(rel, '.')
			parent, key := "", rel
			if i >= 0 {
				parent, key = rel[:i], rel[i+1:]
			}
			switch key {
			case "leftValue", "rightValue", "value1", "value2":
			case "operation": // If 2's operator.operation, kept with its sides
				if !strings.HasSuffix(parent, ".operator") {
					return
				}
				parent, key = strings.TrimSuffix(parent, ".operator"), "op"
			default:
				return
			}
			if sides[parent] == nil {
				sides[parent] = map[string]string{}
			}
			sides[parent][key] = v.Str()
		})
		// The other side blank in an equality is a template's place for
		// the owner's id: as written no one passes, filled in only the
		// owner does.
		for _, s := range sides {
			blankEq := s["op"] == "equals"
			pair := func(a, b string) bool {
				return botSenderRE.MatchString(a) && (fixedValue(b) || senderTestRE.MatchString(a) || blankEq && strings.TrimSpace(strings.TrimPrefix(b, "=")) == "")
			}
			if pair(s["leftValue"], s["rightValue"]) || pair(s["rightValue"], s["leftValue"]) ||
				pair(s["value1"], s["value2"]) || pair(s["value2"], s["value1"]) {
				return true
			}
		}
		if n.Type == n8nschema.TypeSwitch && botSenderRE.MatchString(p.Get("value1").Str()) {
			for _, r := range p.Get("rules.rules").Elems() {
				if fixedValue(r.Get("value2").Str()) {
					return true
				}
			}
		}
	case n8nschema.IsCode(n.Type):
		code := p.Get("jsCode").Str() + p.Get("functionCode").Str() + p.Get("pythonCode").Str()
		return senderTestRE.MatchString(code)
	case lookupTypes[n.Type]:
		if n.AlwaysOutputData || n.ContinuesOnFail() {
			return false
		}
		op := p.Get("operation").Str()
		if op == "" && n.Type != "n8n-nodes-base.googleSheets" || op != "" && !slices.Contains(lookupOps, op) {
			return false
		}
		if written()[n.Type] {
			return false // the run's own rows: the stranger's are found
		}
		found := false
		p.Scalars(func(v n8nschema.Value) bool {
			s := v.Str()
			found = strings.Contains(s, "{{") && botSenderRE.MatchString(s)
			return !found
		})
		return found
	}
	return false
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
// trigger t (senderGate).
func senderGates(g *Graph, reach map[*n8nschema.Node]bool, t *n8nschema.Node) []*n8nschema.Node {
	var out []*n8nschema.Node
	var types map[string]bool
	written := func() map[string]bool { // one pass over the workflow, however many lookups
		if types == nil {
			types = writtenTypes(g)
		}
		return types
	}
	for n, in := range reach {
		if in && n != t && senderGate(n, written) {
			out = append(out, n)
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
