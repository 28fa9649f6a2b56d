package analyze

import (
	"strings"
	"testing"
)

// TestBehindBlank: a node every run reaches only past a read of a
// template's blank sheet, or past a call whose key a config Set node
// leaves empty, is behind it; one another path reaches, or one behind a
// blank call that continues on failure or never errs, is not.
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
	  {"name":"Past the continuing one","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Keyed call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.apollo.io/v1/people","sendHeaders":true,"headerParameters":{"parameters":[{"name":"X-Api-Key","value":"={{ $('Config').item.json.key }}"}]}}},
	  {"name":"Keyed call, never erring","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.apollo.io/v1/people","sendHeaders":true,"headerParameters":{"parameters":[{"name":"X-Api-Key","value":"={{ $('Config').item.json.key }}"}]},"options":{"response":{"response":{"neverError":true}}}}},
	  {"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"key","value":"","type":"string"}]}}},
	  {"name":"Past the key","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Past the key that never errs","type":"n8n-nodes-base.noOp","typeVersion":1}],
	 "connections":{
	  "Start":{"main":[[{"node":"Blank read","type":"main","index":0},{"node":"Also fed","type":"main","index":0},{"node":"Blank read, continues","type":"main","index":0},{"node":"Config","type":"main","index":0}]]},
	  "Blank read":{"main":[[{"node":"Behind","type":"main","index":0},{"node":"Also fed","type":"main","index":0}]]},
	  "Blank read, continues":{"main":[[{"node":"Past the continuing one","type":"main","index":0}]]},
	  "Config":{"main":[[{"node":"Keyed call","type":"main","index":0},{"node":"Keyed call, never erring","type":"main","index":0}]]},
	  "Keyed call":{"main":[[{"node":"Past the key","type":"main","index":0}]]},
	  "Keyed call, never erring":{"main":[[{"node":"Past the key that never errs","type":"main","index":0}]]}}}`)
	g := s.Graph(s.Workflows[0])
	for name, want := range map[string]string{"Behind": `"documentId"`, "Also fed": "", "Past the continuing one": "", "Blank read": `"documentId"`, "Start": "",
		"Past the key": `header "X-Api-Key"`, "Past the key that never errs": ""} {
		b, ok := g.BehindBlank(g.Node(name))
		fill := b.Fill
		if ok != (want != "") || ok && !strings.Contains(fill, want) {
			t.Errorf("%s: behind a blank %v (%s), want %q", name, ok, fill, want)
		}
	}
}
