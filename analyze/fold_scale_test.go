package analyze

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestFoldScalesLinearly: folding n findings of one key (n workflows that
// post to one host: RS505 once per workflow) takes at most 6× as long and
// allocates at most 6× as much for 4× the findings. Fold used to copy the
// kept finding's related places at every fold: quadratic. The time is
// the process's CPU time, the median of 5 runs (cputime.Median).
func TestFoldScalesLinearly(t *testing.T) {
	rules := []*Rule{{ID: "RS505", FoldMore: func(_ string, n int) string { return fmt.Sprintf("; %d more", n) }}}
	const n = 3000
	var smallBytes, largeBytes uint64
	small, large := folding(n, rules), folding(4*n, rules)
	st, lt := cputime.Scales(3, 5, 6, func() { smallBytes = small() }, func() { largeBytes = large() })
	t.Logf("%d findings: %v, %d bytes; %d: %v, %d bytes", n, st, smallBytes, 4*n, lt, largeBytes)
	if lt > 6*st {
		t.Errorf("folding %d findings takes %v, %d findings %v: more than 6×", n, st, 4*n, lt)
	}
	if largeBytes > 6*smallBytes {
		t.Errorf("folding %d findings allocates %d bytes, %d findings %d: more than 6×", n, smallBytes, 4*n, largeBytes)
	}
}

// folding makes n findings of one key, each with a related place of its
// own (the kept one's is copied, not appended to), and returns a function
// that folds them 10 times and returns the bytes the folds allocated.
func folding(n int, rules []*Rule) func() uint64 {
	fs := make([]Finding, n)
	for i := range fs {
		file := fmt.Sprintf("w%05d.json", i)
		fs[i] = Finding{RuleID: "RS505", File: file, Workflow: fmt.Sprint("W", i), Node: "Post",
			Pos: n8nschema.Pos{Line: 3, Col: 5}, Severity: Note, Message: "shared host", FoldKey: "api.example.com",
			Related: []Related{{File: file, Pos: n8nschema.Pos{Line: 9, Col: 5}, Message: "the trigger"}}}
	}
	return func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		for range 10 {
			out := Fold(slices.Clone(fs), rules)
			if len(out) != 1 || len(out[0].Related) != n {
				panic(fmt.Sprintf("folded %d findings into %d, %d related places", n, len(out), len(out[0].Related)))
			}
		}
		runtime.ReadMemStats(&ms)
		return ms.TotalAlloc - before
	}
}
