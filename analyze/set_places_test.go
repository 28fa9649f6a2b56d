package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestSetPlacesBeyondScan: a set of more workflows than scanPlaces finds
// each workflow's place by its map, a set of fewer by a scan, and both
// answer Graph, OperationsOf, CallsFrom and CallsTo with that workflow's
// own: each calls the next (the last the first) and makes one
// operation. A place off by one failed only the corpus summary.
func TestSetPlacesBeyondScan(t *testing.T) {
	for _, count := range []int{3, scanPlaces, scanPlaces + 1, 3 * scanPlaces} {
		var wfs []string
		for i := range count {
			wfs = append(wfs, fmt.Sprintf(`{"id":"wf%d","name":"W%d","nodes":[
	  {"name":"Start %d","type":"n8n-nodes-base.executeWorkflowTrigger","typeVersion":1,"parameters":{}},
	  {"name":"Call %d","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.example.com/%d"}},
	  {"name":"Next %d","type":"n8n-nodes-base.executeWorkflow","typeVersion":1.1,"parameters":{"workflowId":{"__rl":true,"mode":"id","value":"wf%d"}}}],
	 "connections":{"Start %d":{"main":[[{"node":"Call %d","type":"main","index":0}]]},"Call %d":{"main":[[{"node":"Next %d","type":"main","index":0}]]}}}`,
				i, i, i, i, i, i, (i+1)%count, i, i, i, i))
		}
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte("["+strings.Join(wfs, ",")+"]")))
		if len(f.Problems) > 0 || len(f.Workflows) != count {
			t.Fatalf("%d: bad file: %d workflows, %v", count, len(f.Workflows), f.Problems)
		}
		s := Build([]*n8nschema.File{f}, DefaultOptions())
		if (s.places != nil) != (count > scanPlaces) {
			t.Errorf("%d workflows: places made %v", count, s.places != nil)
		}
		for i, w := range s.Workflows {
			if g := s.Graph(w); g.Workflow != w {
				t.Errorf("%d: Graph(W%d) is %q's", count, i, g.Workflow.Name)
			}
			ops := s.OperationsOf(w)
			if len(ops) != 1 || ops[0].Workflow != w || ops[0].Node.Name != fmt.Sprintf("Call %d", i) {
				t.Errorf("%d: OperationsOf(W%d) = %d operations", count, i, len(ops))
			}
			if cs := s.CallsFrom(w); len(cs) != 1 || cs[0].From != w || cs[0].To != s.Workflows[(i+1)%count] {
				t.Errorf("%d: CallsFrom(W%d) = %d calls", count, i, len(cs))
			}
			if cs := s.CallsTo(w); len(cs) != 1 || cs[0].To != w || cs[0].From != s.Workflows[(i+count-1)%count] {
				t.Errorf("%d: CallsTo(W%d) = %d calls", count, i, len(cs))
			}
		}
		if s.at(&n8nschema.Workflow{}) != -1 {
			t.Errorf("%d: a workflow outside the set has a place", count)
		}
	}
}
