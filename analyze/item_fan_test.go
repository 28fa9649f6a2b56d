package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestItemsMultiplied: a chain's model behind a calendar list is
// multiplied by that list; a node before the list, and every node of a
// workflow with none, is not. On a long chain behind one list the walk
// stays one pass (each node reached once).
func TestItemsMultiplied(t *testing.T) {
	const wf = `{"nodes":[
{"name":"Start","type":"n8n-nodes-base.executeWorkflowTrigger","parameters":{}},
{"name":"Events","type":"n8n-nodes-base.googleCalendar","parameters":{"operation":"getAll"}},
{"name":"Chain","type":"@n8n/n8n-nodes-langchain.chainLlm","parameters":{}},
{"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","parameters":{}}],
"connections":{"Start":{"main":[[{"node":"Events","type":"main","index":0}]]},
"Events":{"main":[[{"node":"Chain","type":"main","index":0}]]},
"Model":{"ai_languageModel":[[{"node":"Chain","type":"ai_languageModel","index":0}]]}}}`
	g := BuildGraph(parseOne(t, wf))
	m := ItemsMultiplied(g)
	if by := MultipliedBy(g, m, g.Node("Model")); by == nil || by.Name != "Events" {
		t.Errorf("Model multiplied by %v, want Events", by)
	}
	for _, n := range []string{"Start", "Events"} {
		if by := MultipliedBy(g, m, g.Node(n)); by != nil {
			t.Errorf("%s multiplied by %s, want none", n, by.Name)
		}
	}
	none := BuildGraph(parseOne(t, strings.Replace(wf, `"operation":"getAll"`, `"operation":"create"`, 1)))
	if by := MultipliedBy(none, ItemsMultiplied(none), none.Node("Model")); by != nil {
		t.Errorf("with no list, Model multiplied by %s", by.Name)
	}

	var b strings.Builder
	b.WriteString(`{"nodes":[{"name":"L","type":"n8n-nodes-base.splitOut","parameters":{}}`)
	const n = 5000
	for i := range n {
		fmt.Fprintf(&b, `,{"name":"s%d","type":"n8n-nodes-base.noOp","parameters":{}}`, i)
	}
	b.WriteString(`],"connections":{"L":{"main":[[{"node":"s0","type":"main","index":0}]]}`)
	for i := range n - 1 {
		fmt.Fprintf(&b, `,"s%d":{"main":[[{"node":"s%d","type":"main","index":0}]]}`, i, i+1)
	}
	b.WriteString(`}}`)
	long := BuildGraph(parseOne(t, b.String()))
	lm := ItemsMultiplied(long)
	if len(lm) != n {
		t.Fatalf("%d nodes multiplied, want %d", len(lm), n)
	}
	if by := MultipliedBy(long, lm, long.Node(fmt.Sprintf("s%d", n-1))); by == nil || by.Name != "L" {
		t.Errorf("last node multiplied by %v, want L", by)
	}
}

// TestMultipliedByNestedTools: agent tools that are tools of k agent
// tools each, d levels deep, share their roots; the climb visits each
// root once, so 40 levels of 40 run in a blink (an unmarked climb took
// k^d steps).
func TestMultipliedByNestedTools(t *testing.T) {
	const k, d = 40, 6
	var b strings.Builder
	b.WriteString(`{"nodes":[{"name":"Start","type":"n8n-nodes-base.executeWorkflowTrigger","parameters":{}},{"name":"Chain","type":"@n8n/n8n-nodes-langchain.chainLlm","parameters":{}},{"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","parameters":{}}`)
	for l := range d {
		for i := range k {
			fmt.Fprintf(&b, `,{"name":"a%d_%d","type":"@n8n/n8n-nodes-langchain.agentTool","parameters":{}}`, l, i)
		}
	}
	b.WriteString(`],"connections":{"Start":{"main":[[{"node":"Chain","type":"main","index":0}]]},"Model":{"ai_languageModel":[[`)
	for i := range k {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"node":"a0_%d","type":"ai_languageModel","index":0}`, i)
	}
	b.WriteString(`]]}`)
	for l := range d {
		for i := range k {
			fmt.Fprintf(&b, `,"a%d_%d":{"ai_tool":[[`, l, i)
			if l+1 == d {
				b.WriteString(`{"node":"Chain","type":"ai_tool","index":0}`)
			} else {
				for j := range k {
					if j > 0 {
						b.WriteString(",")
					}
					fmt.Fprintf(&b, `{"node":"a%d_%d","type":"ai_tool","index":0}`, l+1, j)
				}
			}
			b.WriteString(`]]}`)
		}
	}
	b.WriteString(`}}`)
	g := BuildGraph(parseOne(t, b.String()))
	m := map[*n8nschema.Node]*n8nschema.Node{g.Node("Start"): g.Node("Start")} // any non-empty map
	if by := MultipliedBy(g, m, g.Node("Model")); by != nil {
		t.Errorf("Model multiplied by %s, want none", by.Name)
	}
}
