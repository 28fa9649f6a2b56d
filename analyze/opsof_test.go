package analyze

import (
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

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
