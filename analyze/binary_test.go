package analyze

import (
	"fmt"
	"strings"
	"testing"
)

// TestMissingBinary: the key a Form Trigger stores an upload under, by
// version and field, against the name a reader asks for.
func TestMissingBinary(t *testing.T) {
	for _, tc := range []struct {
		ver   float64
		field string // the file field's JSON
		read  string
		fails bool
	}{
		{2.1, `{"fieldLabel": "Bank statement (CSV)", "fieldType": "file"}`, "Bank statement (CSV)", true},
		{2.1, `{"fieldLabel": "Bank statement (CSV)", "fieldType": "file"}`, "Bank_statement__CSV_", false},
		{2.1, `{"fieldLabel": "Bank statement (CSV)", "fieldType": "file"}`, "Bank_statement__CSV__1", false},
		{2.1, `{"fieldLabel": "Bank statement (CSV)", "fieldType": "file"}`, "Bank_statement__CSV__x", true},
		{2.2, `{"fieldLabel": "明細", "fieldType": "file"}`, "__", false},
		{2.2, `{"fieldLabel": "明細", "fieldType": "file"}`, "明細", true},
		{2.3, `{"fieldLabel": "Doc", "fieldName": "doc", "fieldType": "file"}`, "doc", true}, // below 2.4 the label
		{2.4, `{"fieldLabel": "Doc", "fieldName": "doc", "fieldType": "file"}`, "doc", false},
		{2.4, `{"fieldLabel": "Doc", "fieldName": "doc", "fieldType": "file"}`, "Doc", true},
		{2.4, `{"fieldLabel": "My doc", "fieldType": "file"}`, "My_doc", false}, // no fieldName: the label
		{2.2, `{"fieldLabel": "={{ 'x' }}", "fieldType": "file"}`, "x y", false},
		{2.2, `{"fieldLabel": "Doc", "fieldType": "={{ 'file' }}"}`, "x y", false},
		{2.2, `{"fieldLabel": "Name"}`, "data", true}, // no file field: no binaries at all
	} {
		src := fmt.Sprintf(`{"nodes": [
  {"name": "Form", "type": "n8n-nodes-base.formTrigger", "typeVersion": %v, "position": [0, 0], "parameters": {"formFields": {"values": [%s]}}},
  {"name": "Read", "type": "n8n-nodes-base.extractFromFile", "typeVersion": 1, "position": [200, 0], "parameters": {"binaryPropertyName": %q}}],
 "connections": {"Form": {"main": [[{"node": "Read", "type": "main", "index": 0}]]}}}`, tc.ver, tc.field, tc.read)
		g := BuildGraph(parseOne(t, src))
		why, ok := g.missingBinary(1)
		if ok != tc.fails {
			t.Errorf("v%v %s read %q: fails %v (%s), want %v", tc.ver, tc.field, tc.read, ok, why, tc.fails)
		}
		if ok && !strings.Contains(why, "binary") {
			t.Errorf("why %q", why)
		}
	}
}
