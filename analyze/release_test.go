package analyze

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestReleaseKeepsOperationsAndCalls: a released set keeps every field of
// its operations and calls, their nodes light copies with the same name,
// type, position and settings; graphs go, and asking for one panics.
func TestReleaseKeepsOperationsAndCalls(t *testing.T) {
	s := load(t, DefaultOptions(), "subworkflow_http.json")
	o := op(t, s, "Child", "Post order")
	wantFacs, wantAttempts, wantNode, wantPos := facs(o.Factors), o.Attempts, o.Node.Name, o.Node.Pos
	c := s.Calls[0]
	callNode, callPos, entry := c.Node.Name, c.Pos, c.Entry[0].Name
	wantNodes := o.Workflow.NodeCount()

	s.Release()

	if o.Node.Name != wantNode || o.Node.Pos != wantPos || !o.Node.RetryOnFail || o.Attempts != wantAttempts ||
		o.Dependency != "api.shop.example" || !o.Write || o.Workflow.NodeCount() != wantNodes {
		t.Errorf("released operation = %+v, node %+v", o, o.Node)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the operation's node keeps its parameters")
			}
		}()
		o.Node.Param("url")
	}()
	if diff := cmp.Diff(wantFacs, facs(o.Factors)); diff != "" {
		t.Errorf("factors changed (-want +got):\n%s", diff)
	}
	// Moved into shared chunks: the set's operation is a copy of the
	// released one, with the same light node and chain.
	got := op(t, s, "Child", "Post order")
	if got == o || got.Node != o.Node || &got.Factors[0] != &o.Factors[0] || got.Attempts != o.Attempts ||
		got.Dependency != o.Dependency || got.Workflow != o.Workflow || len(s.Operations) != 1 || s.Operations[0] != got {
		t.Errorf("the set's operation after the release = %+v, want a copy of the released %+v", got, o)
	}
	if len(s.Calls) != 1 || s.Calls[0] != c || c.Node.Name != callNode || c.Pos != callPos || c.To.Name != "Child" ||
		len(c.Entry) != 1 || c.Entry[0].Name != entry || c.ref != (n8nschema.Value{}) {
		t.Errorf("released call = %+v", c)
	}
	if ops := s.OperationsOf(o.Workflow); len(ops) != 1 || ops[0] != got {
		t.Errorf("OperationsOf = %v", ops)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "released") {
			t.Errorf("Graph of a released workflow: recovered %v, want a panic", r)
		}
	}()
	s.Graph(o.Workflow)
}

