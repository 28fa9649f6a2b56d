package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// bigWorkflow generates one workflow of n nodes (rounded down to blocks of
// ten) and the sub-workflow it calls. Each block is
//
//	HTTP (3 tries) -> Set -> If -0-> Wait -> HTTP   (an unguarded retry loop)
//	                         If -1-> Execute Workflow (2 tries) -> Agent (2 tries) -> Code -> next block
//	Model -ai_languageModel-> Agent, Tool (Call Workflow Tool) -ai_tool-> Agent, Embed -ai_embedding-> Code
//
// so the graph has retries, sub-workflow calls, AI sub-nodes and cycles.
func bigWorkflow(n int) []byte {
	var nodes, conns []string
	node := func(name, typ string, extra string) {
		nodes = append(nodes, fmt.Sprintf(`{"id":%q,"name":%q,"type":%q,"typeVersion":2,"position":[0,0],"parameters":{%s}%s}`,
			name, name, typ, "", extra))
	}
	nodeP := func(name, typ, params, extra string) {
		nodes = append(nodes, fmt.Sprintf(`{"id":%q,"name":%q,"type":%q,"typeVersion":2,"position":[0,0],"parameters":{%s}%s}`,
			name, name, typ, params, extra))
	}
	edge := func(from string, outs ...[]string) {
		var slots []string
		for _, o := range outs {
			var cs []string
			for _, to := range o {
				cs = append(cs, fmt.Sprintf(`{"node":%q,"type":"main","index":0}`, to))
			}
			slots = append(slots, "["+strings.Join(cs, ",")+"]")
		}
		conns = append(conns, fmt.Sprintf(`%q:{"main":[%s]}`, from, strings.Join(slots, ",")))
	}
	ai := func(from, typ, to string) {
		conns = append(conns, fmt.Sprintf(`%q:{%q:[[{"node":%q,"type":%q,"index":0}]]}`, from, typ, to, typ))
	}
	node("Start", "n8n-nodes-base.scheduleTrigger", "")
	prev := "Start"
	sub := `"workflowId":{"__rl":true,"value":"sub","mode":"id"}`
	for b := range n / 10 {
		h, s, i, w, x, a, c := fmt.Sprint("HTTP ", b), fmt.Sprint("Set ", b), fmt.Sprint("If ", b), fmt.Sprint("Wait ", b),
			fmt.Sprint("Exec ", b), fmt.Sprint("Agent ", b), fmt.Sprint("Code ", b)
		nodeP(h, "n8n-nodes-base.httpRequest", `"method":"POST","url":"https://api.example.com/x"`, `,"retryOnFail":true,"maxTries":3`)
		node(s, "n8n-nodes-base.set", "")
		node(i, "n8n-nodes-base.if", "")
		node(w, "n8n-nodes-base.wait", "")
		nodeP(x, "n8n-nodes-base.executeWorkflow", sub, `,"retryOnFail":true,"maxTries":2`)
		nodeP(a, "@n8n/n8n-nodes-langchain.agent", `"options":{}`, `,"retryOnFail":true,"maxTries":2`)
		node(c, "n8n-nodes-base.code", "")
		nodeP(fmt.Sprint("Model ", b), "@n8n/n8n-nodes-langchain.lmChatOpenAi", `"options":{"maxRetries":2}`, "")
		nodeP(fmt.Sprint("Tool ", b), "@n8n/n8n-nodes-langchain.toolWorkflow", sub, `,"retryOnFail":true`)
		node(fmt.Sprint("Embed ", b), "@n8n/n8n-nodes-langchain.embeddingsOpenAi", "")
		edge(prev, []string{h})
		edge(h, []string{s})
		edge(s, []string{i})
		edge(i, []string{w}, []string{x})
		edge(w, []string{h})
		edge(x, []string{a})
		edge(a, []string{c})
		ai(fmt.Sprint("Model ", b), ConnModel, a)
		ai(fmt.Sprint("Tool ", b), ConnTool, a)
		ai(fmt.Sprint("Embed ", b), ConnEmbedder, c)
		prev = c
	}
	main := fmt.Sprintf(`{"id":"big","name":"Big","nodes":[%s],"connections":{%s}}`, strings.Join(nodes, ",\n"), strings.Join(conns, ",\n"))
	subwf := `{"id":"sub","name":"Sub","nodes":[
	  {"name":"When called","type":"n8n-nodes-base.executeWorkflowTrigger","parameters":{}},
	  {"name":"Post","type":"n8n-nodes-base.httpRequest","retryOnFail":true,"maxTries":5,"parameters":{"method":"POST","url":"https://api.example.com/y"}}],
	  "connections":{"When called":{"main":[[{"node":"Post","type":"main","index":0}]]}}}`
	return []byte("[" + main + "," + subwf + "]")
}

