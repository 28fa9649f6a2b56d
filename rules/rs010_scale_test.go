package rules

import (
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

// scheduledFailures is one workflow of k copies of a schedule that starts
// a Code node failing on every run ($env called as a function): k
// triggers, each reaching its own copy.
func scheduledFailures(k int) *analyze.Set {
	var nodes, conns []string
	for i := range k {
		nodes = append(nodes,
			fmt.Sprintf(`{"name":"Hourly %d","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{"rule":{"interval":[{"field":"hours"}]}}}`, i),
			fmt.Sprintf(`{"name":"Read %d","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":"const key = $env('API_KEY');\nreturn [{json: {key}}];"}}`, i))
		conns = append(conns, fmt.Sprintf(`"Hourly %d":{"main":[[{"node":"Read %d","type":"main","index":0}]]}`, i, i))
	}
	return generatedSet("copies", nodes, conns)
}

// TestAlwaysFailsLinearInTriggers: RS010 over a workflow of many
// scheduled copies, each with a node that fails on every run, reports each
// once and takes at most 6× the CPU time for 4× the copies. Asking whether a
// person watches each failing node walked the workflow once per node and
// per trigger (a 4,000-node workflow took 1.6 s, 10,000 nodes 460× the
// time of 1,000).
func TestAlwaysFailsLinearInTriggers(t *testing.T) {
	const k = 300
	small, large := scheduledFailures(k), scheduledFailures(4*k)
	var fs, fl []analyze.Finding
	linearIn(t, "RS010 over copies", k, func() { fs = analyze.Run(small, []*analyze.Rule{rs010}) }, func() { fl = analyze.Run(large, []*analyze.Rule{rs010}) })
	if len(fs) != k || len(fl) != 4*k {
		t.Fatalf("RS010 findings: %d and %d, want %d and %d", len(fs), len(fl), k, 4*k)
	}
}
