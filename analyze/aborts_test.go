package analyze

import (
	"strconv"
	"testing"
)

// TestAborting: nothing runs after a node with a main connection to a
// missing node, nor on a sibling its parent runs after it: lower on the
// canvas under executionOrder v1 (same height is left alone), listed
// after it in the legacy order.
func TestAborting(t *testing.T) {
	for _, c := range []struct {
		name, order string
		y           [3]int // heights of Broken, Same and Low
		listed      bool   // Broken listed last on Start's output
		want        [4]bool
	}{
		{"v1", `"v1"`, [3]int{0, 0, 200}, false, [4]bool{true, false, true, false}},
		{"v1, broken lowest", `"v1"`, [3]int{400, 0, 200}, false, [4]bool{true, false, true, true}},
		{"legacy, broken first", `"v0"`, [3]int{400, 0, 200}, false, [4]bool{true, false, false, false}},
		{"legacy, broken last", `"v0"`, [3]int{0, 0, 200}, true, [4]bool{true, false, true, true}},
	} {
		conn := `{"node":"Broken","type":"main","index":0},{"node":"Same","type":"main","index":0},{"node":"Low","type":"main","index":0}`
		if c.listed {
			conn = `{"node":"Same","type":"main","index":0},{"node":"Low","type":"main","index":0},{"node":"Broken","type":"main","index":0}`
		}
		js := `{"name":"w","settings":{"executionOrder":` + c.order + `},"nodes":[
		  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{},"position":[0,0]},
		  {"name":"Broken","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[200,` + strconv.Itoa(c.y[0]) + `]},
		  {"name":"After","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,0],"onError":"continueErrorOutput"},
		  {"name":"Same","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[200,` + strconv.Itoa(c.y[1]) + `]},
		  {"name":"Low","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[200,` + strconv.Itoa(c.y[2]) + `]}],
		 "connections":{"Start":{"main":[[` + conn + `]]},
		  "Broken":{"main":[[{"node":"After","type":"main","index":0},{"node":"Gone","type":"main","index":0}]]}}}`
		s := buildJSON(t, js)
		g := s.Graph(s.Workflows[0])
		var got [4]bool
		for i, n := range []string{"Broken", "After", "Same", "Low"} {
			got[i] = g.Reachable(g.Node(n))
		}
		if got != c.want {
			t.Errorf("%s: Broken, After, Same, Low reachable = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFailStops: under executionOrder v1 a run stops at a child that fails
// on every item, so the siblings v1 runs after it (lower, or right of it
// on the same row) never run; those it runs first do. A child that
// continues on error, and the legacy order, cut nothing.
func TestFailStops(t *testing.T) {
	for _, c := range []struct {
		name, order, onError string
		x, y                 int     // Refused's place
		want                 [3]bool // Left, Right, Low in RunReach
	}{
		{"v1, left", `"v1"`, "", 200, 0, [3]bool{false, false, false}},
		{"v1, middle", `"v1"`, "", 300, 0, [3]bool{true, false, false}},
		{"v1, lowest", `"v1"`, "", 200, 400, [3]bool{true, true, true}},
		{"v1, continues", `"v1"`, "continueErrorOutput", 200, 0, [3]bool{true, true, true}},
		{"legacy", `"v0"`, "", 200, 0, [3]bool{true, true, true}},
	} {
		onError := ""
		if c.onError != "" {
			onError = `,"onError":"` + c.onError + `"`
		}
		js := `{"name":"w","settings":{"executionOrder":` + c.order + `},"nodes":[
		  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{},"position":[0,0]},
		  {"name":"Refused","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"gpt-4","prompt":"=x {{ $json.a }}","options":{"maxTokens":10}},"position":[` + strconv.Itoa(c.x) + `,` + strconv.Itoa(c.y) + `]` + onError + `},
		  {"name":"Left","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[250,0]},
		  {"name":"Right","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,0]},
		  {"name":"Low","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[200,200]}],
		 "connections":{"Start":{"main":[[{"node":"Left","type":"main","index":0},{"node":"Refused","type":"main","index":0},{"node":"Right","type":"main","index":0},{"node":"Low","type":"main","index":0}]]}}}`
		s := buildJSON(t, js)
		g := s.Graph(s.Workflows[0])
		reach := RunReach(g, g.Node("Start"))
		var got [3]bool
		for i, n := range []string{"Left", "Right", "Low"} {
			got[i] = reach.Has(g.Node(n))
		}
		if got != c.want {
			t.Errorf("%s: Left, Right, Low run = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestBehindFrom: past a node that fails on every item (and past the
// siblings v1 runs after it) the walk goes on, naming that node; a Stop
// and Error still ends it, and what LiveFrom reaches is not behind.
func TestBehindFrom(t *testing.T) {
	js := `{"name":"w","settings":{"executionOrder":"v1"},"nodes":[
	  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{},"position":[0,0]},
	  {"name":"Refused","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"gpt-4","prompt":"=x {{ $json.a }}","options":{"maxTokens":10}},"position":[200,0]},
	  {"name":"After","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,0]},
	  {"name":"Sibling","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[300,0]},
	  {"name":"Live","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[100,-200]},
	  {"name":"Stop","type":"n8n-nodes-base.stopAndError","typeVersion":1,"parameters":{"errorMessage":"no"},"position":[500,0]},
	  {"name":"Past stop","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[600,0]}],
	 "connections":{
	  "Start":{"main":[[{"node":"Refused","type":"main","index":0},{"node":"Sibling","type":"main","index":0},{"node":"Live","type":"main","index":0}]]},
	  "Refused":{"main":[[{"node":"After","type":"main","index":0}]]},
	  "After":{"main":[[{"node":"Stop","type":"main","index":0}]]},
	  "Stop":{"main":[[{"node":"Past stop","type":"main","index":0}]]}}}`
	s := buildJSON(t, js)
	g := s.Graph(s.Workflows[0])
	behind := BehindFrom(g, g.Node("Start"))
	for name, want := range map[string]string{"After": "Refused", "Sibling": "Refused", "Stop": "Refused", "Live": "", "Past stop": "", "Refused": ""} {
		got := ""
		if b := behind[g.Node(name)]; b != nil {
			got = b.Name
		}
		if got != want {
			t.Errorf("%s: behind %q, want %q", name, got, want)
		}
	}
}
