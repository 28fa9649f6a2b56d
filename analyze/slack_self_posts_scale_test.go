package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// slackFan is a workflow of k Slack Triggers on one channel, all feeding a
// chain of k Set nodes (review24b item 2's shape).
func slackFan(t *testing.T, k int) *Graph {
	t.Helper()
	var nodes, conns []string
	for i := range k {
		nodes = append(nodes, fmt.Sprintf(`{"name":"S%d","type":"n8n-nodes-base.slackTrigger","typeVersion":1,"position":[0,0],"webhookId":"w%d","parameters":{"trigger":["message"],"channelId":{"__rl":true,"mode":"id","value":"C123"}}}`, i, i))
		conns = append(conns, fmt.Sprintf(`"S%d":{"main":[[{"node":"N0","type":"main","index":0}]]}`, i))
	}
	for j := range k {
		nodes = append(nodes, fmt.Sprintf(`{"name":"N%d","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"assignments":{"assignments":[{"id":"a","name":"x","value":"%s","type":"string"}]}}}`, j, strings.Repeat("y", 200)))
		if j+1 < k {
			conns = append(conns, fmt.Sprintf(`"N%d":{"main":[[{"node":"N%d","type":"main","index":0}]]}`, j, j+1))
		}
	}
	src := `{"nodes":[` + strings.Join(nodes, ",") + `],"connections":{` + strings.Join(conns, ",") + `}}`
	f := n8nschema.Parse(n8nschema.NewSource("slack.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parse: %v", f.Problems)
	}
	o := DefaultOptions()
	return buildGraph(f.Workflows[0], o.Version())
}

// TestSlackSelfPostsLinear: the Slack Triggers' walks take at most 6× the
// CPU time for 4× the triggers and nodes. Each trigger walked every node
// its run reaches, with a regexp over the parameters of each branch or
// Code node: 4,000 triggers took 3.3 s, 8,000 13.6 s. Past maxSlackWalks
// triggers are not walked.
func TestSlackSelfPostsLinear(t *testing.T) {
	const k = 200
	small, large := slackFan(t, k), slackFan(t, 4*k)
	st, lt := cputime.Scales(3, 3, 6, func() { ownWriteTriggers(small) }, func() { ownWriteTriggers(large) })
	t.Logf("%d triggers: %v; %d triggers: %v", k, st, 4*k, lt)
	if lt > 6*st {
		t.Errorf("%d triggers take %v, %d triggers %v: more than 6×", k, st, 4*k, lt)
	}
}
