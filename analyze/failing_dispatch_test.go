package analyze

import (
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestFailingGateDispatch: failing asks the gate facts (gateThrows,
// webhookGateFalse, errorGateFalse) only of an If or a Filter, and
// webhookGateFalse only in a graph with an enabled Webhook. An If fed by a
// Webhook whose condition fails on every Webhook item is marked never
// true; the same with the Webhook disabled is not, nor an If fed by a
// Manual Trigger. On every workflow of the three corpora, no node of
// another type is judged by a gate fact, and none in a graph without an
// enabled Webhook by webhookGateFalse.
func TestFailingGateDispatch(t *testing.T) {
	const src = `{"nodes":[
{"name":"T","type":"%s","typeVersion":2,%s"parameters":{"path":"p","httpMethod":"POST"}},
{"name":"If","type":"n8n-nodes-base.if","typeVersion":2,"parameters":{"conditions":{"combinator":"and","conditions":[
 {"leftValue":"={{ $json.organizer.name }}","rightValue":"Digitalise Agency","operator":{"type":"string","operation":"equals"}}]}}}],
"connections":{"T":{"main":[[{"node":"If","type":"main","index":0}]]}}}`
	o := DefaultOptions()
	for _, c := range []struct {
		typ, disabled string
		want          bool
	}{
		{"n8n-nodes-base.webhook", "", true},
		{"n8n-nodes-base.webhook", `"disabled":true,`, false},
		{"n8n-nodes-base.manualTrigger", "", false},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(fmt.Sprintf(src, c.typ, c.disabled))))
		g := buildGraph(f.Workflows[0], o.Version())
		i, _ := g.index(f.Workflows[0].Node("If"))
		if got := g.neverTrue != nil && g.neverTrue[i]; got != c.want {
			t.Errorf("%s %s: never true %v, want %v", c.typ, c.disabled, got, c.want)
		}
	}
	judged := 0
	for _, w := range corpustest.Workflows(t) {
		g := BuildGraph(w)
		hooks := false
		for _, nd := range g.Nodes {
			hooks = hooks || nd.Type == n8nschema.TypeWebhook && !nd.Disabled
		}
		for i, nd := range g.Nodes {
			gate := nd.Type == n8nschema.TypeIf || nd.Type == n8nschema.TypeFilter
			_, throws := gateThrows(nd)
			webhook, errorFree := g.webhookGateFalse(i), g.errorGateFalse(i)
			if (throws || webhook || errorFree) && !gate {
				t.Errorf("%s: node %q (%s) judged by a gate fact", w.Source.Name, nd.Name, nd.Type)
			}
			if webhook && !hooks {
				t.Errorf("%s: node %q judged by webhookGateFalse in a graph with no enabled Webhook", w.Source.Name, nd.Name)
			}
			if throws || webhook || errorFree {
				judged++
			}
		}
	}
	if judged == 0 {
		t.Error("no gate of the corpora judged by a gate fact: the comparison proves little")
	}
}
