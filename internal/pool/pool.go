// Package pool runs independent jobs on every core: the one place where
// stormcheck starts goroutines for work (parsing files, building graphs,
// running rules), so every job has the same panic path.
package pool

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Each calls fn(i) for every i in [0, n) on up to GOMAXPROCS goroutines.
// Each fn must write only to its own slot of the results; the caller reads
// them in index order afterwards, so output never depends on scheduling.
//
// A panic in fn is raised again in the caller's goroutine once every job
// has run, as a *Panic: the panic of the lowest index, whichever worker met
// it first, so the message is the same on every run. The caller's recover
// (cmd.Run's) turns it into an internal error, exit 3. A worker survives
// the panic of its job and takes the next, so no job is left waiting for a
// dead worker.
func Each(n int, fn func(i int)) {
	var (
		mu      sync.Mutex
		panicAt = n
		first   *Panic
	)
	run := func(i int) {
		defer func() {
			if r := recover(); r != nil {
				p, ok := r.(*Panic) // a nested Each's: keep its stack
				if !ok {
					p = &Panic{Value: r, Stack: debug.Stack()}
				}
				mu.Lock()
				if i < panicAt {
					panicAt, first = i, p
				}
				mu.Unlock()
			}
		}()
		fn(i)
	}
	if workers := min(runtime.GOMAXPROCS(0), n); workers <= 1 {
		for i := range n {
			run(i)
		}
	} else {
		var next atomic.Int64
		work := func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				run(i)
			}
		}
		// The caller is one of the workers: its stack has already grown,
		// where a new goroutine starts small and copies its stack as it
		// grows (the rules' pool runs once per audit).
		var wg sync.WaitGroup
		for range workers - 1 {
			wg.Go(work)
		}
		work()
		wg.Wait()
	}
	if first != nil {
		panic(first)
	}
}

// Panic is what Each raises when a job panicked: the job's panic value and
// the stack of the goroutine it panicked on, which the caller's own stack
// no longer shows.
type Panic struct {
	Value any
	Stack []byte
}

// String is the job's panic value, so "%v" prints what the job said.
func (p *Panic) String() string { return fmt.Sprint(p.Value) }
