package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
)

// sameSiblingSkip fails t where failing's skip of laterSiblingRead would
// lose an answer: a node of g for which namedRefRefusal reports no read
// to judge, and laterSiblingRead reports one. It counts the nodes
// laterSiblingRead reports, and those skipped.
func sameSiblingSkip(t *testing.T, g *Graph) (found, skipped int) {
	t.Helper()
	for i, nd := range g.Nodes {
		if nd.Disabled {
			continue
		}
		_, ok, reads := namedRefRefusal(g, i, &g.ran)
		if ok {
			continue
		}
		jr, sib := g.laterSiblingRead(i)
		if sib {
			found++
		}
		if !reads {
			skipped++
			if sib {
				t.Errorf("%s (%s): namedRefRefusal reports no read, laterSiblingRead reads %q", nd.Name, nd.Type, jr.Name)
			}
		}
	}
	return found, skipped
}

// TestSiblingReadSkipped: a node whose parameters read no node by name
// is not asked laterSiblingRead, which would find nothing; a node that
// reads a later sibling by name in an expression, or in its code, is.
func TestSiblingReadSkipped(t *testing.T) {
	const src = `{"name":"w","settings":{"executionOrder":"v1"},"nodes":[
{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
{"name":"F","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[200,0],"parameters":{}},
{"name":"Y","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,0],"parameters":{}},
{"name":"Z","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,200],"parameters":{}},
{"name":"R","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[600,0],"parameters":{"a":{"b":"={{ $('Z').item.json.x }}"}}},
{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"position":[600,100],"parameters":{"jsCode":"const z = $('Z').first().json;\nreturn [{json: z}];"}},
{"name":"N","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[800,0],"parameters":{"a":"={{ $json.x }}"}}],
"connections":{"T":{"main":[[{"node":"F","type":"main","index":0}]]},
"F":{"main":[[{"node":"Y","type":"main","index":0},{"node":"Z","type":"main","index":0}]]},
"Y":{"main":[[{"node":"R","type":"main","index":0},{"node":"C","type":"main","index":0}]]},
"R":{"main":[[{"node":"N","type":"main","index":0}]]}}}`
	g := BuildGraph(parseOne(t, src))
	for name, want := range map[string]bool{"R": true, "C": true, "N": false} {
		i, _ := g.index(g.Node(name))
		_, _, reads := namedRefRefusal(g, i, &g.ran)
		if reads != want {
			t.Errorf("namedRefRefusal(%s): reads = %v, want %v", name, reads, want)
		}
		if jr, ok := g.LaterSiblingRead(g.Node(name)); ok != want || ok && (jr.Name != "Z" || !jr.Sure) {
			t.Errorf("LaterSiblingRead(%s) = %+v, %v; want Z, sure: %v", name, jr, ok, want)
		}
	}
	sameSiblingSkip(t, g)
}

// TestSiblingReadSkippedCorpus: on every node of the corpora, a node
// namedRefRefusal reports no read for is one laterSiblingRead finds
// nothing in.
func TestSiblingReadSkippedCorpus(t *testing.T) {
	found, skipped := 0, 0
	for _, w := range corpustest.Workflows(t) {
		fd, sk := sameSiblingSkip(t, BuildGraph(w))
		found, skipped = found+fd, skipped+sk
	}
	// Only n8n-fresh holds nodes that read a later sibling.
	t.Logf("%d nodes read a later sibling, %d skipped", found, skipped)
	if found == 0 || skipped == 0 {
		t.Errorf("%d nodes read a later sibling, %d skipped: the comparison proves little", found, skipped)
	}
}
