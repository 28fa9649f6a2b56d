package report

import (
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/benchgen"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestSnippetsOfOneFileOfManyWorkflows: the snippets of an export that
// holds n workflows, one per workflow, take at most 6× the CPU time (the
// median of 5 runs) and read at most 6× the workflow ranges for 4× the
// workflows. Each snippet used to measure every workflow of its file to
// find the ones it shows: quadratic (16,000 workflows in one file took
// 380 s to audit).
func TestSnippetsOfOneFileOfManyWorkflows(t *testing.T) {
	const n = 1500
	var smallRanged, largeRanged int
	small, large := snippetsOf(t, n), snippetsOf(t, 4*n)
	st, lt := cputime.Scales(3, 5, 6, func() { smallRanged = small() }, func() { largeRanged = large() })
	t.Logf("%d workflows: %v, %d ranges read; %d: %v, %d", n, st, smallRanged, 4*n, lt, largeRanged)
	if lt > 6*st {
		t.Errorf("snippets of %d workflows take %v, of %d %v: more than 6×", n, st, 4*n, lt)
	}
	if largeRanged > 6*smallRanged {
		t.Errorf("snippets of %d workflows read %d ranges, of %d %d: more than 6×", n, smallRanged, 4*n, largeRanged)
	}
}

// snippetsOf parses a file of n workflows and returns a function that
// shows a snippet at each one's HTTP node, 3 times, with a new Redactor
// each time, and returns the workflow ranges the last one read.
func snippetsOf(t *testing.T, n int) func() int {
	t.Helper()
	f := n8nschema.Parse(n8nschema.NewSource("fleet.json", benchgen.SharedHost(n, true)))
	if len(f.Workflows) != n {
		t.Fatalf("%d workflows parsed, want %d", len(f.Workflows), n)
	}
	set := &analyze.Set{Files: []*n8nschema.File{f}, Workflows: f.Workflows}
	return func() int {
		var r *Redactor
		for range 3 {
			r = NewRedactor(set)
			for _, w := range f.Workflows {
				p := w.Node("Post").Pos
				if text, _ := r.Snippet(f.Source, p); !strings.Contains(text, `"Post"`) {
					t.Fatalf("snippet at %v: %q", p, text)
				}
			}
		}
		return r.ranged
	}
}
