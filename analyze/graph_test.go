package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func names(ns []*n8nschema.Node) []string {
	out := []string{}
	for _, n := range ns {
		out = append(out, n.Name)
	}
	return out
}

func TestGraphShapes(t *testing.T) {
	s := load(t, DefaultOptions(), "graph_shapes.json")
	g := s.Graph(s.Workflows[0])
	if len(g.Nodes) != 11 || g.Node("Note") != nil {
		t.Errorf("%d nodes (sticky %v), want 11 without the sticky note", len(g.Nodes), g.Node("Note"))
	}
	// Switch v3 with two rules and an extra fallback output: the error output is index 3.
	errs := g.ErrorOutputs(g.Node("Route"))
	if len(errs) != 1 || errs[0].To.Name != "Oops" || errs[0].Output != 3 {
		t.Errorf("error outputs of Route = %+v, want one to Oops at 3", errs)
	}
	checks := []struct {
		name                         string
		reach, errPath, sub, trigger bool
	}{
		{"Hook", true, false, false, true},
		{"A", true, false, false, false},
		{"Oops", true, true, false, false},
		{"Fix model", true, false, true, false},
		{"Sheet tool", true, false, true, false},
		{"Orphan", false, false, false, false},
	}
	for _, c := range checks {
		n := g.Node(c.name)
		got := [4]bool{g.Reachable(n), g.OnErrorPath(n), g.IsSubNode(n), g.Spec(n).Role == n8nschema.RoleTrigger}
		if want := [4]bool{c.reach, c.errPath, c.sub, c.trigger}; got != want {
			t.Errorf("%s: reachable, error path, sub-node, trigger = %v, want %v", c.name, got, want)
		}
	}
	if diff := cmp.Diff([]string{"Parser", "Chat model", "Sheet tool"}, names(g.SubNodes(g.Node("Agent"), ""))); diff != "" {
		t.Errorf("sub-nodes of Agent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Sheet tool"}, names(g.SubNodes(g.Node("Agent"), ConnTool))); diff != "" {
		t.Errorf("tools of Agent (-want +got):\n%s", diff)
	}
	if r := g.Root(g.Node("Fix model")); r == nil || r.Name != "Parser" {
		t.Errorf("root of Fix model = %v, want Parser", r)
	}
	if diff := cmp.Diff([]string{"Hook"}, names(g.Triggers())); diff != "" {
		t.Errorf("triggers (-want +got):\n%s", diff)
	}
	// The model behind the autofixing parser runs once per parse (the parser
	// is no agent); the Sheets tool honours retryOnFail through the main loop
	// under Agent V3, where maxTries 0 means 3, and runs up to 10 times.
	if o := op(t, s, "Shapes", "Fix model"); o.Attempts != 1 || o.CallsPerItem != 1 {
		t.Errorf("Fix model: attempts %d calls %d, want 1 1", o.Attempts, o.CallsPerItem)
	}
	if o := op(t, s, "Shapes", "Sheet tool"); o.Attempts != 3 || o.CallsPerItem != 10 || o.Dependency != "google-sheets" {
		t.Errorf("Sheet tool: attempts %d calls %d dependency %q, want 3 10 google-sheets", o.Attempts, o.CallsPerItem, o.Dependency)
	}
	if o := op(t, s, "Shapes", "Oops"); !o.ErrorPath {
		t.Errorf("Oops is not on the error path")
	}
}