// TestReleaseFindingsCopies: released findings say the same, in place and
// in the packed copy ReleaseFindings returns.
func TestReleaseFindingsCopies(t *testing.T) {
	s := load(t, DefaultOptions(), "subworkflow_http.json")
	o := op(t, s, "Child", "Post order")
	f := Finding{RuleID: "RS101", File: o.Workflow.Source.Name, Source: o.Workflow.Source, Pos: o.Node.Pos, Workflow: "Child",
		Node: o.Node.Name, Message: "m", Chain: o.Factors, Related: []Related{{File: "x", Pos: o.Node.Pos, Message: "r"}},
		Repair: &Repair{Description: "d", Edits: []Edit{{Source: o.Workflow.Source, Offset: 1, Text: "t", Start: o.Node.Pos}}}}
	want := f
	want.Repair = &Repair{Description: "d", Edits: []Edit{{Source: o.Workflow.Source, Offset: 1, Text: "t", Start: o.Node.Pos}}}
	fs := []Finding{f}
	kept := ReleaseFindings(fs)
	sameSource := cmp.Comparer(func(a, b *n8nschema.Source) bool { return a == b })
	if diff := cmp.Diff(want, fs[0], sameSource); diff != "" {
		t.Errorf("released finding differs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(fs, kept, sameSource); diff != "" || &kept[0] == &fs[0] || cap(kept) != 1 {
		t.Errorf("kept findings are not a copy of the released ones (cap %d; -released +kept):\n%s", cap(kept), diff)
	}
	if got := ReleaseFindings(nil); got != nil {
		t.Errorf("no findings: kept %#v", got)
	}
}

// TestOpsByWorkflow: each workflow's operations in order, adjacent or not,
// and appending to one never writes over the next.
func TestOpsByWorkflow(t *testing.T) {
	a, b := &n8nschema.Workflow{}, &n8nschema.Workflow{}
	ops := []*Operation{{Workflow: a, Type: "1"}, {Workflow: a, Type: "2"}, {Workflow: b, Type: "3"}, {Workflow: a, Type: "4"}}
	m := opsByWorkflow(ops)
	types := func(os []*Operation) (s string) {
		for _, o := range os {
			s += o.Type
		}
		return s
	}
	if types(m[a]) != "124" || types(m[b]) != "3" {
		t.Errorf("a: %q, b: %q; want 124 and 3", types(m[a]), types(m[b]))
	}
	_ = append(m[b], &Operation{Type: "x"})
	if types(ops) != "1234" {
		t.Errorf("appending to b's operations changed the set's: %q", types(ops))
	}
	if opsByWorkflow(nil) != nil {
		t.Error("no operations: want no map")
	}
}

// TestOperationsOfScan: a set without the index (a few workflows) finds a
// workflow's operations by scanning, adjacent or not, as the index would.
func TestOperationsOfScan(t *testing.T) {
	a, b, c := &n8nschema.Workflow{Name: "a"}, &n8nschema.Workflow{Name: "b"}, &n8nschema.Workflow{Name: "c"}
	op := func(w *n8nschema.Workflow) *Operation { return &Operation{Workflow: w} }
	for _, ops := range [][]*Operation{
		{op(a), op(a), op(b)},
		{op(b), op(a), op(a), op(b)}, // b's are not adjacent
		{op(a), op(b), op(a), op(c)},
		{},
	} {
		scan := &Set{Operations: ops}
		indexed := &Set{Operations: ops, opsOf: opsByWorkflow(ops)}
		for _, w := range []*n8nschema.Workflow{a, b, c} {
			got, want := scan.OperationsOf(w), indexed.OperationsOf(w)
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			if !slices.Equal(got, want) { // the same operations, by identity
				t.Errorf("workflow %s of %d operations: scan found %v, index %v", w.Name, len(ops), got, want)
			}
		}
	}
}

// TestPackOperations: the moved operations are the set's, in order, and
// so is what its index of operations (a set of more than scanWorkflows
// workflows) gives.
func TestPackOperations(t *testing.T) {
	var ws []*n8nschema.Workflow
	var ops []*Operation
	for i := range scanWorkflows + 2 {
		w := &n8nschema.Workflow{Name: fmt.Sprint(i)}
		ws = append(ws, w)
		ops = append(ops, &Operation{Workflow: w, Type: "a" + w.Name}, &Operation{Workflow: w, Type: "b" + w.Name})
	}
	s := &Set{Workflows: ws, Operations: slices.Clone(ops), opsOf: opsByWorkflow(ops)}
	s.packOperations()
	for i, op := range s.Operations {
		if op == ops[i] || op.Type != ops[i].Type || op.Workflow != ops[i].Workflow {
			t.Fatalf("operation %d: %p %+v, want a copy of %p %+v", i, op, op, ops[i], ops[i])
		}
	}
	for i, w := range ws {
		if got := s.OperationsOf(w); !slices.Equal(got, s.Operations[2*i:2*i+2]) {
			t.Errorf("OperationsOf(%s) = %v, want the moved %v", w.Name, got, s.Operations[2*i:2*i+2])
		}
	}
}

// TestCallsScan: a set without an index of its calls (a few workflows)
// finds a workflow's calls, made and received, by scanning, as the index
// would; all the set's calls come without a copy, capped.
func TestCallsScan(t *testing.T) {
	a, b, c := &n8nschema.Workflow{Name: "a"}, &n8nschema.Workflow{Name: "b"}, &n8nschema.Workflow{Name: "c"}
	call := func(from, to *n8nschema.Workflow) *Call { return &Call{From: from, To: to} }
	for _, calls := range [][]*Call{
		{call(a, b), call(a, nil), call(a, a)}, // all a's
		{call(b, a), call(a, b), call(a, c), call(b, nil)},
		{call(c, nil)},
		{},
	} {
		scan := &Set{Calls: calls}
		indexed := &Set{Calls: calls}
		indexed.callsFrom, indexed.callsTo = callsByWorkflow(calls)
		for _, w := range []*n8nschema.Workflow{a, b, c, nil} {
			for _, f := range []struct {
				name string
				of   func(*Set, *n8nschema.Workflow) []*Call
			}{{"from", (*Set).CallsFrom}, {"to", (*Set).CallsTo}} {
				got, want := f.of(scan, w), f.of(indexed, w)
				if !slices.Equal(got, want) { // the same calls, by identity, in order
					t.Errorf("calls %s %v of %d calls: scan found %v, index %v", f.name, w, len(calls), got, want)
				}
				if len(got) > 0 && len(got) == len(calls) && (&got[0] != &calls[0] || cap(got) != len(got)) {
					t.Errorf("calls %s %v: every call of the set, not the set's list, capped", f.name, w)
				}
			}
		}
	}
}
