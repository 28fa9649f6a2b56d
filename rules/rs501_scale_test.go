package rules

import (
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// hooksIntoChain is one workflow: k webhooks that all feed the first of k
// HTTP Requests in a chain, the middle one a call to a model API's
// generation endpoint (analyze.ReachBeforeModel stops behind it).
func hooksIntoChain(k int) *analyze.Set {
	var nodes, conns []string
	for i := range k {
		name := fmt.Sprintf("Hook %d", i)
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.webhook","typeVersion":2,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-%012d","position":[0,0],"parameters":{"path":"p%d","httpMethod":"POST"}}`, name, i, i))
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":"Call 0","type":"main","index":0}]]}`, name))
	}
	for i := range k {
		name := fmt.Sprintf("Call %d", i)
		url := fmt.Sprintf("https://api%d.reportly.io/v1/x", i)
		if i == k/2 {
			url = "https://api.openai.com/v1/chat/completions"
		}
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"retryOnFail":true,"maxTries":3,"parameters":{"method":"POST","url":%q}}`, name, url))
		if i+1 < k {
			conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":"Call %d","type":"main","index":0}]]}`, name, i+1))
		}
	}
	return generatedSet("hooks", nodes, conns)
}

// TestFirstReachBeforeModelLinearInTriggers: what many webhooks that
// feed one chain reach before a model's generation
// (analyze.FirstReachBeforeModel, which RS501 reads) names each node after
// the first webhook, as a walk per webhook (analyze.ReachBeforeModel)
// does, and 4× the webhooks and nodes take at most 6× the CPU time. RS501
// walked the chain once per webhook, deciding at each node again whether
// it waits for a model.
func TestFirstReachBeforeModelLinearInTriggers(t *testing.T) {
	check := func(set *analyze.Set, k int) {
		g := set.Graph(set.Workflows[0])
		trigs := g.Triggers()
		if len(trigs) != k {
			t.Fatalf("%d triggers, want %d", len(trigs), k)
		}
		first := analyze.FirstReachBeforeModel(g, trigs)
		for _, n := range g.Nodes {
			var want *n8nschema.Node
			for _, tr := range trigs {
				if analyze.ReachBeforeModel(g, tr)[n] {
					want = tr
					break
				}
			}
			if first[n] != want {
				t.Fatalf("k %d: node %q first reached from %v, want %v", k, n.Name, first[n], want)
			}
		}
		if n := g.Node(fmt.Sprintf("Call %d", k/2+1)); n == nil || first[n] != nil {
			t.Fatalf("k %d: the call behind the model's is reached before it", k)
		}
	}
	check(hooksIntoChain(20), 20)
	const k = 1000
	small, large := hooksIntoChain(k), hooksIntoChain(4*k)
	gs, gl := small.Graph(small.Workflows[0]), large.Graph(large.Workflows[0])
	var fs, fl map[*n8nschema.Node]*n8nschema.Node
	linearIn(t, "FirstReachBeforeModel over webhooks into one chain", k,
		func() { fs = analyze.FirstReachBeforeModel(gs, gs.Triggers()) },
		func() { fl = analyze.FirstReachBeforeModel(gl, gl.Triggers()) })
	if len(fs) != k+k/2+1 || len(fl) != 4*k+2*k+1 {
		t.Fatalf("reached %d and %d nodes, want %d and %d", len(fs), len(fl), k+k/2+1, 4*k+2*k+1)
	}
}
