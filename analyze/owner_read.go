package analyze

import (
	"cmp"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// An OwnerRead is the read side of an open trigger (Exposure): an agent
// tool that reads the owner's private data with the owner's credential (a
// mailbox, a calendar, the contacts, a personal drive), for an agent whose
// prompt is the caller's message (askingAgent), and whose answer goes
// back to the caller (answersCaller). Whoever starts the run then asks
// the model for the owner's mail or meetings and is told them. What is
// private is decided by the operation, not by names: the owner's own
// mailbox and calendar are read by the OAuth credential the node holds
// (nodes-base Google/Gmail/v2/MessageDescription.js get and getAll,
// ThreadDescription.js; Google/Calendar/EventDescription.js get and
// getAll; Google/Contacts/ContactDescription.js; Microsoft/Outlook/v2
// message, event and contact reads; Google/Drive/v2 file download and
// fileFolder search; Microsoft/OneDrive file and folder reads). A sheet,
// a database or a vector store is left out: a bot built to answer from
// it (a catalog, a FAQ) is answering what it was made to answer.
type OwnerRead struct {
	Node  *n8nschema.Node
	Agent *n8nschema.Node
	// What says what the tool reads: "the owner's mail".
	What string
}

// privateReads names, per node type (its tool's type without "Tool"),
// the resource and operation that read the owner's private data, and
// what that is.
var privateReads = map[string]map[string]string{
	"n8n-nodes-base.gmail": {
		"message.get": "the owner's mail", "message.getAll": "the owner's mail",
		"thread.get": "the owner's mail", "thread.getAll": "the owner's mail",
		"draft.get": "the owner's draft mail", "draft.getAll": "the owner's draft mail",
	},
	"n8n-nodes-base.googleCalendar": {
		"event.get": "the owner's calendar events", "event.getAll": "the owner's calendar events",
	},
	"n8n-nodes-base.googleContacts": {
		"contact.get": "the owner's contacts", "contact.getAll": "the owner's contacts",
	},
	"n8n-nodes-base.microsoftOutlook": {
		"message.get": "the owner's mail", "message.getAll": "the owner's mail",
		"folderMessage.getAll": "the owner's mail", "draft.get": "the owner's draft mail",
		"messageAttachment.get": "the owner's mail attachments", "messageAttachment.getAll": "the owner's mail attachments",
		"messageAttachment.download": "the owner's mail attachments",
		"event.get":                  "the owner's calendar events", "event.getAll": "the owner's calendar events",
		"contact.get": "the owner's contacts", "contact.getAll": "the owner's contacts",
	},
	"n8n-nodes-base.googleDrive": {
		"file.download": "the owner's Drive files", "fileFolder.search": "the owner's Drive files",
		"file.list": "the owner's Drive files",
	},
	"n8n-nodes-base.microsoftOneDrive": {
		"file.download": "the owner's OneDrive files", "file.get": "the owner's OneDrive files",
		"file.search": "the owner's OneDrive files", "folder.getChildren": "the owner's OneDrive files",
		"folder.search": "the owner's OneDrive files",
	},
}

// privateRead says what agent tool n reads of the owner's private data,
// "" for none (privateReads), n8n's default resource and operation taken
// when the export omits them.
func privateRead(n *n8nschema.Node) string {
	if !strings.HasSuffix(n.Type, "Tool") {
		return ""
	}
	ops := privateReads[strings.TrimSuffix(n.Type, "Tool")]
	if ops == nil {
		return ""
	}
	res, op, ok := n8nschema.AppResourceOperation(n)
	if !ok {
		return ""
	}
	what := ops[res+"."+op]
	if what == "" || ownFolder(n) || timesOnly(n) {
		return ""
	}
	return what
}

// ownFolder reports a drive read kept to what the bot works on: a search
// or listing in one fixed folder (Drive's filter.folderId, OneDrive's
// folderId), or a download of one fixed file. The model cannot turn such a
// read to the rest of the owner's drive; a folder the bot is built on is
// its purpose, as a sheet is.
func ownFolder(n *n8nschema.Node) bool {
	typ := strings.TrimSuffix(n.Type, "Tool")
	if typ != "n8n-nodes-base.googleDrive" && typ != "n8n-nodes-base.microsoftOneDrive" {
		return false
	}
	fixed := func(path string) bool {
		v := n.Params().Get(path)
		if rl := v.Get("value"); rl.Exists() {
			v = rl
		}
		s := strings.TrimSpace(strings.TrimPrefix(v.Str(), "="))
		return s != "" && s != "root" && !strings.Contains(s, "{{")
	}
	return fixed("filter.folderId") || fixed("queryFilters.folderId") || fixed("folderId") || fixed("fileId")
}

// timesOnly reports a calendar read whose fields option keeps only when
// events are (options.fields "items(start,end)"): no title, guest or
// description reaches the model.
func timesOnly(n *n8nschema.Node) bool {
	if strings.TrimSuffix(n.Type, "Tool") != "n8n-nodes-base.googleCalendar" {
		return false
	}
	f := strings.ToLower(n.Params().Get("options.fields").Str())
	if f == "" || f == "*" {
		return false
	}
	for _, w := range []string{"summary", "description", "attendees", "location", "organizer", "creator", "attachments", "*"} {
		if strings.Contains(f, w) {
			return false
		}
	}
	return true
}

// OwnerReads returns the agent tools among reach (what a stranger's run at
// open trigger t reaches) that read the owner's private data
// (privateRead) for an agent whose prompt is the caller's message and
// whose answer the caller gets (answersCaller), in file order.
func OwnerReads(g *Graph, t *n8nschema.Node, reach Reach) []OwnerRead {
	var out []OwnerRead
	var w *relayWalk
	answers := map[*n8nschema.Node]bool{} // per agent, asked once
	var ends map[*n8nschema.Node]bool     // shapedEnds, made on the first agent's ask
	for _, n := range reach.Nodes() {
		if n.Disabled {
			continue
		}
		what := privateRead(n)
		if what == "" {
			continue
		}
		if w == nil {
			w = &relayWalk{g: g, t: t, stranger: reach, memo: map[fieldKey]bool{}}
		}
		a := w.askingAgentOf(n, false)
		if a == nil {
			continue
		}
		yes, ok := answers[a]
		if !ok {
			yes = answersCaller(g, t, a, reach, &ends)
			answers[a] = yes
		}
		if yes {
			out = append(out, OwnerRead{Node: n, Agent: a, What: what})
		}
	}
	slices.SortFunc(out, func(a, b OwnerRead) int {
		i, _ := g.index(a.Node)
		j, _ := g.index(b.Node)
		return cmp.Compare(i, j)
	})
	return out
}

// TypeChatRespond is the Respond to Chat node.
const TypeChatRespond = "@n8n/n8n-nodes-langchain.chat"

// answersCaller reports whether agent a's answer, in a run of open
// trigger t, goes back to whoever started it:
//
//   - a public chat streams the agent's answer (responseMode streaming),
//     shows the last node's output (lastNode, the default: the agent
//     itself, or a Set, Code or flow node after it), or answers from a
//     Respond to Chat or Respond to Webhook node after it
//     (langchain nodes/trigger/ChatTrigger/ChatTrigger.node.ts, the
//     options' responseMode);
//   - a Webhook set to answer when the last node finishes, or from a
//     Respond to Webhook node after the agent (AnswerMode);
//   - a bot, by a message after the agent to the chat or number that
//     wrote (a Telegram send to message.chat.id, a WhatsApp message to
//     messages[0].from: botSenderRE) whose text reads the run's items.
//
// An agent whose answer only goes into a write (a sheet's row, a log) is
// not read back to the caller; neither is a form's, whose page shows the
// form's own text.
//
// *ends is shapedEnds' table for t's run, made on the first agent's ask
// in lastNode mode and kept for the others: each agent's answer is then
// a look at the nodes after it, not a walk of its whole path again.
func answersCaller(g *Graph, t *n8nschema.Node, a *n8nschema.Node, reach Reach, ends *map[*n8nschema.Node]bool) bool {
	bot := botExposure(t) != ""
	mode := ""
	switch {
	case bot:
	case t.Type == n8nschema.TypeChatTrigger:
		mode = t.Params().Get("options.responseMode").Str()
		if mode == "" {
			mode = "lastNode"
		}
		if mode == "streaming" {
			return true
		}
	case t.Type == n8nschema.TypeWebhook:
		mode = AnswerMode(t)
		if mode == "lastNode" && (t.Params().Get("responseData").Str() == "noData" || t.Params().Get("options.noResponseBody").True()) {
			return false
		}
	default:
		return false
	}
	if mode == "lastNode" {
		// The agent's item, shaped or not, is the last node's output:
		// the agent ends the run, or a node after it from which nodes
		// that only shape the item lead to one that does.
		if endsRun(g, a, reach) {
			return true
		}
		if *ends == nil {
			*ends = shapedEnds(g, reach)
		}
		for _, e := range g.OutOfType(a, ConnMain) {
			if !e.Error && reach.Has(e.To) && !e.To.Disabled && e.To != a && (*ends)[e.To] {
				return true
			}
		}
		return false
	}
	// Walk the main path after the agent (bot, responseNode).
	seen := map[*n8nschema.Node]bool{a: true}
	queue := []*n8nschema.Node{a}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		switch {
		case bot:
			if n != a && replyToSender(g, n, seen) {
				return true
			}
		case mode == "responseNode" || mode == "responseNodes":
			switch n.Type {
			case TypeChatRespond:
				if slices.ContainsFunc(readSources(g, n, n.Params().Raw()), func(m *n8nschema.Node) bool { return seen[m] }) {
					return true
				}
			case n8nschema.TypeRespondToWebhook:
				if slices.ContainsFunc(answerSources(g, n), func(m *n8nschema.Node) bool { return seen[m] }) {
					return true
				}
			}
		default:
			return false
		}
		for _, e := range g.OutOfType(n, ConnMain) {
			if e.Error || !reach.Has(e.To) || e.To.Disabled || seen[e.To] {
				continue
			}
			seen[e.To] = true
			queue = append(queue, e.To)
		}
	}
	return false
}

