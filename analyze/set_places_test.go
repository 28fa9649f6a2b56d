package analyze

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestSetPlaces checks the set's lists by a workflow's place (Graph,
// OperationsOf, CallsFrom, CallsTo, operationOf) against the set's own
// lists, in sets small enough to be scanned and large enough to be
// mapped, with workflows that make no operation and calls between them.
func TestSetPlaces(t *testing.T) {
	for _, k := range []int{1, 2, scanPlaces, scanPlaces + 1, 3 * scanPlaces} {
		var b strings.Builder
		b.WriteString("[")
		for i := range k {
			if i > 0 {
				b.WriteString(",")
			}
			if i%3 == 2 { // no operation, no call
				fmt.Fprintf(&b, `{"id":"wf%d","name":"W%d","nodes":[{"id":"1","name":"When called","type":"n8n-nodes-base.executeWorkflowTrigger","typeVersion":1.1,"parameters":{}}],"connections":{}}`, i, i)
				continue
			}
			fmt.Fprintf(&b, `{"id":"wf%d","name":"W%d","nodes":[
			  {"id":"1","name":"When called","type":"n8n-nodes-base.executeWorkflowTrigger","typeVersion":1.1,"parameters":{}},
			  {"id":"2","name":"Notify","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"operation":"post","select":"channel","channelId":{"__rl":true,"mode":"name","value":"#ops"},"text":"done"}},
			  {"id":"3","name":"Call","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"parameters":{"workflowId":"wf%d"}}],
			 "connections":{"When called":{"main":[[{"node":"Notify","type":"main","index":0}]]},"Notify":{"main":[[{"node":"Call","type":"main","index":0}]]}}}`, i, i, (i+1)%k)
		}
		b.WriteString("]")
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(b.String())))
		if len(f.Workflows) != k {
			t.Fatalf("k=%d: %d workflows, %v", k, len(f.Workflows), f.Problems)
		}
		s := Build([]*n8nschema.File{f}, DefaultOptions())
		if (s.places != nil) != (k > scanPlaces) {
			t.Errorf("k=%d: places made: %v", k, s.places != nil)
		}
		var ops []*Operation
		for _, w := range s.Workflows {
			if g := s.Graph(w); g.Workflow != w {
				t.Errorf("k=%d: Graph(%s) is %s's", k, w.Name, g.Workflow.Name)
			}
			var want []*Operation
			for _, op := range s.Operations {
				if op.Workflow == w {
					want = append(want, op)
				}
			}
			if got := s.OperationsOf(w); !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Errorf("k=%d: OperationsOf(%s) = %d operations, want %d", k, w.Name, len(got), len(want))
			}
			ops = append(ops, s.OperationsOf(w)...)
			var from, to []*Call
			for _, c := range s.Calls {
				if c.From == w {
					from = append(from, c)
				}
				if c.To == w {
					to = append(to, c)
				}
			}
			if got := s.CallsFrom(w); !slices.Equal(got, from) {
				t.Errorf("k=%d: CallsFrom(%s) = %d calls, want %d", k, w.Name, len(got), len(from))
			}
			if got := s.CallsTo(w); !slices.Equal(got, to) {
				t.Errorf("k=%d: CallsTo(%s) = %d calls, want %d", k, w.Name, len(got), len(to))
			}
			for _, n := range w.Nodes {
				var want *Operation
				for _, op := range s.Operations {
					if op.Node == n {
						want = op
					}
				}
				if got := s.operationOf(n); got != want {
					t.Errorf("k=%d: operationOf(%s/%s) = %v, want %v", k, w.Name, n.Name, got, want)
				}
			}
		}
		if !slices.Equal(ops, s.Operations) || len(ops) != k-k/3 { // one each, Notify
			t.Errorf("k=%d: the workflows' operations are %d, the set's %d", k, len(ops), len(s.Operations))
		}
		if k > 1 && len(s.CallsFrom(s.Workflows[0])) != 1 {
			t.Errorf("k=%d: the first workflow makes %d calls, want 1", k, len(s.CallsFrom(s.Workflows[0])))
		}
		// A workflow outside the set gets a graph of its own, built once.
		other := n8nschema.Parse(n8nschema.NewSource("o.json", []byte(`{"name":"O","nodes":[],"connections":{}}`))).Workflows[0]
		if g := s.Graph(other); g == nil || g.Workflow != other || s.Graph(other) != g {
			t.Errorf("k=%d: Graph of a workflow outside the set", k)
		}
		if s.OperationsOf(other) != nil || s.CallsFrom(other) != nil || s.CallsTo(other) != nil {
			t.Errorf("k=%d: a workflow outside the set has operations or calls", k)
		}
	}
}

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
