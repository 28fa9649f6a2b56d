package analyze

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// load builds an analysis set from fixtures in testdata.
func load(t testing.TB, opts Options, names ...string) *Set {
	t.Helper()
	var files []*n8nschema.File
	for _, name := range names {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		f := n8nschema.Parse(n8nschema.NewSource(name, src))
		if len(f.Problems) > 0 {
			t.Fatalf("%s: %v", name, f.Problems)
		}
		for _, w := range f.Workflows {
			if len(w.Problems) > 0 {
				t.Fatalf("%s: %v", name, w.Problems)
			}
		}
		files = append(files, f)
	}
	return Build(files, opts)
}

func op(t *testing.T, s *Set, wf, node string) *Operation {
	t.Helper()
	for _, o := range s.Operations {
		if o.Workflow.Label() == wf && o.Node.Name == node {
			return o
		}
	}
	t.Fatalf("no operation %q in workflow %q", node, wf)
	return nil
}

// fac is a factor without its position, for comparisons.
type fac struct {
	Kind      string
	Value     int
	Unbounded bool
	Node, Via string
	Workflow  string
	Gate      string
}

func facs(fs []Factor) []fac {
	out := []fac{}
	for _, f := range fs {
		out = append(out, fac{f.Kind, f.Value, f.Unbounded, f.Node, f.Via, f.Workflow, f.Gate})
	}
	return out
}

func TestSubWorkflowHTTP(t *testing.T) {
	s := load(t, DefaultOptions(), "subworkflow_http.json")
	o := op(t, s, "Child", "Post order")
	if o.Attempts != 15 || o.Unbounded || o.CallsPerItem != 1 || !o.Write || o.Dependency != "api.shop.example" {
		t.Errorf("Post order: attempts %d unbounded %v calls %d write %v dependency %q; want 15 false 1 true api.shop.example",
			o.Attempts, o.Unbounded, o.CallsPerItem, o.Write, o.Dependency)
	}
	want := []fac{
		{Kind: KindCallerRetry, Value: 3, Node: "Call child", Workflow: "Parent"},
		{Kind: KindNodeRetry, Value: 5, Node: "Post order", Workflow: "Child"},
	}
	if diff := cmp.Diff(want, facs(o.Factors)); diff != "" {
		t.Errorf("factors mismatch (-want +got):\n%s", diff)
	}
	if len(s.Calls) != 1 || s.Calls[0].Kind != CallExecute || s.Calls[0].To.Name != "Child" || s.Calls[0].Cycle {
		t.Errorf("calls = %+v, want one resolved execute-workflow call without cycle", s.Calls)
	}
}

func TestAgentCaller(t *testing.T) {
	s := load(t, DefaultOptions(), "agent_caller.json")
	o := op(t, s, "Triage", "OpenAI Chat Model")
	// The agent has memory but no tool: its first answer is final, one
	// model call per item.
	// The chat model itself sends one request per try (n8n's failed-attempt
	// handler): caller × agent retries only.
	if o.Attempts != 9 || o.Unbounded || o.CallsPerItem != 1 || !o.Paid || o.Dependency != "openai" {
		t.Errorf("model: attempts %d unbounded %v calls %d paid %v dep %q; want 9 false 1 true openai",
			o.Attempts, o.Unbounded, o.CallsPerItem, o.Paid, o.Dependency)
	}
	want := []fac{
		{Kind: KindCallerRetry, Value: 3, Node: "Run triage agent", Workflow: "Intake"},
		{Kind: KindRootRetry, Value: 3, Node: "Triage agent", Workflow: "Triage"},
	}
	if diff := cmp.Diff(want, facs(o.Factors)); diff != "" {
		t.Errorf("factors mismatch (-want +got):\n%s", diff)
	}
	// The agent drives the model; it is not an operation itself, nor is memory.
	if got := len(s.Operations); got != 1 {
		t.Errorf("%d operations, want 1", got)
	}
	if c := s.Calls[0]; !c.Each {
		t.Errorf("call mode each not recorded")
	}
}

