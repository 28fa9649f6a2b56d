package fix

import (
	"runtime"
	"testing"
	"time"

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
// operations). The time is the process's CPU time, the least of 3 runs,
// so that other jobs on the machine weigh little.
func TestRepairsScaleLinearly(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("times repairs on generated sets")
	}
	for _, tt := range []struct {
		name string
		gen  func(int) []byte
		n    int
	}{
		{"chain", benchgen.Chain, 200},
		{"retried posts", benchgen.RetriedPosts, 2500},
	} {
		small, smallSteps := attachTime(t, tt.gen(tt.n))
		large, largeSteps := attachTime(t, tt.gen(4*tt.n))
		t.Logf("%s: %d → %v (%d steps), %d → %v (%d steps)", tt.name, tt.n, small, smallSteps, 4*tt.n, large, largeSteps)
		if large > 6*small {
			t.Errorf("%s: repairs of %d take %v, of %d %v: more than 6×", tt.name, tt.n, small, 4*tt.n, large)
		}
		if largeSteps > 6*smallSteps {
			t.Errorf("%s: repairs of %d read %d layers, of %d %d: more than 6×", tt.name, tt.n, smallSteps, 4*tt.n, largeSteps)
		}
	}
}

// attachTime is the least CPU time of 3 runs of Attach over the findings
// of the workflow, and the steps of the last.
func attachTime(t *testing.T, src []byte) (time.Duration, int) {
	t.Helper()
	files := []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", src))}
	set, fs := checker(analyze.DefaultOptions())(files)
	repaired := 0
	best, steps := time.Duration(1<<62), 0
	for range 3 {
		runtime.GC() // the garbage of the last run is not this one's
		start := cputime.Used()
		r := newRepairer(set, Options{})
		repaired = 0
		for i := range fs {
			if fs[i].Repair = r.repair(&fs[i]); fs[i].Repair != nil {
				repaired++
			}
		}
		best, steps = min(best, cputime.Used()-start), r.steps
	}
	if repaired == 0 {
		t.Fatal("no finding has a repair: the set does not exercise the repairer")
	}
	return best, steps
}