func TestWebhookKeysAndRefs(t *testing.T) {
	src := `[{"id":"w1","name":"Hooks","nodes":[
	  {"name":"Dyn","type":"n8n-nodes-base.webhook","webhookId":"abc","parameters":{"path":"/orders/:id/"}},
	  {"name":"Empty","type":"n8n-nodes-base.webhook","webhookId":"def","parameters":{}},
	  {"name":"Legacy","type":"n8n-nodes-base.webhook","parameters":{"path":"x/:y"}},
	  {"name":"Call dyn","type":"n8n-nodes-base.httpRequest","parameters":{"url":"http://localhost:5678/webhook/abc/orders/:id?x=1"}},
	  {"name":"Call empty","type":"n8n-nodes-base.httpRequest","parameters":{"url":"={{ $env.WEBHOOK_URL }}/webhook-test/def"}},
	  {"name":"Call legacy","type":"n8n-nodes-base.httpRequest","parameters":{"url":"http://127.0.0.1/webhook/w1/legacy/x/:y"}}
	],"connections":{}},
	{"id":"w2","name":"Caller","nodes":[
	  {"name":"By list","type":"n8n-nodes-base.executeWorkflow","typeVersion":1.2,"parameters":{"workflowId":{"__rl":true,"value":"w1","mode":"list"}}},
	  {"name":"By plain","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"parameters":{"workflowId":"w1"}},
	  {"name":"By literal expr","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"parameters":{"workflowId":"=w1"}},
	  {"name":"Self bracket","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"parameters":{"workflowId":"={{ $workflow[\"id\"] }}"}},
	  {"name":"Inline","type":"n8n-nodes-base.executeWorkflow","typeVersion":1.2,"parameters":{"source":"parameter","workflowJson":"{}"}},
	  {"name":"Tool v1","type":"@n8n/n8n-nodes-langchain.toolWorkflow","typeVersion":1.3,"parameters":{"workflowId":"w1"}},
	  {"name":"Activate","type":"n8n-nodes-base.n8n","parameters":{"operation":"activate","workflowId":{"__rl":true,"value":"w2","mode":"id"}}},
	  {"name":"List","type":"n8n-nodes-base.n8n","parameters":{}}
	],"connections":{}}]`
	f := n8nschema.Parse(n8nschema.NewSource("h.json", []byte(src)))
	s := Build([]*n8nschema.File{f}, DefaultOptions())
	var got []string
	for _, c := range s.Calls {
		to := "-"
		if c.To != nil {
			to = c.To.ID
			if len(c.Entry) > 0 {
				to += ":" + c.Entry[0].Name
			}
		}
		got = append(got, c.Node.Name+" "+c.Kind.String()+" "+to)
	}
	want := []string{
		"Call dyn webhook w1:Dyn",
		"Call empty webhook w1:Empty",
		"Call legacy webhook w1:Legacy",
		"By list execute-workflow w1",
		"By plain execute-workflow w1",
		"By literal expr execute-workflow w1",
		"Self bracket execute-workflow w2",
		"Inline execute-workflow -",
		"Tool v1 workflow-tool w1",
		"Activate n8n-api w2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls mismatch (-want +got):\n%s", diff)
	}
}

func TestIsGuard(t *testing.T) {
	src := `{"nodes":[
	  {"name":"runIndex","type":"n8n-nodes-base.if","parameters":{"conditions":{"number":[{"value1":"={{$runIndex}}","value2":3}]}}},
	  {"name":"attempts","type":"n8n-nodes-base.if","parameters":{"conditions":{"conditions":[{"leftValue":"={{ $json.attempt }}","rightValue":5}]}}},
	  {"name":"status","type":"n8n-nodes-base.if","parameters":{"conditions":{"conditions":[{"leftValue":"={{ $json.statusCode }}","rightValue":429}]}}},
	  {"name":"literal","type":"n8n-nodes-base.switch","parameters":{"rules":{"values":[{"outputKey":"retry count"}]}}},
	  {"name":"code","type":"n8n-nodes-base.code","parameters":{"jsCode":"if ($runIndex > 3) { throw new Error('too many'); }\nreturn $input.all();"}},
	  {"name":"code no throw","type":"n8n-nodes-base.code","parameters":{"jsCode":"return [{json: {run: $runIndex}}];"}},
	  {"name":"set","type":"n8n-nodes-base.set","parameters":{"value":"={{ $runIndex }}"}}
	],"connections":{}}`
	f := n8nschema.Parse(n8nschema.NewSource("g.json", []byte(src)))
	var got []string
	for _, n := range f.Workflows[0].Nodes {
		if IsGuard(n) {
			got = append(got, n.Name)
		}
	}
	if diff := cmp.Diff([]string{"runIndex", "attempts", "code"}, got); diff != "" {
		t.Errorf("guards mismatch (-want +got):\n%s", diff)
	}
}