func TestSeedSelfTrigger(t *testing.T) {
	s := load(t, DefaultOptions(), "seed_self_webhook.json", "error_summary.json")
	w := "Nightly catalog enrichment"
	o := op(t, s, w, "OpenAI")
	if !o.Unbounded {
		t.Fatalf("OpenAI attempts %d, want unbounded", o.Attempts)
	}
	want := []fac{
		{Kind: KindSelfTrigger, Unbounded: true, Node: "Restart", Via: "Start enrichment", Workflow: w},
		{Kind: KindNodeRetry, Value: 5, Node: "OpenAI", Workflow: w},
	}
	if diff := cmp.Diff(want, facs(o.Factors)); diff != "" {
		t.Errorf("factors mismatch (-want +got):\n%s", diff)
	}
	if r := op(t, s, w, "Restart"); !r.Unbounded || !r.ErrorPath {
		t.Errorf("Restart: unbounded %v error path %v, want true true", r.Unbounded, r.ErrorPath)
	}
	// Save runs once per entry: leaving the cycle does not multiply.
	if sv := op(t, s, w, "Save"); sv.Unbounded || sv.Attempts != 1 || sv.ErrorPath {
		t.Errorf("Save: attempts %d unbounded %v error path %v, want 1 false false", sv.Attempts, sv.Unbounded, sv.ErrorPath)
	}
	var webhook, errwf *Call
	for _, c := range s.Calls {
		switch c.Kind {
		case CallWebhook:
			webhook = c
		case CallErrorWorkflow:
			errwf = c
		}
	}
	if webhook == nil || !webhook.Cycle || !webhook.Self || webhook.Node.Name != "Restart" || webhook.Entry[0].Name != "Start enrichment" {
		t.Errorf("webhook call = %+v, want a self cycle from Restart to Start enrichment", webhook)
	}
	if errwf == nil || errwf.To == nil || errwf.To.Name != "Summarise failures" || errwf.Cycle {
		t.Errorf("error workflow call = %+v, want resolved, no cycle", errwf)
	}
	// The error workflow's paid call runs once per failure, on the error path.
	g := op(t, s, "Summarise failures", "GPT")
	if g.Unbounded || g.Attempts != 1 || !g.ErrorPath || len(g.ErrorFor) != 1 || g.ErrorFor[0].ID != "seed1" {
		t.Errorf("GPT: attempts %d unbounded %v error path %v for %v; want 1 false true [seed1]", g.Attempts, g.Unbounded, g.ErrorPath, g.ErrorFor)
	}
	wantGPT := []fac{
		{Kind: KindErrorWorkflow, Value: 1, Node: "Error Trigger", Workflow: "Summarise failures"},
	}
	if diff := cmp.Diff(wantGPT, facs(g.Factors)); diff != "" {
		t.Errorf("GPT factors mismatch (-want +got):\n%s", diff)
	}
}

func TestSelfCalls(t *testing.T) {
	for _, tt := range []struct {
		file, wf string
		cycles   int
	}{
		{"self_call_id.json", "Recursive crawl", 1},
		{"self_call_expr.json", "Recursive crawl (expression)", 1},
		{"call_pair.json", "A", 2},
	} {
		s := load(t, DefaultOptions(), tt.file)
		n := 0
		for _, c := range s.Calls {
			if c.Cycle {
				n++
			}
			if c.To == nil {
				t.Errorf("%s: call from %q unresolved: %s", tt.file, c.Node.Name, c.Assumed)
			}
		}
		if n != tt.cycles {
			t.Errorf("%s: %d cycle calls, want %d", tt.file, n, tt.cycles)
		}
		o := s.Operations[0]
		if o.Workflow.Label() != tt.wf || !o.Unbounded || o.Factors[0].Kind != KindSelfTrigger {
			t.Errorf("%s: first operation %q in %q unbounded %v factors %v; want unbounded self-trigger in %q",
				tt.file, o.Node.Name, o.Workflow.Label(), o.Unbounded, facs(o.Factors), tt.wf)
		}
	}
}

func TestNoWaitCallerRetry(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "subworkflow_http.json"))
	if err != nil {
		t.Fatal(err)
	}
	src = []byte(strings.Replace(string(src), `"mode": "list", "cachedResultName": "Child"}`,
		`"mode": "list", "cachedResultName": "Child"}, "options": {"waitForSubWorkflow": false}`, 1))
	s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("nowait.json", src))}, DefaultOptions())
	if !s.Calls[0].NoWait {
		t.Fatalf("waitForSubWorkflow false not read")
	}
	if o := op(t, s, "Child", "Post order"); o.Attempts != 5 {
		t.Errorf("Post order: attempts %d, want 5 (a fire-and-forget caller does not retry the callee)", o.Attempts)
	}
}

func TestToolOwnBranchIsNoCycle(t *testing.T) {
	s := load(t, DefaultOptions(), "tool_self_branch.json")
	if len(s.Calls) != 1 || s.Calls[0].Kind != CallTool || !s.Calls[0].Self || s.Calls[0].Cycle {
		t.Fatalf("calls = %+v, want one self tool call without cycle", s.Calls)
	}
	w := "Agent with own tool branch"
	// Tool retries use maxTries ?? 3: 0 gives 2; the agent runs it up to 4 times per item.
	crm := op(t, s, w, "Search CRM")
	want := []fac{
		{Kind: KindToolRetry, Value: 2, Node: "Lookup tool", Workflow: w},
		{Kind: KindNodeRetry, Value: 2, Node: "Search CRM", Workflow: w},
	}
	if crm.Attempts != 4 || crm.Unbounded || crm.CallsPerItem != 4 {
		t.Errorf("Search CRM: attempts %d unbounded %v calls %d, want 4 false 4", crm.Attempts, crm.Unbounded, crm.CallsPerItem)
	}
	if diff := cmp.Diff(want, facs(crm.Factors)); diff != "" {
		t.Errorf("factors mismatch (-want +got):\n%s", diff)
	}
	// A chat model sends one request per try: n8n's failed-attempt handler
	// stops LangChain's retries at the first failure.
	if c := op(t, s, w, "Claude"); c.Attempts != 1 || c.CallsPerItem != 4 {
		t.Errorf("Claude: attempts %d calls %d, want 1 4", c.Attempts, c.CallsPerItem)
	}
}

