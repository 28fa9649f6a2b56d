// Package heaproom keeps the Go heap of a run near a soft limit instead of
// twice the live heap (GOGC's default). The two-pass audit holds little
// (the largest group being audited and what the renderers read of the
// others), so an audit of ten thousand workflows lives in about 50 MB; the
// garbage collector would let the heap grow to twice that before it runs.
// The limit makes it run sooner. When the live heap itself nears the limit
// (a far larger set, one large file, --fix or graph holding a whole set),
// Keep raises the limit above it, so the collector never runs back to back
// on a heap it cannot shrink. Keep runs after every collection, not only
// where the audit calls it: a heap that outgrows the limit between calls
// would otherwise be collected in a loop.
//
// Start also has the first HugeRegion of heap backed by transparent huge
// pages (hugepages.go): page faults were a seventh of an audit's CPU.
package heaproom

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Soft is the limit a run starts with: the 96 MiB the issue-14 goals allow
// for ~150 MB of workflows, less the runtime's own memory outside the heap.
const Soft = 80 << 20

var (
	mu      sync.Mutex
	managed bool
	limit   int64
)

// Start sets the soft limit, unless GOMEMLIMIT already set one, and has
// the first HugeRegion of heap backed by huge pages (hugeHeap).
func Start() {
	hugeHeap(HugeRegion)
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	managed, limit = true, Soft
	debug.SetMemoryLimit(Soft)
	afterEachGC()
}

// sentinel is garbage from the start: its finalizer runs after each
// collection and arms itself again. It holds a pointer so that it is not
// a tiny allocation, whose finalizer may never run.
type sentinel struct{ _ *int }

// afterEachGC makes Keep run after every garbage collection.
func afterEachGC() {
	var again func(*sentinel)
	again = func(s *sentinel) {
		Keep()
		runtime.SetFinalizer(s, again)
	}
	runtime.SetFinalizer(&sentinel{}, again)
}

// Keep raises the limit to half again the live heap when that is above
// it: the collector then runs after the heap grows by half, as GOGC=50
// would have it, never in a loop. Cheap (no stop of the world); Start
// makes it run after every collection.
func Keep() {
	mu.Lock()
	defer mu.Unlock()
	if !managed {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := int64(s[0].Value.Uint64())
	if want := live + live/2; want > limit {
		limit = want
		debug.SetMemoryLimit(want)
	}
}

// Limit is the limit set now; 0 when Start left it to GOMEMLIMIT.
func Limit() int64 {
	mu.Lock()
	defer mu.Unlock()
	if !managed {
		return 0
	}
	return limit
}
