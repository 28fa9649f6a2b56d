package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// agentsBeforeTail is a public chat (lastNode answers) that starts k
// agents, each with a Google Calendar tool that lists the owner's events,
// all feeding the head of one chain of k NoOps.
func agentsBeforeTail(t *testing.T, k int) (*Graph, *n8nschema.Node) {
	t.Helper()
	nodes := []string{
		`{"name":"Chat","type":"@n8n/n8n-nodes-langchain.chatTrigger","typeVersion":1.1,"position":[0,0],"webhookId":"7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d","parameters":{"public":true,"options":{}}}`,
		`{"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"position":[0,0],"parameters":{"model":{"__rl":true,"value":"gpt-4o-mini","mode":"list"},"options":{}}}`,
	}
	var fan, models, conns []string
	for i := range k {
		nodes = append(nodes,
			fmt.Sprintf(`{"name":"Agent %d","type":"@n8n/n8n-nodes-langchain.agent","typeVersion":1.7,"position":[0,0],"parameters":{"options":{"systemMessage":"hi"}}}`, i),
			fmt.Sprintf(`{"name":"Calendar %d","type":"n8n-nodes-base.googleCalendarTool","typeVersion":1.3,"position":[0,0],"parameters":{"operation":"getAll","calendar":{"__rl":true,"value":"owner@example.com","mode":"list"},"options":{}}}`, i),
			fmt.Sprintf(`{"name":"Tail %d","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[0,0],"parameters":{}}`, i))
		fan = append(fan, fmt.Sprintf(`{"node":"Agent %d","type":"main","index":0}`, i))
		models = append(models, fmt.Sprintf(`{"node":"Agent %d","type":"ai_languageModel","index":0}`, i))
		conns = append(conns,
			fmt.Sprintf(`"Calendar %d":{"ai_tool":[[{"node":"Agent %d","type":"ai_tool","index":0}]]}`, i, i),
			fmt.Sprintf(`"Agent %d":{"main":[[{"node":"Tail 0","type":"main","index":0}]]}`, i))
		if i+1 < k {
			conns = append(conns, fmt.Sprintf(`"Tail %d":{"main":[[{"node":"Tail %d","type":"main","index":0}]]}`, i, i+1))
		}
	}
	conns = append(conns,
		`"Chat":{"main":[[`+strings.Join(fan, ",")+`]]}`,
		`"Model":{"ai_languageModel":[[`+strings.Join(models, ",")+`]]}`)
	src := `{"name":"own","nodes":[` + strings.Join(nodes, ",") + `],"connections":{` + strings.Join(conns, ",") + `},"settings":{"executionOrder":"v1"}}`
	f := n8nschema.Parse(n8nschema.NewSource("own.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parsed %d workflows", len(f.Workflows))
	}
	g := BuildGraph(f.Workflows[0])
	return g, g.Nodes[0]
}

// TestOwnerReadsLinearInAgents: k agents whose answers all end the run
// through one shared tail of k nodes are judged in time linear in k: the
// nodes from which a shaping walk reaches the run's end are found once
// for the trigger (shapedEnds), where each agent walked the whole tail
// again (2,000 agents took 2.8 s, ×3.5 per doubling).
func TestOwnerReadsLinearInAgents(t *testing.T) {
	const k = 250
	gs, ts := agentsBeforeTail(t, k)
	gl, tl := agentsBeforeTail(t, 4*k)
	run := func(g *Graph, tr *n8nschema.Node, want int) func() {
		reach := RunReach(g, tr)
		return func() {
			if reads := OwnerReads(g, tr, reach); len(reads) != want {
				t.Fatalf("%d owner reads, want %d", len(reads), want)
			}
		}
	}
	st, lt := cputime.Scales(3, 3, 6, run(gs, ts, k), run(gl, tl, 4*k))
	t.Logf("%d agents: %v; %d agents: %v", k, st, 4*k, lt)
	if lt > 6*st {
		t.Errorf("%d agents take %v, %d take %v: more than 6×", k, st, 4*k, lt)
	}
}
