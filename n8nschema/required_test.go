package n8nschema

import "testing"

// TestMissingRequired pins which empty parameters n8n finds missing among
// those it shows for the node's values (node-helpers.js getParameterIssues,
// displayParameter).
func TestMissingRequired(t *testing.T) {
	for _, c := range []struct {
		node, want string
	}{
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"options": {}}}`, "url"},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"url": ""}}`, "url"},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"url": "={{ $json.u }}"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"url": "="}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "disabled": true, "parameters": {}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.25, "parameters": {}}`, ""}, // no such version
		// A tool variant: the base node's required parameters, and the
		// toolDescription n8n adds (ai-tools.js convertNodeToAiTool),
		// default the node's description: only a stored "" misses it, and
		// at a node with a resource or operation only when
		// descriptionType is "manual".
		{`{"name": "A", "type": "n8n-nodes-base.httpRequestTool", "typeVersion": 4.2, "parameters": {"options": {}}}`, "url"},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequestTool", "typeVersion": 4.2, "parameters": {"url": "={{ $fromAI('url') }}"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequestTool", "typeVersion": 4.2, "parameters": {"url": "https://a.io", "toolDescription": ""}}`, "toolDescription"},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequestTool", "typeVersion": 4.2, "disabled": true, "parameters": {}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.httpRequestTool", "typeVersion": 2, "parameters": {}}`, ""}, // v2 is not usable as a tool
		{`{"name": "A", "type": "n8n-nodes-base.googleCalendarTool", "typeVersion": 1.3, "parameters": {"operation": "getAll"}}`, "calendar"},
		{`{"name": "A", "type": "n8n-nodes-base.googleCalendarTool", "typeVersion": 1.3, "parameters": {"operation": "getAll", "calendar": {"__rl": true, "mode": "id", "value": "me@x.io"}, "toolDescription": ""}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.googleCalendarTool", "typeVersion": 1.3, "parameters": {"descriptionType": "manual", "operation": "getAll", "calendar": {"__rl": true, "mode": "id", "value": "me@x.io"}, "toolDescription": ""}}`, "toolDescription"},
		{`{"name": "A", "type": "n8n-nodes-base.slackHitlTool", "typeVersion": 2.3, "parameters": {}}`, ""}, // a HITL tool is rewritten otherwise
		{`{"name": "A", "type": "n8n-nodes-base.formTrigger", "typeVersion": 2.2, "parameters": {"formTitle": "Sign up"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.formTrigger", "typeVersion": 2.2, "parameters": {"formTitle": ""}}`, "formTitle"},
		// Resource locators: missing when the value is "" (type-guards.js
		// isValidResourceLocatorParameterValue), whatever the mode.
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"operation": "list", "table": "T"}}`, "application"},
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"application": {"__rl": true, "mode": "id", "value": ""}, "table": "T"}}`, "application"},
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"application": "", "table": "T"}}`, "application"},
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"operation": "list", "application": {"__rl": true, "mode": "url", "value": "https://airtable.com/app1/tbl2"}, "table": {"__rl": true, "mode": "id", "value": "tbl2"}}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"operation": "list", "application": "app1", "table": "={{ $json.t }}"}}`, ""},
		// Read (the default operation) asks for the record's Id.
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"application": "app1", "table": "T"}}`, "id"},
		// Google Sheets' Document, shown for resource "sheet" (the
		// default), and another of that name for the spreadsheet
		// resource's delete: never shown together, so an absent one is
		// empty (the v1 export's sheetId is not read by v4).
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"operation": "append", "documentId": {"__rl": true, "mode": "list", "value": ""}}}`, "documentId"},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"resource": "sheet", "documentId": {"__rl": true, "mode": "url", "value": ""}}}`, "documentId"},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"operation": "append", "sheetId": "1abc", "range": "A:E"}}`, "documentId"},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"resource": "spreadsheet", "operation": "deleteSpreadsheet", "documentId": {"__rl": true, "mode": "list", "value": ""}}}`, "documentId"},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"resource": "spreadsheet", "operation": "create", "title": "T"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"resource": "={{ $json.r }}", "documentId": {"__rl": true, "mode": "list", "value": ""}}}`, ""},
		// The Sheet, shown at read (the default operation) and the writes.
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"documentId": {"__rl": true, "mode": "id", "value": "1abc"}}}`, "sheetName"},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"documentId": {"__rl": true, "mode": "id", "value": "1abc"}, "sheetName": {"__rl": true, "mode": "list", "value": "gid=0"}}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"operation": "={{ $json.op }}", "documentId": {"__rl": true, "mode": "id", "value": "1abc"}}}`, ""},
		// Slack v2: a message post asks for Send Message To (select, no
		// default), then the channel when select is "channel".
		{`{"name": "A", "type": "n8n-nodes-base.slack", "typeVersion": 2.3, "parameters": {"text": "hi", "otherOptions": {}}}`, "select"},
		{`{"name": "A", "type": "n8n-nodes-base.slack", "typeVersion": 2.3, "parameters": {"select": "channel", "channelId": {"__rl": true, "mode": "list", "value": ""}, "text": "hi"}}`, "channelId"},
		{`{"name": "A", "type": "n8n-nodes-base.slack", "typeVersion": 2.3, "parameters": {"select": "user", "user": {"__rl": true, "mode": "username", "value": "ann"}, "text": "hi"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.slack", "typeVersion": 2.3, "parameters": {"select": "={{ $json.to }}", "channelId": {"__rl": true, "mode": "list", "value": ""}, "text": "hi"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.slack", "typeVersion": 2.3, "parameters": {"resource": "channel", "operation": "create", "channelId": "alerts"}}`, ""},
		// Pushbullet: a note push (the default) asks for its title and body.
		{`{"name": "A", "type": "n8n-nodes-base.pushbullet", "typeVersion": 1, "parameters": {}}`, "title"},
		{`{"name": "A", "type": "n8n-nodes-base.pushbullet", "typeVersion": 1, "parameters": {"title": "T", "body": ""}}`, "body"},
		{`{"name": "A", "type": "n8n-nodes-base.pushbullet", "typeVersion": 1, "parameters": {"type": "file", "body": "see file"}}`, ""},
		// A hide condition: the Pushbullet target value is hidden at the
		// default target.
		{`{"name": "A", "type": "n8n-nodes-base.pushbullet", "typeVersion": 1, "parameters": {"title": "T", "body": "B", "target": "email"}}`, "value"},
		{`{"name": "A", "type": "n8n-nodes-base.pushbullet", "typeVersion": 1, "parameters": {"title": "T", "body": "B"}}`, ""},
	} {
		f := Parse(NewSource("w.json", []byte(`{"nodes": [`+c.node+`], "connections": {}}`)))
		got, _ := MissingRequired(f.Workflows[0].Nodes[0])
		if got != c.want {
			t.Errorf("%s: MissingRequired = %q, want %q", c.node, got, c.want)
		}
	}
}

