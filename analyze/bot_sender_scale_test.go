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
		reach := g.newReach()
		for _, n := range g.Nodes {
			reach.add(n)
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

// askFanOut is a Telegram bot whose run asks the owner's service once (a
// GET with k query parameters, the sender's id last, so judging it walks
// all of them) and feeds the answer to k Ifs on $json.active.
func askFanOut(t *testing.T, k int) (*Graph, *n8nschema.Node) {
	t.Helper()
	var qs, nodes, outs []string
	for i := range k {
		qs = append(qs, fmt.Sprintf(`{"name":"q%d","value":"={{ $json.v%d }}"}`, i, i))
	}
	qs = append(qs, `{"name":"id","value":"={{ $('Bot').item.json.message.from.id }}"}`)
	nodes = append(nodes, `{"name":"Bot","type":"n8n-nodes-base.telegramTrigger","typeVersion":1.2,"position":[0,0],"parameters":{"updates":["message"]}}`,
		`{"name":"Ask","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"parameters":{"url":"https://svc.example-app.dev/check","sendQuery":true,"queryParameters":{"parameters":[`+strings.Join(qs, ",")+`]}}}`)
	for i := range k {
		name := fmt.Sprintf("If %d", i)
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.if","typeVersion":2,"position":[0,0],"parameters":{"conditions":{"combinator":"and","conditions":[{"leftValue":"={{ $json.active }}","rightValue":"","operator":{"type":"boolean","operation":"true"}}]}}}`, name))
		outs = append(outs, fmt.Sprintf(`{"node":%q,"type":"main","index":0}`, name))
	}
	src := `{"name":"bot","nodes":[` + strings.Join(nodes, ",") + `],"connections":{"Bot":{"main":[[{"node":"Ask","type":"main","index":0}]]},"Ask":{"main":[[` + strings.Join(outs, ",") + `]]}}}`
	f := n8nschema.Parse(n8nschema.NewSource("bot.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parsed %d workflows", len(f.Workflows))
	}
	g := BuildGraph(f.Workflows[0])
	return g, g.Nodes[0]
}

// TestSenderGatesFanOutLinear: one lookup that feeds k branches is judged
// once, not once a branch (review28 item 1): 4× the parameters and 4× the
// branches cost about 4×, where judging it per branch costs 16×.
func TestSenderGatesFanOutLinear(t *testing.T) {
	const k = 300
	gs, ts := askFanOut(t, k)
	gl, tl := askFanOut(t, 4*k)
	run := func(g *Graph, tr *n8nschema.Node) func() {
		reach := g.newReach()
		for _, n := range g.Nodes {
			reach.add(n)
		}
		return func() {
			if gates := senderGates(g, reach, tr); len(gates) != len(g.Nodes)-2 {
				t.Fatalf("%d gates of %d branches", len(gates), len(g.Nodes)-2)
			}
		}
	}
	st, lt := cputime.Scales(3, 3, 8, run(gs, ts), run(gl, tl))
	t.Logf("%d branches: %v; %d branches: %v", k, st, 4*k, lt)
	if lt > 8*st {
		t.Errorf("one lookup fanned out to %d branches takes %v, to %d %v: more than 8×", k, st, 4*k, lt)
	}
}
