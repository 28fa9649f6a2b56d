package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// botLookups is a Telegram bot whose run passes k Google Sheets lookups of
// the sender, one after another, and ends at a paid call.
func botLookups(t *testing.T, k int) (*Graph, *n8nschema.Node) {
	t.Helper()
	var nodes, conns []string
	nodes = append(nodes, `{"name":"Bot","type":"n8n-nodes-base.telegramTrigger","typeVersion":1.2,"position":[0,0],"parameters":{"updates":["message"]}}`)
	prev := "Bot"
	for i := range k {
		name := fmt.Sprintf("Look %d", i)
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"position":[0,0],"parameters":{"operation":"read","filtersUI":{"values":[{"lookupColumn":"chat","lookupValue":"={{ $('Bot').item.json.message.chat.id }}"}]}}}`, name))
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, prev, name))
		prev = name
	}
	src := `{"name":"bot","nodes":[` + strings.Join(nodes, ",") + `],"connections":{` + strings.Join(conns, ",") + `}}`
	f := n8nschema.Parse(n8nschema.NewSource("bot.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parsed %d workflows", len(f.Workflows))
	}
	g := BuildGraph(f.Workflows[0])
	return g, g.Nodes[0]
}

// TestSenderGatesLinear: the lookups a bot's run passes are judged in time
// linear in their number: whether the workflow writes each lookup's table
// is read once for all of them (writtenTypes), not once a lookup.
func TestSenderGatesLinear(t *testing.T) {
	const k = 500
	gs, ts := botLookups(t, k)
	gl, tl := botLookups(t, 4*k)
	run := func(g *Graph, tr *n8nschema.Node) func() {
		reach := map[*n8nschema.Node]bool{}
		for _, n := range g.Nodes {
			reach[n] = true
		}
		return func() {
			if gates := senderGates(g, reach, tr); len(gates) != len(g.Nodes)-1 {
				t.Fatalf("%d gates of %d lookups", len(gates), len(g.Nodes)-1)
			}
		}
	}
	st, lt := cputime.Scales(3, 3, 6, run(gs, ts), run(gl, tl))
	t.Logf("%d lookups: %v; %d lookups: %v", k, st, 4*k, lt)
	if lt > 6*st {
		t.Errorf("%d lookups take %v, %d take %v: more than 6×", k, st, 4*k, lt)
	}
}