// subNodeMesh is a workflow whose n tool sub-nodes are wired to each other
// and to one agent: every tool is a sub-node of every other.
func subNodeMesh(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"name":"mesh","nodes":[{"name":"Start","type":"n8n-nodes-base.manualTrigger","parameters":{}},` +
		`{"name":"Agent","type":"@n8n/n8n-nodes-langchain.agent","parameters":{"promptType":"define","text":"q"}},` +
		`{"name":"Lone","type":"@n8n/n8n-nodes-langchain.toolHttpRequest","parameters":{}},` +
		`{"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","parameters":{}}`)
	for i := range n {
		fmt.Fprintf(&b, `,{"name":"T%d","type":"@n8n/n8n-nodes-langchain.toolHttpRequest","parameters":{}}`, i)
	}
	b.WriteString(`],"connections":{"Start":{"main":[[{"node":"Agent","type":"main","index":0}]]},` +
		`"Model":{"ai_languageModel":[[{"node":"Agent","type":"ai_languageModel","index":0}]]}`)
	for i := range n {
		fmt.Fprintf(&b, `,"T%d":{"ai_tool":[[{"node":"Agent","type":"ai_tool","index":0}`, i)
		for j := range n {
			if j != i {
				fmt.Fprintf(&b, `,{"node":"T%d","type":"ai_tool","index":0}`, j)
			}
		}
		b.WriteString(`]]}`)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// TestSubNodeMeshFlags: tools wired to each other take their flags from
// their roots once per (node, level); the plain recursion was
// fan-out^8 (a 46 KB mesh of 30 tools hung the run). Reachability still
// flows from the agent through the mesh; the tool wired to nothing is
// unreachable. Kept at 6 tools so that a regression is slow, not a hang;
// BenchmarkSubNodeMesh measures 30.
func TestSubNodeMeshFlags(t *testing.T) {
	s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("mesh.json", subNodeMesh(6)))}, DefaultOptions())
	g := s.Graph(s.Workflows[0])
	for _, name := range []string{"Agent", "T0", "T5"} {
		if !g.Reachable(g.Node(name)) || g.OnErrorPath(g.Node(name)) {
			t.Errorf("%s: reachable %v, on error path %v; want reachable, not on the error path", name, g.Reachable(g.Node(name)), g.OnErrorPath(g.Node(name)))
		}
	}
	if g.Reachable(g.Node("Lone")) {
		t.Error("Lone is wired to nothing but is reachable")
	}
}

func BenchmarkSubNodeMesh(b *testing.B) {
	src := subNodeMesh(30)
	b.ReportAllocs()
	for b.Loop() {
		s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("mesh.json", src))}, DefaultOptions())
		s.Graph(s.Workflows[0])
	}
}

// A graph finds its nodes by their Index; nodes that share one (a workflow
// built by hand) are found all the same, through a map.
func TestGraphSharedIndexes(t *testing.T) {
	s := load(t, DefaultOptions(), "graph_shapes.json")
	w := s.Workflows[0]
	facts := func(g *Graph, n *n8nschema.Node) string {
		return fmt.Sprint(g.Has(n), len(g.Out(n)), len(g.In(n)), g.Reachable(n), g.OnErrorPath(n), g.InCycle(n), g.IsSubNode(n))
	}
	g := BuildGraph(w)
	var want []string
	for _, n := range w.Nodes {
		want = append(want, facts(g, n))
	}
	for _, n := range w.Nodes {
		n.Index = 0
	}
	g = BuildGraph(w)
	if g.idx == nil {
		t.Fatal("no map for nodes that share an Index")
	}
	for i, n := range w.Nodes {
		if got := facts(g, n); got != want[i] {
			t.Errorf("node %q: %s, want %s", n.Name, got, want[i])
		}
	}
	if g.Has(&n8nschema.Node{Name: "elsewhere"}) || g.Has(nil) {
		t.Error("a node of no graph is found")
	}
}

// TestNothingPassesARefusedCall: n8n stops the execution at a node whose
// call is refused on every item (n8nschema.RefusedCall with Fails), so
// what only its regular output reaches never runs; continueRegularOutput
// passes the error item on (so does the legacy continueOnFail, whatever
// onError says), continueErrorOutput sends it to the error output, and a
// disabled node passes its input through.
func TestNothingPassesARefusedCall(t *testing.T) {
	w := parseOne(t, `{"nodes": [
	 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 {"name": "Stops", "type": "n8n-nodes-base.openAi", "typeVersion": 1, "position": [0, 0], "parameters": {"model": "gpt-4o"}},
	 {"name": "After stops", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "Continues", "type": "n8n-nodes-base.openAi", "typeVersion": 1, "position": [0, 0], "parameters": {"model": "gpt-4o"}, "onError": "continueRegularOutput"},
	 {"name": "After continues", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "Errors out", "type": "@n8n/n8n-nodes-langchain.openAi", "typeVersion": 1.8, "position": [0, 0], "parameters": {"modelId": "gpt-4o"}, "onError": "continueErrorOutput"},
	 {"name": "On success", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "On error", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "Disabled", "type": "n8n-nodes-base.openAi", "typeVersion": 1, "position": [0, 0], "parameters": {"model": "gpt-4o"}, "disabled": true},
	 {"name": "After disabled", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "Legacy flag", "type": "n8n-nodes-base.openAi", "typeVersion": 1, "position": [0, 0], "parameters": {"model": "gpt-4o"}, "continueOnFail": true, "onError": "stopWorkflow"},
	 {"name": "After legacy flag", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "Answers", "type": "n8n-nodes-base.openAi", "typeVersion": 1, "position": [0, 0], "parameters": {"resource": "chat", "chatModel": "gpt-4o-mini"}},
	 {"name": "After answers", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
	 "connections": {
	  "S": {"main": [[{"node": "Stops", "type": "main", "index": 0}, {"node": "Continues", "type": "main", "index": 0}, {"node": "Errors out", "type": "main", "index": 0}, {"node": "Disabled", "type": "main", "index": 0}, {"node": "Legacy flag", "type": "main", "index": 0}, {"node": "Answers", "type": "main", "index": 0}]]},
	  "Legacy flag": {"main": [[{"node": "After legacy flag", "type": "main", "index": 0}]]},
	  "Stops": {"main": [[{"node": "After stops", "type": "main", "index": 0}]]},
	  "Continues": {"main": [[{"node": "After continues", "type": "main", "index": 0}]]},
	  "Errors out": {"main": [[{"node": "On success", "type": "main", "index": 0}], [{"node": "On error", "type": "main", "index": 0}]]},
	  "Disabled": {"main": [[{"node": "After disabled", "type": "main", "index": 0}]]},
	  "Answers": {"main": [[{"node": "After answers", "type": "main", "index": 0}]]}}}`)
	g := BuildGraph(w)
	for name, want := range map[string]bool{
		"Stops": true, "After stops": false, "Continues": true, "After continues": true,
		"Errors out": true, "On success": false, "On error": true, "After disabled": true, "After legacy flag": true, "After answers": true,
	} {
		if got := g.Reachable(g.Node(name)); got != want {
			t.Errorf("%s: reachable %v, want %v", name, got, want)
		}
	}
	if !g.OnErrorPath(g.Node("On error")) {
		t.Errorf("On error: not on the error path")
	}
}

// TestUnrunOutputs: a connection stored at an output the node does not
// have never carries an item (n8n-core workflow-execute.js follows an
// output only when the node's run returned items on it), so the graph
// leaves it out; where the count depends on what stormcheck cannot read
// (an unknown type, a count from an expression) the edge stays.
func TestUnrunOutputs(t *testing.T) {
	for _, c := range []struct {
		name, node string
		out        int
		reach, err bool // whether Next runs, and on an error output
	}{
		{"http main[1]", `{"name":"A","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://x.io"},"onError":"continueRegularOutput"}`, 1, false, false},
		{"http error output", `{"name":"A","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://x.io"},"onError":"continueErrorOutput"}`, 1, true, true},
		{"http past the error output", `{"name":"A","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://x.io"},"onError":"continueErrorOutput"}`, 2, false, false},
		{"if false", `{"name":"A","type":"n8n-nodes-base.if","typeVersion":2.2}`, 1, true, false},
		{"if main[2]", `{"name":"A","type":"n8n-nodes-base.if","typeVersion":2.2}`, 2, false, false},
		{"if error output", `{"name":"A","type":"n8n-nodes-base.if","typeVersion":2.2,"onError":"continueErrorOutput"}`, 2, true, true},
		{"stop and error main[0]", `{"name":"A","type":"n8n-nodes-base.stopAndError","typeVersion":1}`, 0, false, false},
		{"stop and error, error output", `{"name":"A","type":"n8n-nodes-base.stopAndError","typeVersion":1,"parameters":{"errorMessage":"boom"},"onError":"continueErrorOutput"}`, 0, true, true},
		{"switch past its rules", `{"name":"A","type":"n8n-nodes-base.switch","typeVersion":3.2,"parameters":{"rules":{"values":[{},{}]}}}`, 2, false, false},
		{"switch rules from an expression", `{"name":"A","type":"n8n-nodes-base.switch","typeVersion":3.2,"parameters":{"rules":{"values":"={{ $json.rules }}"}}}`, 5, true, false},
		{"switch outputs from an expression", `{"name":"A","type":"n8n-nodes-base.switch","typeVersion":3.2,"parameters":{"mode":"expression","numberOutputs":"={{ 6 }}"}}`, 5, true, false},
		{"sentiment third category", `{"name":"A","type":"@n8n/n8n-nodes-langchain.sentimentAnalysis","typeVersion":1.1,"parameters":{"inputText":"={{ $json.text }}"}}`, 2, true, false},
		{"sentiment past its categories", `{"name":"A","type":"@n8n/n8n-nodes-langchain.sentimentAnalysis","typeVersion":1.1,"parameters":{"options":{"categories":"Happy, Sad"}}}`, 2, false, false},
		{"classifier categories from an expression", `{"name":"A","type":"@n8n/n8n-nodes-langchain.textClassifier","typeVersion":1.1,"parameters":{"inputText":"={{ $json.text }}","categories":{"categories":"={{ $json.c }}"}}}`, 3, true, false},
		{"respond with response output", `{"name":"A","type":"n8n-nodes-base.respondToWebhook","typeVersion":1.4,"parameters":{"enableResponseOutput":true}}`, 1, true, false},
		// No typeVersion: $nodeVersion is undefined in the outputs
		// expression (RespondToWebhook/utils/outputs.js), so one output.
		{"respond without typeVersion", `{"name":"A","type":"n8n-nodes-base.respondToWebhook","parameters":{"enableResponseOutput":true}}`, 1, false, false},
		{"disabled if, true", `{"name":"A","type":"n8n-nodes-base.if","typeVersion":2.2,"disabled":true}`, 0, true, false},
		{"disabled if, false", `{"name":"A","type":"n8n-nodes-base.if","typeVersion":2.2,"disabled":true}`, 1, false, false},
		{"disabled node's error output", `{"name":"A","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://x.io"},"onError":"continueErrorOutput","disabled":true}`, 1, false, false},
		{"guardrails fail", `{"name":"A","type":"@n8n/n8n-nodes-langchain.guardrails","typeVersion":2,"parameters":{"text":"={{ $json.text }}"}}`, 1, true, false},
		{"guardrails sanitize has one output", `{"name":"A","type":"@n8n/n8n-nodes-langchain.guardrails","typeVersion":2,"parameters":{"operation":"sanitize"}}`, 1, false, false},
		{"community node", `{"name":"A","type":"n8n-nodes-community.thing","typeVersion":1}`, 3, true, false},
		{"vector store outputs by mode", `{"name":"A","type":"@n8n/n8n-nodes-langchain.vectorStoreInMemory","typeVersion":1.3}`, 1, true, false},
	} {
		js := `{"name":"w","nodes":[
		  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},` + c.node + `,
		  {"name":"Next","type":"n8n-nodes-base.noOp","typeVersion":1},
		  {"name":"M","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1}],
		 "connections":{"Start":{"main":[[{"node":"A","type":"main","index":0}]]},
		  "M":{"ai_languageModel":[[{"node":"A","type":"ai_languageModel","index":0}]]},
		  "A":{"main":[` + strings.Repeat("[],", c.out) + `[{"node":"Next","type":"main","index":0}]]}}}`
		s := buildJSON(t, js)
		g := s.Graph(s.Workflows[0])
		next := g.Node("Next")
		if got := [2]bool{g.Reachable(next), g.OnErrorPath(next)}; got != [2]bool{c.reach, c.err} {
			t.Errorf("%s: Next reachable, on error path = %v, want %v", c.name, got, [2]bool{c.reach, c.err})
		}
		if kept := len(g.In(next)) == 1; kept == (len(g.Unrun) == 1) || kept != c.reach {
			t.Errorf("%s: %d edges into Next, %d unrun", c.name, len(g.In(next)), len(g.Unrun))
		}
	}
}

// TestUnrunTargetIsNoStart: in a workflow with no trigger, a node wired
// only from an output its source lacks is not where a run starts.
func TestUnrunTargetIsNoStart(t *testing.T) {
	s := buildJSON(t, `{"name":"w","nodes":[
	  {"name":"A","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{}},
	  {"name":"Next","type":"n8n-nodes-base.noOp","typeVersion":1}],
	 "connections":{"A":{"main":[[],[{"node":"Next","type":"main","index":0}]]}}}`)
	g := s.Graph(s.Workflows[0])
	if !g.Reachable(g.Node("A")) || g.Reachable(g.Node("Next")) {
		t.Errorf("reachable A %v, Next %v; want true, false", g.Reachable(g.Node("A")), g.Reachable(g.Node("Next")))
	}
}

// TestUnloadable: a workflow holding a node of a type n8n does not ship
// (the Start node, which 2.0 removed) has no triggers and reaches nothing
// on 2.x, so no operation of it is live; n8n 1.x ships the Start node.
func TestUnloadable(t *testing.T) {
	src := `{"name": "W", "nodes": [
	  {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	  {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "x"}},
	  {"name": "Call", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [0, 0], "parameters": {"url": "https://api.acme.test/x"}}],
	  "connections": {"Hook": {"main": [[{"node": "Call", "type": "main", "index": 0}]]}}}`
	for _, c := range []struct {
		v          n8nschema.Version
		unloadable int
		triggers   int
		live       bool
	}{
		{n8nschema.Version{}, 1, 0, false},
		{n8nschema.Version{Major: 2, Minor: 8, Patch: 4}, 1, 0, false},
		{n8nschema.Version{Major: 1, Minor: 123, Patch: 81}, 0, 2, true},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))
		opts := DefaultOptions()
		opts.N8nVersion = c.v
		s := Build([]*n8nschema.File{f}, opts)
		w := s.Workflows[0]
		g := s.Graph(w)
		live := false
		for _, op := range s.OperationsOf(w) {
			live = live || op.Live
		}
		if len(g.Unloadable) != c.unloadable || len(g.Triggers()) != c.triggers || g.Reachable(w.Node("Call")) != c.live || live != c.live || (len(g.Loops) > 0) {
			t.Errorf("n8n %v: %d unloadable, %d triggers, Call reachable %v, a live operation %v; want %d, %d, %v, %v",
				c.v, len(g.Unloadable), len(g.Triggers()), g.Reachable(w.Node("Call")), live, c.unloadable, c.triggers, c.live, c.live)
		}
	}
}

// TestUnloadableTypeless: a node with no type, or a type that is no
// string, makes the workflow one n8n cannot build, disabled or not.
func TestUnloadableTypeless(t *testing.T) {
	for _, node := range []string{
		`{"parameters": {}, "position": [0, 0]}`,
		`{"name": "Lost", "type": "", "position": [0, 0]}`,
		`{"name": "Lost", "type": {"name": "n8n-nodes-base.set"}, "disabled": true}`,
		`{"name": "Lost", "type": 7}`,
	} {
		src := `{"name": "W", "nodes": [
		  {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "x"}},
		  {"name": "Call", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [0, 0], "parameters": {"url": "https://api.acme.test/x"}},
		  ` + node + `],
		  "connections": {"Hook": {"main": [[{"node": "Call", "type": "main", "index": 0}]]}}}`
		s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, DefaultOptions())
		w := s.Workflows[0]
		g := s.Graph(w)
		if len(g.Unloadable) != 1 || len(g.Triggers()) != 0 || g.Reachable(w.Node("Call")) {
			t.Errorf("%s: %d unloadable, %d triggers, Call reachable %v; want 1, 0, false", node, len(g.Unloadable), len(g.Triggers()), g.Reachable(w.Node("Call")))
		}
	}
}