// TestRequiredList pins a required multiOptions (Gmail's labelIds at
// addLabels, default []): n8n finds it missing when its list is empty
// (node-helpers.js addToIssuesIfMissing). A run's check reads the
// parameters with defaults filled in (workflow.js L86), so an absent one
// is missing; the publish check reads the stored ones, where an absent
// list, or one shown only by a resource left at its default, is not
// (PublishMissing). Read with n8n's own getNodeParameters and
// getNodeParametersIssues on the Gmail v2.1 description.
func TestRequiredList(t *testing.T) {
	for _, c := range []struct {
		params       string
		run, publish string
	}{
		{`{"operation": "addLabels", "messageId": "={{ $json.id }}"}`, "labelIds", ""},
		{`{"operation": "addLabels", "messageId": "={{ $json.id }}", "labelIds": []}`, "labelIds", ""},
		{`{"resource": "message", "operation": "addLabels", "messageId": "x", "labelIds": []}`, "labelIds", "labelIds"},
		{`{"resource": "message", "operation": "addLabels", "messageId": "x"}`, "labelIds", ""},
		{`{"operation": "addLabels", "messageId": "x", "labelIds": ["Label_1"]}`, "", ""},
		{`{"operation": "addLabels", "messageId": "x", "labelIds": "={{ $json.labels }}"}`, "", ""},
		{`{"resource": "thread", "operation": "removeLabels", "threadId": "x"}`, "labelIds", ""},
		{`{"resource": "message", "operation": "send", "sendTo": "a@b.io", "subject": "s", "message": "m"}`, "", ""},
	} {
		f := Parse(NewSource("w.json", []byte(`{"nodes": [{"name": "A", "type": "n8n-nodes-base.gmail", "typeVersion": 2.1, "parameters": `+c.params+`}], "connections": {}}`)))
		n := f.Workflows[0].Nodes[0]
		if got, _ := MissingRequired(n); got != c.run {
			t.Errorf("%s: MissingRequired = %q, want %q", c.params, got, c.run)
		}
		if got, _ := PublishMissing(n, false); got != c.publish {
			t.Errorf("%s: PublishMissing = %q, want %q", c.params, got, c.publish)
		}
	}
}
