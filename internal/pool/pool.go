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
	// One allocation holds what the workers share; the jobs are many
	// (two or three pools per group of workflows) and most are small.
	e := &each{fn: fn, n: n, panicAt: n}
	if workers := min(runtime.GOMAXPROCS(0), n); workers <= 1 {
		for i := range n {
			e.run(i)
		}
	} else {
		// The caller is one of the workers: its stack has already grown,
		// where a new goroutine starts small and copies its stack as it
		// grows (the rules' pool runs once per audit). A nested Each
		// starts its helper even when every core already runs a job: the
		// switches at its Wait are where the collector's fractional mark
		// worker runs (two cores have no dedicated one); without them the
		// audit's allocations paid the marking as assists and the heap
		// overshot (docs/performance.md, round 33, perfD33).
		for range workers - 1 {
			e.wg.Go(e.work)
		}
		e.work()
		e.wg.Wait()
	}
	if e.first != nil {
		panic(e.first)
	}
}

// each is one call of Each.
type each struct {
	fn      func(i int)
	n       int
	next    atomic.Int64 // the next job a worker takes
	wg      sync.WaitGroup
	mu      sync.Mutex
	panicAt int // the lowest index that panicked (n: none)
	first   *Panic
}

// work runs the jobs not yet taken until none is left.
func (e *each) work() {
	for i := int(e.next.Add(1) - 1); i < e.n; i = int(e.next.Add(1) - 1) {
		e.run(i)
	}
}

// run runs job i, keeping its panic if it is the lowest index's so far.
func (e *each) run(i int) {
	defer func() {
		if r := recover(); r != nil {
			p, ok := r.(*Panic) // a nested Each's: keep its stack
			if !ok {
				p = &Panic{Value: r, Stack: debug.Stack()}
			}
			e.mu.Lock()
			if i < e.panicAt {
				e.panicAt, e.first = i, p
			}
			e.mu.Unlock()
		}
	}()
	e.fn(i)
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