func TestRetryLoops(t *testing.T) {
	s := load(t, DefaultOptions(), "retry_loop_429.json")
	g := s.Graph(s.Workflows[0])
	if len(g.Loops) != 1 || !g.Loops[0].Unbounded {
		t.Fatalf("loops = %+v, want one unbounded", g.Loops)
	}
	l := g.Loops[0]
	names := func(ns []*n8nschema.Node) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"Fetch", "Rate limited?", "Wait"}, names(l.Nodes)); diff != "" {
		t.Errorf("loop nodes (-want +got):\n%s", diff)
	}
	if l.Head.Name != "Fetch" || l.Back.Name != "Wait" || len(l.Calls) != 1 || l.Calls[0].Name != "Fetch" {
		t.Errorf("loop head %q back %q calls %v, want Fetch Wait [Fetch]", l.Head.Name, l.Back.Name, names(l.Calls))
	}
	o := op(t, s, "Poll until not rate limited", "Fetch")
	if diff := cmp.Diff([]fac{{Kind: KindLoop, Unbounded: true, Node: "Wait", Via: "Fetch", Workflow: "Poll until not rate limited"}}, facs(o.Factors)); diff != "" || !o.Unbounded {
		t.Errorf("Fetch unbounded %v factors (-want +got):\n%s", o.Unbounded, diff)
	}

	s = load(t, DefaultOptions(), "retry_loop_runindex.json")
	g = s.Graph(s.Workflows[0])
	if len(g.Loops) != 0 || !g.InCycle(g.Node("Fetch")) {
		t.Errorf("guarded loop: loops %+v in cycle %v, want none and true", g.Loops, g.InCycle(g.Node("Fetch")))
	}
	if o := s.Operations[0]; o.Unbounded || o.Attempts != 1 {
		t.Errorf("guarded Fetch: attempts %d unbounded %v, want 1 false", o.Attempts, o.Unbounded)
	}
}

func TestLoopOverItems(t *testing.T) {
	s := load(t, DefaultOptions(), "sib_done_back.json")
	g := s.Graph(s.Workflows[0])
	if len(g.Loops) != 1 || g.Loops[0].DoneBack == nil || g.Loops[0].DoneBack.Name != "Loop Over Items" || !g.Loops[0].Unbounded {
		t.Fatalf("loops = %+v, want the done-back loop", g.Loops)
	}
	if len(g.Loops[0].Nodes) != 1 {
		t.Errorf("done-back loop has %d nodes, want 1 (the loop output is bounded)", len(g.Loops[0].Nodes))
	}
	s = load(t, DefaultOptions(), "sib_ok.json")
	g = s.Graph(s.Workflows[0])
	if len(g.Loops) != 0 {
		t.Errorf("loops = %+v, want none", g.Loops)
	}
	if o := s.Operations[0]; o.Unbounded || o.Attempts != 3 || o.CallsPerItem != 1 {
		t.Errorf("Push item: attempts %d unbounded %v calls %d, want 3 false 1", o.Attempts, o.Unbounded, o.CallsPerItem)
	}
}

func TestRetryClamps(t *testing.T) {
	s := load(t, DefaultOptions(), "retry_clamps.json")
	w := s.Workflows[0]
	want := map[string]struct{ attempts, waitMS int }{
		"Tries 0":       {3, 1000},
		"Tries 1":       {2, 5000},
		"Tries 7":       {5, 250},
		"Tries missing": {3, 1000},
		"Tries 2.5":     {3, 1000},
		"No retry":      {1, 0},
	}
	for name, wt := range want {
		o := op(t, s, w.Label(), name)
		if o.Attempts != wt.attempts || RetryWaitMS(o.Node) != wt.waitMS {
			t.Errorf("%s: attempts %d wait %d ms, want %d %d", name, o.Attempts, RetryWaitMS(o.Node), wt.attempts, wt.waitMS)
		}
	}
	// retryOnFail on a model sub-node has no effect, and the model itself
	// sends one request per try: one attempt, no factor.
	m := op(t, s, w.Label(), "Model with retry")
	if diff := cmp.Diff([]fac{}, facs(m.Factors)); diff != "" || m.Attempts != 1 || m.CallsPerItem != 1 {
		t.Errorf("model attempts %d calls %d factors (-want +got):\n%s", m.Attempts, m.CallsPerItem, diff)
	}
}

