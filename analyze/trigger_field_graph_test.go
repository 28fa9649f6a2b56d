package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// manualPairs is a workflow of k Manual Triggers, each into a Code node
// that reads $json.bestTime.split; pinCode pins every Code node.
func manualPairs(t *testing.T, k int, pinCode bool) *n8nschema.Workflow {
	t.Helper()
	var nodes, conns, pins []string
	for i := range k {
		nodes = append(nodes,
			fmt.Sprintf(`{"name":"M%d","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}}`, i),
			fmt.Sprintf(`{"name":"C%d","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":"const t = $json.bestTime.split(':');\nreturn [{ json: { h: t[0] } }];"}}`, i))
		conns = append(conns, fmt.Sprintf(`"M%d":{"main":[[{"node":"C%d","type":"main","index":0}]]}`, i, i))
		if pinCode {
			pins = append(pins, fmt.Sprintf(`"C%d":[{"json":{"h":"9"}}]`, i))
		}
	}
	src := `{"nodes":[` + strings.Join(nodes, ",") + `],"connections":{` + strings.Join(conns, ",") + `},"pinData":{` + strings.Join(pins, ",") + `}}`
	f := n8nschema.Parse(n8nschema.NewSource("m.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parse: %v", f.Problems)
	}
	return f.Workflows[0]
}

// TestPinnedCodeNotJudged: a Manual Trigger's runs are the editor's, and
// there n8n hands a pinned node its pinned data without running it
// (n8n-core dist/execution-engine/workflow-execute.js L942-946): its code
// throws nothing. The same node unpinned fails.
func TestPinnedCodeNotJudged(t *testing.T) {
	for _, pin := range []bool{false, true} {
		g := BuildGraph(manualPairs(t, 2, pin))
		for _, n := range g.Nodes {
			if !strings.HasPrefix(n.Name, "C") {
				continue
			}
			_, why, _, _, ok := g.TriggerFieldThrow(n)
			if ok == pin {
				t.Errorf("pinned %v: node %s: TriggerFieldThrow = %v (%s)", pin, n.Name, ok, why)
			}
		}
	}
}

// TestFieldThrowLinear: k Manual Triggers into k pinned Code nodes: the
// graph is built in at most 6× the CPU time for 4× the pairs (pinData was
// read through for each trigger edge: 4000 pairs took 1.3 s).
func TestFieldThrowLinear(t *testing.T) {
	const k = 500
	small, large := manualPairs(t, k, true), manualPairs(t, 4*k, true)
	build := func(w *n8nschema.Workflow) func() {
		return func() {
			g := BuildGraph(w)
			for _, n := range g.Nodes {
				g.FailsWhy(n)
			}
		}
	}
	st, lt := cputime.Scales(3, 3, 6, build(small), build(large))
	t.Logf("%d pairs: %v; %d pairs: %v", k, st, 4*k, lt)
	if lt > 6*st {
		t.Errorf("%d pairs take %v, %d take %v: more than 6×", k, st, 4*k, lt)
	}
}

// TestFieldReadsOnce: each Code node's reads are found once per graph,
// however many times the graph and the rules ask (fieldReads).
func TestFieldReadsOnce(t *testing.T) {
	g := BuildGraph(manualPairs(t, 3, false))
	for _, n := range g.Nodes {
		g.FailsWhy(n)
		g.TriggerFieldThrow(n)
	}
	for i, n := range g.Nodes {
		if !strings.HasPrefix(n.Name, "C") {
			continue
		}
		if len(g.fieldReadOnce) != len(g.Nodes) || len(g.fieldReadsBy[i]) != 1 {
			t.Fatalf("node %s: reads not memoized", n.Name)
		}
	}
}
