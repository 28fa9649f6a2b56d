package fix

import (
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/benchgen"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestRepairsScaleLinearly: computing every finding's repair (what a plain
// audit does to count the fixable findings) takes at most 6× as long on
// an input 4× as large, for the shapes that made it cubic (a chain of
// workflows each calling the next through a retried Execute Workflow: the
// retry-owner check read every call's layers per finding) and quadratic
// (one workflow of many retried POSTs: each finding scanned the workflow's
// operations). The time is the process's CPU time, the median of 3 runs
// (cputime.Median).
func TestRepairsScaleLinearly(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("times repairs on generated sets")
	}
	for _, tt := range []struct {
		name string
		gen  func(int) []byte
		n    int
	}{
		// An operation's attempt chain grows with the chain of calls
		// until 48 layers (analyze's maxChain): at 300 workflows and more,
		// the layers grow as the input does.
		{"chain", benchgen.Chain, 300},
		{"retried posts", benchgen.RetriedPosts, 2000},
	} {
		small, smallSteps := repairRun(t, tt.gen(tt.n))
		large, largeSteps := repairRun(t, tt.gen(4*tt.n))
		st, lt := cputime.Scales(3, 3, 6, small, large)
		t.Logf("%s: %d → %v (%d steps), %d → %v (%d steps)", tt.name, tt.n, st, *smallSteps, 4*tt.n, lt, *largeSteps)
		if lt > 6*st {
			t.Errorf("%s: repairs of %d take %v, of %d %v: more than 6×", tt.name, tt.n, st, 4*tt.n, lt)
		}
		if *largeSteps > 6**smallSteps {
			t.Errorf("%s: repairs of %d read %d layers and operations, of %d %d: more than 6×", tt.name, tt.n, *smallSteps, 4*tt.n, *largeSteps)
		}
	}
}

// repairRun audits the workflows and returns a run that computes every
// finding's repair with a new repairer, and the steps of the last run.
func repairRun(t *testing.T, src []byte) (func(), *int) {
	t.Helper()
	files := []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", src))}
	set, fs := checker(analyze.DefaultOptions())(files)
	steps := new(int)
	return func() {
		r := newRepairer(set, Options{})
		repaired := 0
		for i := range fs {
			if fs[i].Repair, _ = r.repair(&fs[i]); fs[i].Repair != nil {
				repaired++
			}
		}
		if repaired == 0 {
			t.Fatal("no finding has a repair: the set does not exercise the repairer")
		}
		*steps = r.steps
	}, steps
}
