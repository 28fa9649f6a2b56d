package analyze

import (
	"strings"
	"testing"
)

// TestBehindBlank: a node every run reaches only past a read of a
// template's blank sheet is behind it; one another path reaches, or one
// behind a blank read that continues on failure, is not.
func TestBehindBlank(t *testing.T) {
	read := func(name, onError string) string {
		return `{"name":"` + name + `","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,` + onError + `"parameters":{"documentId":{"__rl":true,"mode":"id","value":"YOUR_SPREADSHEET_ID"},"sheetName":{"__rl":true,"mode":"list","value":"gid=0"}}}`
	}
	s := buildJSON(t, `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},
	  `+read("Blank read", "")+`,
	  `+read("Blank read, continues", `"onError":"continueRegularOutput",`)+`,
	  {"name":"Behind","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Also fed","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Past the continuing one","type":"n8n-nodes-base.noOp","typeVersion":1}],
	 "connections":{
	  "Start":{"main":[[{"node":"Blank read","type":"main","index":0},{"node":"Also fed","type":"main","index":0},{"node":"Blank read, continues","type":"main","index":0}]]},
	  "Blank read":{"main":[[{"node":"Behind","type":"main","index":0},{"node":"Also fed","type":"main","index":0}]]},
	  "Blank read, continues":{"main":[[{"node":"Past the continuing one","type":"main","index":0}]]}}}`)
	g := s.Graph(s.Workflows[0])
	for name, want := range map[string]bool{"Behind": true, "Also fed": false, "Past the continuing one": false, "Blank read": false, "Start": false} {
		b, fill, ok := g.BehindBlank(g.Node(name))
		if ok != want {
			t.Errorf("%s: behind a blank %v, want %v", name, ok, want)
		}
		if ok && (b.Name != "Blank read" || !strings.Contains(fill, `"documentId"`)) {
			t.Errorf("%s: behind %q (%s), want Blank read's documentId", name, b.Name, fill)
		}
	}
}
