package analyze

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestFoldScalesLinearly: folding n findings of one key (n workflows that
// post to one host: RS505 once per workflow) takes at most 6× as long and
// allocates at most 6× as much for 4× the findings. Fold used to copy the
// kept finding's related places at every fold: quadratic. The time is
// the process's CPU time, the least of 3 runs.
func TestFoldScalesLinearly(t *testing.T) {
	rules := []*Rule{{ID: "RS505", FoldMore: func(n int) string { return fmt.Sprintf("; %d more", n) }}}
	const n = 3000
	small, smallBytes := foldCost(n, rules)
	large, largeBytes := foldCost(4*n, rules)
	t.Logf("%d findings: %v, %d bytes; %d: %v, %d bytes", n, small, smallBytes, 4*n, large, largeBytes)
	if large > 6*small {
		t.Errorf("folding %d findings takes %v, %d findings %v: more than 6×", n, small, 4*n, large)
	}
	if largeBytes > 6*smallBytes {
		t.Errorf("folding %d findings allocates %d bytes, %d findings %d: more than 6×", n, smallBytes, 4*n, largeBytes)
	}
}

// foldCost folds n findings of one key, each with a related place of its
// own (the kept one's is copied, not appended to), and returns the least
// CPU time of 3 runs and the bytes the last allocated.
func foldCost(n int, rules []*Rule) (time.Duration, uint64) {
	fs := make([]Finding, n)
	for i := range fs {
		file := fmt.Sprintf("w%05d.json", i)
		fs[i] = Finding{RuleID: "RS505", File: file, Workflow: fmt.Sprint("W", i), Node: "Post",
			Pos: n8nschema.Pos{Line: 3, Col: 5}, Severity: Note, Message: "shared host", FoldKey: "api.example.com",
			Related: []Related{{File: file, Pos: n8nschema.Pos{Line: 9, Col: 5}, Message: "the trigger"}}}
	}
	best, bytes := time.Duration(1<<62), uint64(0)
	var ms runtime.MemStats
	for range 3 {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		start := cputime.Used()
		out := Fold(fs, rules)
		best = min(best, cputime.Used()-start)
		runtime.ReadMemStats(&ms)
		bytes = ms.TotalAlloc - before
		if len(out) != 1 || len(out[0].Related) != n {
			panic(fmt.Sprintf("folded %d findings into %d, %d related places", n, len(out), len(out[0].Related)))
		}
	}
	return best, bytes
}
