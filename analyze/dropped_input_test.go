package analyze

import (
	"strconv"
	"testing"
)

// droppedJoin is a schedule whose two lookups each pass a Set node that
// marks their items' source, both wired into node Build: the orders into
// input 0, the refunds into input 1, which a Code node lacks. keptMark is
// the source the orders' Set node writes.
func droppedJoin(code, mode, keptMark string) string {
	params := `{"jsCode":` + strconv.Quote(code)
	if mode != "" {
		params += `,"mode":"` + mode + `"`
	}
	params += `}`
	return `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},
	  {"name":"Get orders","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://shop.example.org/orders"}},
	  {"name":"Get refunds","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://shop.example.org/refunds"}},
	  {"name":"Mark orders","type":"n8n-nodes-base.set","typeVersion":2,"parameters":{"values":{"string":[{"name":"source","value":"` + keptMark + `"}]}}},
	  {"name":"Mark refunds","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"id":"1","name":"source","value":"refunds","type":"string"}]}}},
	  {"name":"Build","type":"n8n-nodes-base.code","typeVersion":2,"parameters":` + params + `}],
	 "connections":{"Start":{"main":[[{"node":"Get orders","type":"main","index":0},{"node":"Get refunds","type":"main","index":0}]]},
	  "Get orders":{"main":[[{"node":"Mark orders","type":"main","index":0}]]},
	  "Get refunds":{"main":[[{"node":"Mark refunds","type":"main","index":0}]]},
	  "Mark orders":{"main":[[{"node":"Build","type":"main","index":0}]]},
	  "Mark refunds":{"main":[[{"node":"Build","type":"main","index":1}]]}}}`
}

// TestDroppedInputThrow checks which code nodes fail on every run when a
// source they look up by its marker is wired into an input they lack.
func TestDroppedInputThrow(t *testing.T) {
	const find = "const refunds = $input.all().find(i => i.json.source === 'refunds');\n"
	for _, tc := range []struct {
		name, code, mode, kept string
		want                   bool
	}{
		{"throws when missing", find + "if (!refunds || !items.length) { throw new Error('Missing input data'); }\nreturn [];", "", "orders", true},
		{"reads the json", "const refunds = items.find(item => item.json.source === \"refunds\");\nconst total = refunds.json.total;\nreturn [{json: {total}}];", "", "orders", true},
		{"optional read", find + "const total = refunds?.json.total ?? 0;\nreturn [{json: {total}}];", "", "orders", false},
		{"ternary read", find + "const total = refunds ? refunds.json.total : 0;\nreturn [{json: {total}}];", "", "orders", false},
		{"returns first", find + "if (!refunds) { return []; }\nreturn [{json: {total: refunds.json.total}}];", "", "orders", false},
		{"throw needs both", find + "if (!refunds && !items.length) throw new Error('none');\nreturn [];", "", "orders", false},
		{"in a try", "try {\n" + find + "if (!refunds) throw new Error('x');\n} catch (e) {}\nreturn [];", "", "orders", false},
		{"kept input has the marker", find + "if (!refunds) throw new Error('Missing input data');\nreturn [];", "", "refunds", false},
		{"runs per item", find + "if (!refunds) throw new Error('Missing input data');\nreturn [];", "runOnceForEachItem", "orders", false},
		{"another marker", "const x = $input.all().find(i => i.json.source === 'orders');\nif (!x) throw new Error('no orders');\nreturn [];", "", "orders", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := buildJSON(t, droppedJoin(tc.code, tc.mode, tc.kept))
			g := s.Graph(s.Workflows[0])
			var got bool
			for _, e := range g.Unrun {
				if e.NoInput {
					_, got = g.DroppedInputThrow(e)
				}
			}
			if got != tc.want {
				t.Errorf("DroppedInputThrow = %v, want %v", got, tc.want)
			}
		})
	}
}
