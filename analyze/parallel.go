package analyze

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelFor calls fn(i) for every i in [0, n) on up to GOMAXPROCS
// goroutines. Each fn must write only to its own slot of the results; the
// caller reads them in index order afterwards, so output never depends on
// scheduling. A panic in fn is raised again in the caller's goroutine, so
// cmd's recover still turns it into an internal error.
func parallelFor(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		mu      sync.Mutex
		failed  bool
		panicAt = n
		panicV  any
	)
	for range workers {
		wg.Go(func() {
			i := -1
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if !failed || i < panicAt {
						failed, panicAt, panicV = true, i, r
					}
					mu.Unlock()
				}
			}()
			for {
				if i = int(next.Add(1) - 1); i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
	if failed {
		panic(panicV)
	}
}
