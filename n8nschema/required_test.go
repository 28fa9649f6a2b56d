package n8nschema

import "testing"

// TestMissingRequired pins which empty parameters n8n finds missing
// whatever the node's other values (node-helpers.js getParameterIssues).
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
		{`{"name": "A", "type": "n8n-nodes-base.formTrigger", "typeVersion": 2.2, "parameters": {"formTitle": "Sign up"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.formTrigger", "typeVersion": 2.2, "parameters": {"formTitle": ""}}`, "formTitle"},
		// Resource locators: missing when the value is "" (type-guards.js
		// isValidResourceLocatorParameterValue), whatever the mode.
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"operation": "list", "table": "T"}}`, "application"},
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"application": {"__rl": true, "mode": "id", "value": ""}, "table": "T"}}`, "application"},
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"application": "", "table": "T"}}`, "application"},
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"application": {"__rl": true, "mode": "url", "value": "https://airtable.com/app1/tbl2"}, "table": {"__rl": true, "mode": "id", "value": "tbl2"}}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.airtable", "typeVersion": 1, "parameters": {"application": "app1", "table": "={{ $json.t }}"}}`, ""},
		// Google Sheets' Document, shown for resource "sheet" (the
		// default) and shared with the spreadsheet resource: only a stored
		// empty value is judged, at that resource.
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"operation": "append", "documentId": {"__rl": true, "mode": "list", "value": ""}}}`, "documentId"},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"resource": "sheet", "documentId": {"__rl": true, "mode": "url", "value": ""}}}`, "documentId"},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"operation": "append"}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"resource": "spreadsheet", "operation": "deleteSpreadsheet", "documentId": {"__rl": true, "mode": "list", "value": ""}}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"resource": "={{ $json.r }}", "documentId": {"__rl": true, "mode": "list", "value": ""}}}`, ""},
		{`{"name": "A", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "parameters": {"documentId": {"__rl": true, "mode": "id", "value": "1abc"}}}`, ""},
	} {
		f := Parse(NewSource("w.json", []byte(`{"nodes": [`+c.node+`], "connections": {}}`)))
		got, _ := MissingRequired(f.Workflows[0].Nodes[0])
		if got != c.want {
			t.Errorf("%s: MissingRequired = %q, want %q", c.node, got, c.want)
		}
	}
}