// shapesItem reports whether n only shapes the item it passes on (a
// flow or internal node: a Set, a Code node, an If), so that the last
// node's output after it is still what came into it.
func shapesItem(n *n8nschema.Node) bool {
	r := n8nschema.Lookup(n.Type).Role
	return r == n8nschema.RoleFlow || r == n8nschema.RoleInternal
}

// shapedEnds returns the nodes of t's run (reach, enabled) from which a
// walk along main connections (not error outputs), through nodes that
// only shape the item (shapesItem), reaches a node that ends the run
// (endsRun), that node included: answersCaller's lastNode question for
// every agent at once, one walk back from the nodes that end the run.
func shapedEnds(g *Graph, reach Reach) map[*n8nschema.Node]bool {
	ends := map[*n8nschema.Node]bool{}
	var queue []*n8nschema.Node
	for _, n := range g.Nodes {
		if reach.Has(n) && !n.Disabled && endsRun(g, n, reach) {
			ends[n] = true
			queue = append(queue, n)
		}
	}
	for h := 0; h < len(queue); h++ {
		for _, e := range g.InOfType(queue[h], ConnMain) {
			m := e.From
			if e.Error || ends[m] || !reach.Has(m) || m.Disabled || !shapesItem(m) {
				continue
			}
			ends[m] = true
			queue = append(queue, m)
		}
	}
	return ends
}