func TestToolAttempts(t *testing.T) {
	src := `{"nodes":[
	  {"name":"a","type":"x","retryOnFail":true,"maxTries":0},
	  {"name":"b","type":"x","retryOnFail":true},
	  {"name":"c","type":"x","retryOnFail":true,"maxTries":9},
	  {"name":"d","type":"x","maxTries":4}],"connections":{}}`
	f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
	got := []int{}
	for _, n := range f.Workflows[0].Nodes {
		got = append(got, ToolAttempts(n), MainAttempts(n))
	}
	if diff := cmp.Diff([]int{2, 3, 3, 3, 5, 5, 1, 1}, got); diff != "" {
		t.Errorf("ToolAttempts/MainAttempts mismatch (-want +got):\n%s", diff)
	}
}

func TestErrorWorkflowCycle(t *testing.T) {
	s := load(t, DefaultOptions(), "error_cycle.json")
	n := 0
	for _, c := range s.Calls {
		if c.Kind == CallErrorWorkflow && c.Cycle {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d error-workflow calls on a cycle, want 2", n)
	}
	if o := op(t, s, "E1", "Page"); !o.Unbounded || !o.ErrorPath {
		t.Errorf("Page: unbounded %v error path %v, want true true", o.Unbounded, o.ErrorPath)
	}
}

func TestUnresolved(t *testing.T) {
	src := `{"id":"u1","name":"U","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.manualTrigger","parameters":{}},
	  {"name":"Call missing","type":"n8n-nodes-base.executeWorkflow","typeVersion":1.2,"parameters":{"workflowId":{"__rl":true,"value":"nope","mode":"list"}}},
	  {"name":"Call dynamic","type":"n8n-nodes-base.executeWorkflow","typeVersion":1.2,"parameters":{"workflowId":{"__rl":true,"value":"={{ $json.target }}","mode":"id"}}},
	  {"name":"Hit local","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"http://localhost:5678/webhook/other"}},
	  {"name":"Hit env","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"={{ $env.WEBHOOK_URL }}/webhook/{{ $json.path }}"}},
	  {"name":"Hit base","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://flows.acme.io/webhook/x"}},
	  {"name":"Other service","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.other.example/webhook/x"}}
	],"connections":{},"settings":{"errorWorkflow":"gone"}}`
	f := n8nschema.Parse(n8nschema.NewSource("u.json", []byte(src)))
	opts := DefaultOptions()
	opts.BaseURLs = []string{"https://flows.acme.io/"}
	s := Build([]*n8nschema.File{f}, opts)
	var got []string
	for _, c := range s.Calls {
		node := ""
		if c.Node != nil {
			node = c.Node.Name
		}
		got = append(got, c.Kind.String()+" "+node+" "+c.Assumed)
	}
	want := []string{
		`execute-workflow Call missing workflow "nope" is not in the analysis set; assumed it makes no external calls`,
		`execute-workflow Call dynamic its workflowId is an expression evaluated at run time; assumed it calls a workflow outside the set that makes no external calls`,
		`webhook Hit local no workflow in the analysis set serves webhook path "other"; assumed it starts a workflow outside the set that never calls back`,
		`webhook Hit env the webhook path is an expression evaluated at run time; assumed it starts a workflow outside the set that never calls back`,
		`webhook Hit base no workflow in the analysis set serves webhook path "x"; assumed it starts a workflow outside the set that never calls back`,
		`error-workflow  assumed its calls run once per failed execution and never re-start this workflow`,
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("calls mismatch (-want +got):\n%s", diff)
	}
}

// A self-trigger through Loop Over Items and a $runIndex guard is still
// unbounded: each trip is a new execution where both start afresh; a
// counter carried in the data bounds it.
func TestSelfTriggerAcrossExecutions(t *testing.T) {
	s := load(t, DefaultOptions(), "seed_batches.json")
	o := op(t, s, "Seed with batches", "OpenAI")
	want := []fac{
		{Kind: KindSelfTrigger, Unbounded: true, Node: "Restart", Via: "Start enrichment", Workflow: "Seed with batches"},
		{Kind: KindNodeRetry, Value: 5, Node: "OpenAI", Workflow: "Seed with batches"},
	}
	if diff := cmp.Diff(want, facs(o.Factors)); diff != "" || !o.Unbounded {
		t.Errorf("OpenAI unbounded %v factors (-want +got):\n%s", o.Unbounded, diff)
	}
	// Guard tests $runIndex alone, which a fresh execution starts at 0:
	// it sends every restarted run the way it sent the first, so it is no
	// branch that may route the loop away (routesByContent).
	if c := s.Calls[0]; !c.Cycle || c.Branch != nil {
		t.Errorf("call cycle %v branch %v, want a cycle with no content branch", c.Cycle, c.Branch)
	}
	g := s.Graph(s.Workflows[0])
	if len(g.Loops) != 0 {
		t.Errorf("loops %+v, want none inside one execution", g.Loops)
	}
	var on []string
	for _, n := range g.Nodes {
		if g.OnSelfTrigger(n) {
			on = append(on, n.Name)
		}
	}
	// Not Save: OpenAI (v1.8 with no messages) fails on every item, so its
	// regular output never runs and closes no cycle.
	if diff := cmp.Diff([]string{"Start enrichment", "Loop Over Items", "Guard", "OpenAI", "Restart"}, on); diff != "" {
		t.Errorf("nodes on the self-trigger (-want +got):\n%s", diff)
	}

	s = load(t, DefaultOptions(), "seed_counter.json")
	if o := op(t, s, "Seed with attempt counter", "OpenAI"); o.Unbounded || o.Attempts != 5 || s.Calls[0].Cycle {
		t.Errorf("counter-guarded: OpenAI attempts %d unbounded %v cycle %v, want 5 false false", o.Attempts, o.Unbounded, s.Calls[0].Cycle)
	}
}

// TestSIBNeverDone: Loop Over Items answers on done only when it runs a
// second time, so a done output wired into the body (outputs swapped, or
// the loop output unwired) never fires: the body never runs and is no
// loop. A node fed again by a cycle upstream does reach done, but not by
// a cycle that only a dead done output enters (nested loops whose outer
// loop output is unwired): that cycle is dead work, not a loop.
func TestSIBNeverDone(t *testing.T) {
	s := load(t, DefaultOptions(), "sib_swapped.json")
	want := map[string]struct {
		sib       string
		neverDone bool
		dead      []string // nodes that never run
		live      []string
	}{
		"Swapped outputs":               {"Loop Over Items", true, []string{"Push item"}, []string{"Report"}},
		"Done only":                     {"Loop Over Items", true, []string{"Push item"}, nil},
		"First batch only":              {"Only 1 item", true, nil, []string{"Push item"}},
		"Fed again upstream":            {"Inner", false, nil, []string{"Inner done", "After inner"}},
		"Inner loop behind a dead done": {"Outer", true, []string{"Inner", "Push item"}, nil},
		"Both loop outputs unwired":     {"Outer", true, []string{"Inner", "Push item", "Rate limited?"}, nil},
	}
	for _, w := range s.Workflows {
		c, ok := want[w.Name]
		if !ok {
			t.Fatalf("unexpected workflow %q", w.Name)
		}
		g := s.Graph(w)
		if got := g.NeverDone(g.Node(c.sib)); got != c.neverDone {
			t.Errorf("%s: NeverDone(%s) = %v, want %v", w.Name, c.sib, got, c.neverDone)
		}
		for _, n := range c.dead {
			if g.Reachable(g.Node(n)) {
				t.Errorf("%s: %s is reachable, want never run", w.Name, n)
			}
			if g.InCycle(g.Node(n)) {
				t.Errorf("%s: %s is on a cycle, want dead work", w.Name, n)
			}
		}
		for _, n := range c.live {
			if !g.Reachable(g.Node(n)) {
				t.Errorf("%s: %s is not reachable", w.Name, n)
			}
		}
		if w.Name != "Fed again upstream" && len(g.Loops) != 0 {
			t.Errorf("%s: loops = %v, want none", w.Name, names(g.Loops[0].Nodes))
		}
		for _, o := range s.OperationsOf(w) {
			if o.Unbounded {
				t.Errorf("%s: %s is unbounded", w.Name, o.Node.Name)
			}
		}
	}
}

// TestToolFailureNeverFailsAgent: an agent hands a tool's failure to its
// model, so its retryOnFail repeats its model calls but none of its tools'
// (nor their sub-nodes'); the OpenAI node's Message a Model fails with its
// tool, so its retry repeats the tool.
func TestToolFailureNeverFailsAgent(t *testing.T) {
	tool := func(root string) string {
		return `{"name":"Lookup","type":"n8n-nodes-base.httpRequestTool","typeVersion":4.2,"retryOnFail":true,"parameters":{"url":"https://api.example.com/x"}},
		{"name":"Docs","type":"@n8n/n8n-nodes-langchain.toolVectorStore","typeVersion":1,"parameters":{}},
		{"name":"Store","type":"@n8n/n8n-nodes-langchain.vectorStorePinecone","typeVersion":1,"parameters":{}},
		{"name":"Embed","type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1,"parameters":{}}],
		"connections":{"Start":{"main":[[{"node":"` + root + `","type":"main","index":0}]]},
		"Lookup":{"ai_tool":[[{"node":"` + root + `","type":"ai_tool","index":0}]]},
		"Docs":{"ai_tool":[[{"node":"` + root + `","type":"ai_tool","index":0}]]},
		"Store":{"ai_vectorStore":[[{"node":"Docs","type":"ai_vectorStore","index":0}]]},
		"Embed":{"ai_embedding":[[{"node":"Store","type":"ai_embedding","index":0}]]}`
	}
	start := `{"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"parameters":{}},`
	for _, c := range []struct {
		name, root          string
		lookup, embed, chat int
	}{
		{"agent v1.8", `{"name":"R","type":"@n8n/n8n-nodes-langchain.agent","typeVersion":1.8,"retryOnFail":true,"maxTries":3,"parameters":{"promptType":"define","text":"={{ $json.q }}"}}`, 3, 7, 3},
		{"agent v2.2", `{"name":"R","type":"@n8n/n8n-nodes-langchain.agent","typeVersion":2.2,"retryOnFail":true,"maxTries":3,"parameters":{"promptType":"define","text":"={{ $json.q }}"}}`, 3, 7, 3},
		{"agent v3", `{"name":"R","type":"@n8n/n8n-nodes-langchain.agent","typeVersion":3,"retryOnFail":true,"maxTries":3,"parameters":{"promptType":"define","text":"={{ $json.q }}"}}`, 3, 7, 3},
		{"OpenAI assistant", `{"name":"R","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"retryOnFail":true,"maxTries":3,"parameters":{"resource":"assistant","assistantId":{"__rl":true,"mode":"list","value":"asst_1"},"text":"={{ $json.q }}"}}`, 3, 7, 0},
		{"OpenAI message", `{"name":"R","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"retryOnFail":true,"maxTries":3,"parameters":{"modelId":{"__rl":true,"mode":"list","value":"gpt-4o-mini"},"messages":{"values":[{"content":"={{ $json.q }}"}]}}}`, 9, 21, 0},
	} {
		src := `{"name":"W","nodes":[` + start + c.root + `,
		{"name":"Chat","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{}},` + tool("R")
		if c.chat > 0 {
			src = strings.Replace(src, `"Lookup":{`, `"Chat":{"ai_languageModel":[[{"node":"R","type":"ai_languageModel","index":0}]]},"Lookup":{`, 1)
		}
		src += "}}"
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))
		if len(f.Problems) > 0 {
			t.Fatalf("%s: %v", c.name, f.Problems)
		}
		s := Build([]*n8nschema.File{f}, DefaultOptions())
		if o := op(t, s, "W", "Lookup"); o.Attempts != c.lookup {
			t.Errorf("%s: Lookup attempts %d, want %d (%v)", c.name, o.Attempts, c.lookup, facs(o.Factors))
		}
		if o := op(t, s, "W", "Embed"); o.Attempts != c.embed {
			t.Errorf("%s: Embed attempts %d, want %d (%v)", c.name, o.Attempts, c.embed, facs(o.Factors))
		}
		if c.chat > 0 {
			if o := op(t, s, "W", "Chat"); o.Attempts != c.chat {
				t.Errorf("%s: Chat attempts %d, want %d: the agent's retry repeats its model (%v, live %v)", c.name, o.Attempts, c.chat, facs(o.Factors), o.Live)
			}
		}
	}
}

