package rules

import (
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

// deadChain is one workflow of a Webhook feeding an If whose test reads
// literals only ("yes" equals "no"), whose true output, which no item
// takes, leads to the head of a chain of k NoOps that no run reaches.
func deadChain(k int) *analyze.Set {
	nodes := []string{
		`{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"x"}}`,
		`{"name":"Gate","type":"n8n-nodes-base.if","typeVersion":2.2,"position":[0,0],"parameters":{"conditions":{"options":{"caseSensitive":true,"leftValue":"","typeValidation":"strict","version":2},"conditions":[{"id":"c","leftValue":"yes","rightValue":"no","operator":{"type":"string","operation":"equals"}}],"combinator":"and"}}}`,
	}
	conns := []string{
		`"Hook":{"main":[[{"node":"Gate","type":"main","index":0}]]}`,
		`"Gate":{"main":[[{"node":"N0","type":"main","index":0}],[]]}`,
	}
	for i := range k {
		nodes = append(nodes, fmt.Sprintf(`{"name":"N%d","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[0,0],"parameters":{}}`, i))
		if i+1 < k {
			conns = append(conns, fmt.Sprintf(`"N%d":{"main":[[{"node":"N%d","type":"main","index":0}]]}`, i, i+1))
		}
	}
	return generatedSet("dead", nodes, conns)
}

// TestUnreachedByLinear: asking unreachedBy of every node of a chain no
// run reaches (RS011's unreachedWhy, RS007, whyTable ask it per node)
// names the decided If for each, and 4× the chain takes at most 6× the
// CPU time. Each ask walked the whole chain back again (4,000 nodes took
// 1.8 s, ×4 per doubling).
func TestUnreachedByLinear(t *testing.T) {
	const k = 500
	ask := func(k int) func() {
		return func() {
			// A fresh graph each time: the answers are memoized on it.
			s := deadChain(k)
			g := s.Graph(s.Workflows[0])
			for _, n := range g.Nodes {
				if by := unreachedBy(g, n); !g.Reachable(n) && (by == nil || by.Name != "Gate") {
					t.Fatalf("unreachedBy(%s) = %v, want Gate", n.Name, by)
				}
			}
		}
	}
	linearIn(t, "unreachedBy over a dead chain", k, ask(k), ask(4*k))
}