// replyToSender reports whether n sends a message to the chat or number
// whose message started the run (a recipient that reads botSenderRE: a
// Telegram chatId, a WhatsApp recipient) with a text that reads the items
// of a node of from (the agent and the nodes after it).
func replyToSender(g *Graph, n *n8nschema.Node, from map[*n8nschema.Node]bool) bool {
	if n.Disabled {
		return false
	}
	recipients := recipientExprs(n)
	if typ := strings.TrimSuffix(n.Type, "Tool"); typ == "n8n-nodes-base.telegram" {
		res, _, _ := n8nschema.AppResourceOperation(n)
		if res != "message" {
			return false // a file or chat lookup, not a message
		}
		recipients = append(recipients, n.Params().Get("chatId").Str())
	} else if !ConsequenceIn(g, n).Message {
		return false
	}
	if !slices.ContainsFunc(recipients, func(x string) bool { return strings.Contains(x, "{{") && botSenderRE.MatchString(x) }) {
		return false
	}
	reads := false
	n.Params().Walk(func(rel string, v n8nschema.Value) {
		if reads || v.Kind() != n8nschema.String || rel == "chatId" || slices.Contains(recipients, v.Str()) {
			return
		}
		reads = readsItems(v.Str()) && slices.ContainsFunc(readSources(g, n, v.Str()), func(m *n8nschema.Node) bool { return from[m] })
	})
	return reads
}
