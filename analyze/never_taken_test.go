package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// sameNeverTaken fails t where a node NeverTakenCandidates leaves out has
// connections DecidedGate says are never taken. It counts the nodes with
// such connections, and the candidates.
func sameNeverTaken(t *testing.T, g *Graph) (never, asked int) {
	t.Helper()
	cand := map[*n8nschema.Node]bool{}
	for _, n := range g.NeverTakenCandidates() {
		cand[n] = true
	}
	for _, n := range g.Nodes {
		d, ok := g.DecidedGate(n)
		if !ok || len(d.Never) == 0 {
			continue
		}
		never++
		if !cand[n] {
			t.Errorf("%s: %s (%s) never takes %d connections, and is no candidate", g.Workflow.Name, n.Name, n.Type, len(d.Never))
		}
	}
	return never, len(cand)
}

// TestNeverTakenCandidates: a literal If's dead output (in g.Unrun) and a
// Webhook-fed If whose test fails on every Webhook item are candidates;
// an If with no dead output in a graph without a Webhook is not.
func TestNeverTakenCandidates(t *testing.T) {
	const literal = `{"name":"w","nodes":[
{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
{"name":"If","type":"n8n-nodes-base.if","typeVersion":2,"position":[200,0],"parameters":{"conditions":{"conditions":[{"leftValue":"a","rightValue":"b","operator":{"type":"string","operation":"equals"}}],"combinator":"and"}}},
{"name":"Live","type":"n8n-nodes-base.if","typeVersion":2,"position":[200,200],"parameters":{"conditions":{"conditions":[{"leftValue":"={{ $json.a }}","rightValue":"b","operator":{"type":"string","operation":"equals"}}],"combinator":"and"}}},
{"name":"Y","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,0],"parameters":{}},
{"name":"N","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,100],"parameters":{}}],
"connections":{"T":{"main":[[{"node":"If","type":"main","index":0},{"node":"Live","type":"main","index":0}]]},
"If":{"main":[[{"node":"Y","type":"main","index":0}],[{"node":"N","type":"main","index":0}]]},
"Live":{"main":[[{"node":"Y","type":"main","index":0}],[{"node":"N","type":"main","index":0}]]}}}`
	g := BuildGraph(parseOne(t, literal))
	var names []string
	for _, n := range g.NeverTakenCandidates() {
		names = append(names, n.Name)
	}
	if len(names) != 1 || names[0] != "If" {
		t.Errorf("candidates %v, want [If]", names)
	}
	if never, _ := sameNeverTaken(t, g); never != 1 {
		t.Errorf("%d gates never take a connection, want 1 (If's true output)", never)
	}
}

// TestNeverTakenCandidatesCorpus: on every workflow of the corpora, every
// node at which DecidedGate names connections never taken is a candidate.
func TestNeverTakenCandidatesCorpus(t *testing.T) {
	never, asked := 0, 0
	for _, w := range corpustest.Workflows(t) {
		nv, a := sameNeverTaken(t, BuildGraph(w))
		never, asked = never+nv, asked+a
	}
	t.Logf("%d gates never take a connection; %d candidates", never, asked)
	if never == 0 {
		t.Error("no gate in the corpora never takes a connection: the comparison proves little")
	}
}
