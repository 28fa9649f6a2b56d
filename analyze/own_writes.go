package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A polling or app trigger watches a container of one service (a Notion
// database, a sheet, an Airtable table, a Drive folder); when the workflow
// it starts writes into that same container, the next poll sees the write
// and starts the workflow again, which writes again: a self-trigger loop
// that no HTTP call shows. A Slack Trigger and the channel its workflow
// posts into are the same loop, read in slack_self_posts.go.

// containerKeys are the parameters that name what a trigger watches and
// where an app node writes: a document and sheet, a database, a base and
// table, a folder or file.
// Keys a trigger and an app node spell differently map to one name.
var containerKeys = map[string]string{"documentId": "documentId", "spreadsheetId": "documentId",
	"sheetName": "sheetName", "databaseId": "databaseId", "baseId": "baseId", "base": "baseId",
	"tableId": "tableId", "table": "tableId", "folderToWatch": "folderId", "folderId": "folderId",
	"fileToWatch": "fileId", "fileId": "fileId", "listId": "listId", "boardId": "boardId"}

// containers returns the literal container ids a node's parameters name
// (a resource locator's value, or a plain string), by key.
func containers(n *n8nschema.Node) map[string]string {
	var out map[string]string // made on the first find: most nodes have none
	n.Params().Walk(func(rel string, v n8nschema.Value) {
		if v.Kind() != n8nschema.String {
			return
		}
		name := containerKeys[paramKey(rel)]
		if name == "" {
			return // before Str, which may unescape
		}
		s := v.Str()
		if s == "" || strings.HasPrefix(s, "=") || strings.Contains(s, "{{") {
			return
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = s
	})
	return out
}

// sameContainer reports whether a write goes where a trigger watches:
// every container both name is the same (the document and the sheet, the
// base and the table), and they name at least one.
func sameContainer(watched, written map[string]string) bool {
	shared := 0
	for k, v := range watched {
		if w, ok := written[k]; ok {
			if w != v {
				return false
			}
			shared++
		}
	}
	return shared > 0
}

// writesTriggered reports whether a write of the app node fires the
// trigger again and again: an update fires "updated" events (Airtable's
// trigger field names a modified time), a create or append fires
// "added/created" events (or a created-time trigger field). An upsert
// finds its own row on the second run, a delete or move takes the object
// away, and the Sheets trigger compares contents, so an update that writes
// the same values again does not fire it: none of them loops.
func writesTriggered(trigger *n8nschema.Node, op string) bool {
	ev := ""
	for _, k := range []string{"event", "events", "triggerField"} {
		if v, ok := trigger.Param(k); ok && v.Kind() == n8nschema.String {
			ev = strings.ToLower(v.Str())
			break
		}
	}
	if ev == "" && trigger.Type == "n8n-nodes-base.notionTrigger" {
		// An export leaves out a default: the Notion Trigger's event is
		// pageAddedToDatabase (Notion/NotionTrigger.node.ts), which an
		// update does not fire.
		ev = "pageaddedtodatabase"
	}
	if trigger.Type == "n8n-nodes-base.airtableTrigger" && !modifiedTime(ev) {
		// The trigger asks for records whose triggerField is after the
		// last poll (Airtable/AirtableTrigger.node.ts filterByFormula
		// IS_AFTER): only a last-modified time moves on an update; a
		// created time (or any other field) does not.
		ev = "created"
	}
	verb := strings.ToLower(op[strings.LastIndexByte(op, '.')+1:])
	if strings.Contains(verb, "upsert") || strings.Contains(verb, "orupdate") || strings.Contains(verb, "delete") ||
		strings.Contains(verb, "remove") || strings.Contains(verb, "move") {
		// An upsert finds its own row on the second run and only updates
		// it; a delete or a move takes the object away.
		return false
	}
	update := strings.Contains(verb, "update") || strings.Contains(verb, "edit")
	create := !update
	if update && trigger.Type == "n8n-nodes-base.googleSheetsTrigger" {
		// The Sheets trigger compares row contents: writing the same
		// values on the second run changes nothing and does not fire.
		return false
	}
	switch {
	case ev == "" || strings.Contains(ev, "any"):
		return true
	case strings.Contains(ev, "updat") || strings.Contains(ev, "chang") || strings.Contains(ev, "modif"):
		return update
	case strings.Contains(ev, "add") || strings.Contains(ev, "creat") || strings.Contains(ev, "new"):
		return create
	}
	return true
}

// modifiedTime reports whether an Airtable field name reads as a
// last-modified time ("Last Modified", "updated_at", "Modified time").
func modifiedTime(field string) bool {
	return strings.Contains(field, "modif") || strings.Contains(field, "updat") || strings.Contains(field, "edited") || strings.Contains(field, "changed")
}

// ownWriteTriggers returns, for each app node that writes where a polling
// or app trigger of its own workflow watches, that trigger; the write must
// be reachable from the trigger without passing an If, Switch or Filter
// (which may stop the second run). A Slack Trigger's posts are read by
// slackSelfPosts, which passes such a node unless it tests who wrote.
func ownWriteTriggers(g *Graph) map[*n8nschema.Node]*n8nschema.Node {
	var out map[*n8nschema.Node]*n8nschema.Node // made on the first find: most graphs have none
	put := func(m, t *n8nschema.Node) {
		if out == nil {
			out = map[*n8nschema.Node]*n8nschema.Node{}
		}
		out[m] = t
	}
	slack := slackWalks{testsWriter: map[*n8nschema.Node]bool{}}
	for _, t := range g.Triggers() {
		app, isTrigger := strings.CutSuffix(t.Type, "Trigger")
		if t.Disabled || !isTrigger || !(n8nschema.IsPollingTrigger(t.Type) || n8nschema.IsWebhookNode(t.Type)) {
			continue
		}
		if t.Type == typeSlackTrigger {
			slackSelfPosts(g, t, &slack, put)
			continue
		}
		watched := containers(t)
		if len(watched) == 0 {
			continue
		}
		walkRun(g, t, func(m *n8nschema.Node) bool {
			switch m.Type {
			case n8nschema.TypeIf, n8nschema.TypeSwitch, n8nschema.TypeFilter:
				return false
			}
			if strings.TrimSuffix(m.Type, "Tool") != app {
				return true
			}
			w, op := n8nschema.WriteOp(m)
			if !w || !writesTriggered(t, op) {
				return true
			}
			if sameContainer(watched, containers(m)) {
				put(m, t)
			}
			if refsTriggeredItem(m, t) && !strings.Contains(strings.ToLower(op), "creat") {
				put(m, t) // it updates the very page or record that fired
			}
			return true
		})
	}
	return out
}

// walkRun visits, breadth first and once each, the enabled nodes a run
// started at t reaches along main connections; visit returns false to go
// no further past a node.
func walkRun(g *Graph, t *n8nschema.Node, visit func(m *n8nschema.Node) bool) {
	seen := map[*n8nschema.Node]bool{t: true}
	queue := []*n8nschema.Node{t}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.Out(u) {
			m := e.To
			if e.Type != ConnMain || seen[m] || m.Disabled {
				continue
			}
			seen[m] = true
			if visit(m) {
				queue = append(queue, m)
			}
		}
	}
}

// itemKeys name the one object an app node writes: a page, a record, a
// row, a file.
var itemKeys = map[string]bool{"pageId": true, "id": true, "recordId": true, "rowId": true, "fileId": true}

// refsTriggeredItem reports whether an app node names the object it writes
// by the item the trigger passed ($json.id, $('Trigger').item.json.id).
func refsTriggeredItem(m, t *n8nschema.Node) bool {
	found := false
	m.Params().Walk(func(rel string, v n8nschema.Value) {
		if found || v.Kind() != n8nschema.String {
			return
		}
		key := paramKey(rel)
		s := v.Str()
		found = itemKeys[key] && (strings.Contains(s, "$json.id") || strings.Contains(s, `$json["id"]`) ||
			strings.Contains(s, "$('"+t.Name+"')"))
	})
	return found
}

// paramKey is the name of the parameter at rel, seeing through a resource
// locator ({"__rl": true, "value": ...}) to the parameter that holds it.
func paramKey(rel string) string {
	i := strings.LastIndexByte(rel, '.')
	key := rel[i+1:]
	if key == "value" && i >= 0 {
		parent := rel[:i]
		key = parent[strings.LastIndexByte(parent, '.')+1:]
	}
	return key
}