// TestMessageToolCalls holds how many model calls a vendor node's
// Message a Model makes per item with a tool wired: each node's own count
// of the first call (n8n 2.41.1's message.operation.js files).
func TestMessageToolCalls(t *testing.T) {
	for _, c := range []struct {
		name, node string
		calls      int
		unbounded  bool
		ok         bool
	}{
		{"OpenAI v1.8, the default 15", `"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{}`, 15, false, true},
		{"OpenAI v1.4 has no limit", `"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.4,"parameters":{}`, 0, true, true},
		{"OpenAI v1.8 at 0", `"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"options":{"maxToolsIterations":0}}`, 0, true, true},
		{"OpenAI v1.8 from an expression: n8n's default stands", `"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"options":{"maxToolsIterations":"={{ $json.n }}"}}`, 15, false, true},
		{"OpenAI v1.8 hiding its tools", `"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"hideTools":"hide"}`, 1, false, true},
		{"OpenAI v2 Respond, one more", `"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2,"parameters":{"options":{"maxToolsIterations":3}}`, 4, false, true},
		{"OpenAI v2 Message is no operation of v2", `"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2,"parameters":{"operation":"message"}`, 0, false, false},
		{"OpenAI assistant", `"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"resource":"assistant"}`, 0, false, false},
		{"Gemini counts the first call", `"type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1.1,"parameters":{"options":{"maxToolsIterations":4}}`, 4, false, true},
		{"Gemini image", `"type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1.1,"parameters":{"resource":"image","operation":"generate"}`, 0, false, false},
		{"Anthropic counts tool rounds", `"type":"@n8n/n8n-nodes-langchain.anthropic","typeVersion":1,"parameters":{"options":{"maxToolsIterations":2}}`, 3, false, true},
		{"MiniMax, the default", `"type":"@n8n/n8n-nodes-langchain.minimax","typeVersion":1,"parameters":{}`, 16, false, true},
		{"an agent is no such node", `"type":"@n8n/n8n-nodes-langchain.agent","typeVersion":2,"parameters":{}`, 0, false, false},
	} {
		src := `{"name":"W","nodes":[{"name":"N",` + c.node + `}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))
		if len(f.Problems) > 0 || len(f.Workflows) != 1 {
			t.Fatalf("%s: %v", c.name, f.Problems)
		}
		calls, unb, ok := MessageToolCalls(f.Workflows[0].Nodes[0])
		if calls != c.calls || unb != c.unbounded || ok != c.ok {
			t.Errorf("%s: MessageToolCalls = %d, %v, %v; want %d, %v, %v", c.name, calls, unb, ok, c.calls, c.unbounded, c.ok)
		}
	}
}

// TestOutsideCallers: calls per item multiply across a Call Workflow Tool,
// and the operation keeps whose they are: the tool's call and the agent
// that drives it, the calls it adds, and the callers before it.
func TestOutsideCallers(t *testing.T) {
	s := load(t, DefaultOptions(), "tool_workflows_two_agents_away.json")
	type level struct {
		Call, From, Root string
		Runs, Total      int
	}
	levels := func(o *Outside) []level {
		var out []level
		for ; o != nil; o = o.Prev {
			l := level{Call: o.Call.Node.Name, From: o.Call.From.Label(), Runs: o.Runs, Total: o.Total}
			if o.Root != nil {
				l.Root = o.Root.Name
			}
			out = append(out, l)
		}
		return out
	}
	leaf := op(t, s, "Summarise site", "Sub Model")
	if leaf.CallsPerItem != 100 {
		t.Errorf("leaf calls per item %d, want 100", leaf.CallsPerItem)
	}
	want := []level{
		{Call: "Summarise site", From: "Research Agent", Root: "Sub Agent", Runs: 10, Total: 100},
		{Call: "Documents", From: "Manager Agent", Root: "Manager", Runs: 10, Total: 10},
	}
	if diff := cmp.Diff(want, levels(leaf.Outside)); diff != "" {
		t.Errorf("leaf callers (-want +got):\n%s", diff)
	}
	if o := leaf.Outside.Outermost(); o.Root == nil || o.Root.Name != "Manager" {
		t.Errorf("outermost caller %+v, want the agent Manager", o)
	}
	// The middle workflow's own agent makes 10 calls per run of it, and
	// the manager's agent runs it up to 10 times per item.
	mid := op(t, s, "Research Agent", "Sub Model")
	if mid.CallsPerItem != 100 || len(levels(mid.Outside)) != 1 || mid.Outside.Total != 10 {
		t.Errorf("middle: %d calls, callers %+v; want 100 calls, one caller of 10 runs", mid.CallsPerItem, levels(mid.Outside))
	}
	// The manager's own model: no caller.
	if m := op(t, s, "Manager Agent", "Manager Model"); m.Outside != nil {
		t.Errorf("manager model has a caller: %+v", levels(m.Outside))
	}
}

// TestRestartGates: in a cycle of executions, what a restarted run reaches
// from where the restart enters without passing a node that routes items
// by their content repeats surely; what sits behind one repeats only if
// the restarted runs take that way, and its factor names that node. A test
// of $runIndex alone, or of fixed values, routes a fresh execution the way
// it routed the first: no gate. A loop inside the run repeats surely.
func TestRestartGates(t *testing.T) {
	slack := `{"name":"S","nodes":[
	  {"name":"Slack Trigger","type":"n8n-nodes-base.slackTrigger","typeVersion":1,"webhookId":"w1","parameters":{"trigger":["message"],"channelId":{"__rl":true,"value":"C1","mode":"id"}},"credentials":{"slackApi":{"id":"zHmS9uYPhamAf7ed","name":"Slack"}}},
	  {"name":"Read","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.example.com/read"}},
	  {"name":"Missing?","type":"n8n-nodes-base.if","typeVersion":2.2,"parameters":{"conditions":{"conditions":[{"leftValue":"={{ $json.files }}","rightValue":"","operator":{"type":"string","operation":"empty","singleValue":true}}],"combinator":"and"}}},
	  {"name":"Failed","type":"n8n-nodes-base.slack","typeVersion":2.5,"webhookId":"w2","parameters":{"select":"channel","channelId":{"__rl":true,"value":"C1","mode":"id"},"text":"failed"},"credentials":{"slackApi":{"id":"zHmS9uYPhamAf7ed","name":"Slack"}}},
	  {"name":"Write","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.example.com/posts"}},
	  {"name":"Done","type":"n8n-nodes-base.slack","typeVersion":2.5,"webhookId":"w3","parameters":{"select":"channel","channelId":{"__rl":true,"value":"C1","mode":"id"},"text":"done"},"credentials":{"slackApi":{"id":"zHmS9uYPhamAf7ed","name":"Slack"}}}
	],"connections":{
	  "Slack Trigger":{"main":[[{"node":"Read","type":"main","index":0}]]},
	  "Read":{"main":[[{"node":"Missing?","type":"main","index":0}]]},
	  "Missing?":{"main":[[{"node":"Failed","type":"main","index":0}],[{"node":"Write","type":"main","index":0}]]},
	  "Write":{"main":[[{"node":"Done","type":"main","index":0}]]}
	}}`
	s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("s.json", []byte(slack)))}, DefaultOptions())
	for node, gate := range map[string]string{"Read": "", "Write": "Missing?", "Failed": "Missing?", "Done": "Missing?"} {
		o := op(t, s, "S", node)
		f, ok := Factor{}, false
		for _, x := range o.Factors {
			if x.Kind == KindSelfTrigger {
				f, ok = x, true
			}
		}
		if !o.Unbounded || !ok || f.Gate != gate {
			t.Errorf("%s: unbounded %v factors %v, want a self-trigger with gate %q", node, o.Unbounded, facs(o.Factors), gate)
		}
	}

	// A loop inside the run behind the gate repeats Write surely: the
	// loop's factor, not the gated restart's.
	looped := strings.Replace(strings.Replace(slack,
		`"parameters":{"method":"POST","url":"https://api.example.com/posts"}}`,
		`"onError":"continueErrorOutput","parameters":{"method":"POST","url":"https://api.example.com/posts"}},
	  {"name":"Pause","type":"n8n-nodes-base.wait","typeVersion":1.1,"parameters":{"amount":5}}`, 1),
		`"Write":{"main":[[{"node":"Done","type":"main","index":0}]]}`,
		`"Write":{"main":[[{"node":"Done","type":"main","index":0}],[{"node":"Pause","type":"main","index":0}]]},
	  "Pause":{"main":[[{"node":"Write","type":"main","index":0}]]}`, 1)
	s = Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("l.json", []byte(looped)))}, DefaultOptions())
	if o := op(t, s, "S", "Write"); !o.Unbounded || len(o.Factors) == 0 || o.Factors[0].Kind != KindLoop || o.Factors[0].Gate != "" {
		t.Errorf("looped Write: unbounded %v factors %v, want the loop first, no gate", o.Unbounded, facs(o.Factors))
	}

	// The seed incident: no gate before the failing call or on the error
	// output that restarts; and a $runIndex guard is none.
	for _, tt := range []struct{ file, wf string }{
		{"seed_self_webhook.json", "Nightly catalog enrichment"},
		{"seed_batches.json", "Seed with batches"},
	} {
		s := load(t, DefaultOptions(), tt.file)
		for _, o := range s.Operations {
			if o.Workflow.Label() != tt.wf {
				continue
			}
			for _, f := range o.Factors {
				if f.Gate != "" {
					t.Errorf("%s: %s has gate %q, want none", tt.file, o.Node.Name, f.Gate)
				}
			}
		}
	}

	// Two workflows that call each other: the restart enters both; B's
	// call back sits behind its If.
	pair := `[{"id":"wfA","name":"A","nodes":[
	  {"name":"When called","type":"n8n-nodes-base.executeWorkflowTrigger","typeVersion":1.1,"parameters":{}},
	  {"name":"Fetch","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.example.com/a"}},
	  {"name":"Call B","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"parameters":{"workflowId":"wfB"}}
	],"connections":{"When called":{"main":[[{"node":"Fetch","type":"main","index":0}]]},"Fetch":{"main":[[{"node":"Call B","type":"main","index":0}]]}}},
	{"id":"wfB","name":"B","nodes":[
	  {"name":"When called","type":"n8n-nodes-base.executeWorkflowTrigger","typeVersion":1.1,"parameters":{}},
	  {"name":"More?","type":"n8n-nodes-base.if","typeVersion":2.2,"parameters":{"conditions":{"conditions":[{"leftValue":"={{ $json.next }}","rightValue":"","operator":{"type":"string","operation":"notEmpty","singleValue":true}}],"combinator":"and"}}},
	  {"name":"Page","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.example.com/b"}},
	  {"name":"Call A","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"parameters":{"workflowId":"wfA"}}
	],"connections":{"When called":{"main":[[{"node":"More?","type":"main","index":0}]]},"More?":{"main":[[{"node":"Page","type":"main","index":0}]]},"Page":{"main":[[{"node":"Call A","type":"main","index":0}]]}}}]`
	s = Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("p.json", []byte(pair)))}, DefaultOptions())
	for _, tt := range []struct{ wf, node, gate string }{{"A", "Fetch", ""}, {"B", "Page", "More?"}} {
		o := op(t, s, tt.wf, tt.node)
		if !o.Unbounded || len(o.Factors) == 0 || o.Factors[0].Kind != KindSelfTrigger || o.Factors[0].Gate != tt.gate {
			t.Errorf("%s/%s: unbounded %v factors %v, want a self-trigger with gate %q", tt.wf, tt.node, o.Unbounded, facs(o.Factors), tt.gate)
		}
	}
}
