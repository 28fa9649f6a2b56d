package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

// literalChain is a workflow of trigger (a schedule, or a Manual Trigger
// when byHand) feeding a chain of k HTTP Requests, each with a {{ }} left
// without "=" in the query of its URL.
func literalChain(k int, byHand bool) *analyze.Set {
	trigger := `{"name":"T","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{"rule":{"interval":[{"field":"hours"}]}}}`
	if byHand {
		trigger = `{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}}`
	}
	nodes := []string{trigger}
	var conns []string
	prev := "T"
	for i := range k {
		nodes = append(nodes, fmt.Sprintf(`{"name":"H%d","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"parameters":{"url":"https://x.example.com/a?ref={{ $json.a }}","options":{}}}`, i))
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":"H%d","type":"main","index":0}]]}`, prev, i))
		prev = fmt.Sprintf("H%d", i)
	}
	return generatedSet("lits", nodes, conns)
}

// TestLiteralExpressionLinearInChain: the clause that says why a finding
// is no warning (whyTable: watched, noWorkBefore) walks the graph once for
// the workflow, not once per node, so a chain of k literals is k findings
// and 4× the chain takes at most 6× the CPU time, behind a schedule and
// behind a Manual Trigger (where every node is asked whether only a
// person's run reaches it).
func TestLiteralExpressionLinearInChain(t *testing.T) {
	const k = 500
	for _, byHand := range []bool{false, true} {
		small, large := literalChain(k, byHand), literalChain(4*k, byHand)
		var fs, fl []analyze.Finding
		linearIn(t, fmt.Sprintf("RS012 over a chain (by hand %v)", byHand), k, func() { fs = analyze.Run(small, []*analyze.Rule{rs012}) }, func() { fl = analyze.Run(large, []*analyze.Rule{rs012}) })
		if len(fs) != k || len(fl) != 4*k {
			t.Fatalf("RS012 findings: %d and %d, want %d and %d", len(fs), len(fl), k, 4*k)
		}
		if want := "(only a run a person starts from the editor reaches it)"; byHand != strings.Contains(fl[len(fl)-1].Message, want) {
			t.Errorf("by hand %v: %q", byHand, fl[len(fl)-1].Message)
		}
	}
}

// droppedNode is an HTTP Request v4.2 with k top-level parameters its
// version lacks, each holding a {{ }} without "=".
func droppedNode(k int) *analyze.Set {
	var b strings.Builder
	for i := range k {
		fmt.Fprintf(&b, `,"k%d":"{{ $json.a }}"`, i)
	}
	nodes := []string{`{"name":"T","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{"rule":{"interval":[{"field":"hours"}]}}}`,
		`{"name":"H","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"parameters":{"url":"https://x.example.com/a","options":{}` + b.String() + `}}`}
	return generatedSet("dropped", nodes, []string{`"T":{"main":[[{"node":"H","type":"main","index":0}]]}`})
}

// TestLiteralExpressionLinearInDropped: the parameters n8n drops (RS011's)
// are left out by a set of their names, made once per node, so 4× the
// dropped parameters take at most 6× the CPU time.
func TestLiteralExpressionLinearInDropped(t *testing.T) {
	const k = 4000
	small, large := droppedNode(k), droppedNode(4*k)
	var fs []analyze.Finding
	linearIn(t, "RS012 over dropped parameters", k, func() { fs = analyze.Run(small, []*analyze.Rule{rs012}) }, func() { analyze.Run(large, []*analyze.Rule{rs012}) })
	if len(fs) != 0 {
		t.Fatalf("RS012 reports a dropped parameter: %v", fs[0].Message)
	}
}