// deepChain generates n workflows, each calling the next with 2 tries.
func deepChain(n int) []byte {
	var wfs []string
	for i := range n {
		call := ""
		conn := `"When called":{"main":[[{"node":"Post","type":"main","index":0}]]}`
		if i+1 < n {
			call = fmt.Sprintf(`,{"name":"Next","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"retryOnFail":true,"maxTries":2,"parameters":{"workflowId":"w%d"}}`, i+1)
			conn = `"When called":{"main":[[{"node":"Post","type":"main","index":0}]]},"Post":{"main":[[{"node":"Next","type":"main","index":0}]]}`
		}
		wfs = append(wfs, fmt.Sprintf(`{"id":"w%d","name":"W%d","nodes":[
		  {"name":"When called","type":"n8n-nodes-base.executeWorkflowTrigger","parameters":{}},
		  {"name":"Post","type":"n8n-nodes-base.httpRequest","retryOnFail":true,"parameters":{"method":"POST","url":"https://api.example.com/z"}}%s],
		  "connections":{%s}}`, i, i, call, conn))
	}
	return []byte("[" + strings.Join(wfs, ",\n") + "]")
}

func parseBench(b *testing.B, src []byte) []*n8nschema.File {
	b.Helper()
	f := n8nschema.Parse(n8nschema.NewSource("bench.json", src))
	if len(f.Problems) > 0 || len(f.Workflows) == 0 {
		b.Fatalf("generated workflow does not parse: %v", f.Problems)
	}
	return []*n8nschema.File{f}
}

func TestBigWorkflowShape(t *testing.T) {
	f := n8nschema.Parse(n8nschema.NewSource("big.json", bigWorkflow(1000)))
	if len(f.Problems) > 0 || len(f.Workflows) != 2 || len(f.Workflows[0].Problems) > 0 {
		t.Fatalf("problems: %v %v", f.Problems, f.Workflows[0].Problems)
	}
	s := Build([]*n8nschema.File{f}, DefaultOptions())
	if got := len(s.Workflows[0].Nodes); got != 1001 {
		t.Errorf("%d nodes, want 1001", got)
	}
	g := s.Graph(s.Workflows[0])
	if len(g.Loops) != 100 {
		t.Errorf("%d loops, want 100", len(g.Loops))
	}
	// Post in Sub: 5 tries × 2 (Exec) or × 2 (Agent) × 3 (Tool, maxTries ?? 3).
	o := s.OperationsOf(s.Workflows[1])[0]
	if o.Attempts != 30 || o.Unbounded {
		t.Errorf("Post: attempts %d unbounded %v, want 30 false", o.Attempts, o.Unbounded)
	}
	d := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("deep.json", deepChain(50)))}, DefaultOptions())
	if o := d.OperationsOf(d.Workflows[19])[0]; o.Attempts != 3<<19 || len(o.Factors) != 20 {
		t.Errorf("deep chain W19: attempts %d with %d factors, want %d with 20", o.Attempts, len(o.Factors), 3<<19)
	}
	if o := d.OperationsOf(d.Workflows[49])[0]; o.Attempts != AttemptCap || o.Unbounded || len(o.Factors) != maxChain+1 {
		t.Errorf("deep chain W49: attempts %d unbounded %v with %d factors, want %d false %d", o.Attempts, o.Unbounded, len(o.Factors), AttemptCap, maxChain+1)
	}
}

func benchBuild(b *testing.B, src []byte) {
	files := parseBench(b, src)
	b.ResetTimer()
	for b.Loop() {
		Build(files, DefaultOptions())
	}
}

func benchAmplify(b *testing.B, src []byte) {
	s := Build(parseBench(b, src), DefaultOptions())
	b.ResetTimer()
	for b.Loop() {
		Amplify(s)
	}
}

func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		src := bigWorkflow(n)
		b.Run(fmt.Sprint("nodes=", n), func(b *testing.B) { benchBuild(b, src) })
	}
	for _, n := range []int{100, 1000} {
		src := deepChain(n)
		b.Run(fmt.Sprint("chain=", n), func(b *testing.B) { benchBuild(b, src) })
	}
}

func BenchmarkAmplify(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		src := bigWorkflow(n)
		b.Run(fmt.Sprint("nodes=", n), func(b *testing.B) { benchAmplify(b, src) })
	}
	for _, n := range []int{100, 1000} {
		src := deepChain(n)
		b.Run(fmt.Sprint("chain=", n), func(b *testing.B) { benchAmplify(b, src) })
	}
}
