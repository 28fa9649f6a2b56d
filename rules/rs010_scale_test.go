package rules

import (
	"fmt"
	"strings"
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

// gatesBeforeFailingTail is one workflow of a Webhook feeding k If nodes
// whose test reads only literals ("yes" equals "no"), each of whose true
// outputs, which no item takes, leads to the head of one chain of k Code
// nodes that fail on every run ($env called as a function).
func gatesBeforeFailingTail(k int) *analyze.Set {
	nodes := []string{`{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"x"}}`}
	var fan, conns []string
	for i := range k {
		nodes = append(nodes,
			fmt.Sprintf(`{"name":"Gate %d","type":"n8n-nodes-base.if","typeVersion":2.2,"position":[0,0],"parameters":{"conditions":{"options":{"caseSensitive":true,"leftValue":"","typeValidation":"strict","version":2},"conditions":[{"id":"c","leftValue":"yes","rightValue":"no","operator":{"type":"string","operation":"equals"}}],"combinator":"and"}}}`, i),
			fmt.Sprintf(`{"name":"Read %d","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":"const key = $env('API_KEY');\nreturn [{json: {key}}];"}}`, i))
		fan = append(fan, fmt.Sprintf(`{"node":"Gate %d","type":"main","index":0}`, i))
		conns = append(conns, fmt.Sprintf(`"Gate %d":{"main":[[{"node":"Read 0","type":"main","index":0}],[]]}`, i))
		if i+1 < k {
			conns = append(conns, fmt.Sprintf(`"Read %d":{"main":[[{"node":"Read %d","type":"main","index":0}]]}`, i, i+1))
		}
	}
	conns = append(conns, `"Hook":{"main":[[`+strings.Join(fan, ",")+`]]}`)
	return generatedSet("gates", nodes, conns)
}

// TestDecidedGatesLinearBeforeOneFailingTail: k decided gates before one
// tail of k failing nodes are k findings, each naming the faults behind its
// dead output (failsIfReached); the walks behind the gates share RS010's one
// budget, so 4× the gates and tail take at most 6× the CPU time, rather
// than each gate reading the whole tail again.
func TestDecidedGatesLinearBeforeOneFailingTail(t *testing.T) {
	const k = 300
	small, large := gatesBeforeFailingTail(k), gatesBeforeFailingTail(4*k)
	var fs, fl []analyze.Finding
	linearIn(t, "RS010 over decided gates", k, func() { fs = analyze.Run(small, []*analyze.Rule{rs010}) }, func() { fl = analyze.Run(large, []*analyze.Rule{rs010}) })
	if len(fs) != k || len(fl) != 4*k {
		t.Fatalf("RS010 findings: %d and %d, want %d and %d", len(fs), len(fl), k, 4*k)
	}
	for _, f := range fs {
		if !strings.Contains(f.Message, `; and behind it, "Read 0" would fail on every run: `) {
			t.Fatalf("%s: %q names no fault behind it", f.Node, f.Message)
		}
	}
	if !strings.Contains(fs[0].Message, fmt.Sprintf(`; so would "Read 1", for the same reason; so would %d more nodes behind it`, k-2)) {
		t.Errorf("first gate: %q", fs[0].Message)
	}
}

// requireChain is one manual trigger before a chain of k Code nodes, each
// calling require("lodash") (blocked by default) and none failing on every
// item.
func requireChain(k int) *analyze.Set {
	nodes := []string{`{"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}}`}
	conns := []string{`"Start":{"main":[[{"node":"Code 0","type":"main","index":0}]]}`}
	for i := range k {
		nodes = append(nodes, fmt.Sprintf(`{"name":"Code %d","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":"const _ = require('lodash');\nreturn items;"}}`, i))
		if i+1 < k {
			conns = append(conns, fmt.Sprintf(`"Code %d":{"main":[[{"node":"Code %d","type":"main","index":0}]]}`, i, i+1))
		}
	}
	return generatedSet("require", nodes, conns)
}

// TestBlockedRequireLinear: RS010's note on require() over a chain of Code
// nodes that each call it, with no node failing on every item, is one
// finding, and 4× the chain takes at most 6× the CPU time. Its walks are
// read once per workflow: memoized on BehindFrom's map, which is nil when
// no node fails, they were read again for every Code node (4,000 nodes
// 1.6 s against 0.2 s).
func TestBlockedRequireLinear(t *testing.T) {
	const k = 500
	small, large := requireChain(k), requireChain(4*k)
	var fs, fl []analyze.Finding
	linearIn(t, "RS010 over a require() chain", k, func() { fs = analyze.Run(small, []*analyze.Rule{rs010}) }, func() { fl = analyze.Run(large, []*analyze.Rule{rs010}) })
	if len(fs) != 1 || len(fl) != 1 {
		t.Fatalf("%d and %d findings, want one each", len(fs), len(fl))
	}
}
