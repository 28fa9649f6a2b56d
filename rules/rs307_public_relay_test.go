package rules

import (
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

// relayChain is one workflow of an open Webhook feeding a chain of k Set
// nodes that keep the request, each with a Send Email to the caller's
// address hanging off it.
func relayChain(k int) *analyze.Set {
	nodes := []string{`{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"3c2f7a0e-5b7d-4c1e-9a51-0f6f3b2d9e11"}}`}
	var conns []string
	prev := "Hook"
	for i := range k {
		nodes = append(nodes,
			fmt.Sprintf(`{"name":"Keep %d","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"includeOtherFields":true,"assignments":{"assignments":[{"id":"a","name":"step","type":"number","value":%d}]}}}`, i, i),
			fmt.Sprintf(`{"name":"Mail %d","type":"n8n-nodes-base.emailSend","typeVersion":2.1,"position":[0,0],"parameters":{"fromEmail":"a@example.com","toEmail":"={{ $json.body.email }}","subject":"hi","emailFormat":"text","text":"hi"}}`, i))
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":"Keep %d","type":"main","index":0},{"node":"Mail %d","type":"main","index":0}]]}`, prev, i, i))
		prev = fmt.Sprintf("Keep %d", i)
	}
	return generatedSet("relays", nodes, conns)
}

// TestPublicRelayLinearInChain: RS307 follows each mailer's recipient
// back through the Set nodes before it to the request once per node and
// field (relayWalk's memo), so k mailers behind a chain of k Sets are k
// findings and 4× the chain takes at most 6× the CPU time.
func TestPublicRelayLinearInChain(t *testing.T) {
	const k = 300
	small, large := relayChain(k), relayChain(4*k)
	var fs, fl []analyze.Finding
	linearIn(t, "RS307 over a chain", k, func() { fs = analyze.Run(small, []*analyze.Rule{rs307}) }, func() { fl = analyze.Run(large, []*analyze.Rule{rs307}) })
	if len(fs) != k || len(fl) != 4*k {
		t.Fatalf("RS307 findings: %d and %d, want %d and %d", len(fs), len(fl), k, 4*k)
	}
}
