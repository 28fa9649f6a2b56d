package pool

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

func TestEachCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		calls := make([]atomic.Int32, n)
		Each(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n=%d: fn(%d) called %d times, want 1", n, i, c)
			}
		}
	}
}

// A panic reaches the caller whatever the number of workers, with the
// lowest failing index's value, and every job that does not panic still
// runs: a worker outlives the panic of its job.
func TestEachRaisesPanicInCaller(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			const n = 200
			var ran atomic.Int32
			got := func() (r any) {
				defer func() { r = recover() }()
				Each(n, func(i int) {
					if i%50 == 3 {
						panic(fmt.Sprintf("job %d", i))
					}
					ran.Add(1)
				})
				return nil
			}()
			p, ok := got.(*Panic)
			if !ok || p.Value != "job 3" || fmt.Sprint(p) != "job 3" {
				t.Errorf("recovered %#v, want a *Panic of \"job 3\"", got)
			} else if !strings.Contains(string(p.Stack), "pool_test.go") {
				t.Errorf("the panic's stack does not show the job that panicked:\n%s", p.Stack)
			}
			if r := ran.Load(); r != n-4 {
				t.Errorf("%d jobs ran, want %d (every job but the 4 that panic)", r, n-4)
			}
		})
	}
}

// Every worker panicking still returns: nothing is left waiting.
func TestEachAllWorkersPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	got := func() (r any) {
		defer func() { r = recover() }()
		Each(100, func(i int) { panic(i) })
		return nil
	}()
	if got == nil {
		t.Fatal("no panic reached the caller")
	}
}
