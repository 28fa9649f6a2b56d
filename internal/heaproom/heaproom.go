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
// While the live heap is small (below SmallHeap), the collector runs when
// the heap has grown to six times it (GOGC=500), not twice: a collection
// costs about the same on a heap of a few MB, and an audit of n8n-real
// ran 11 of them, 6 under 12 MB (3 at GOGC=300, 2 at 500). The first
// collection that finds SmallHeap live goes back to GOGC's default.
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
// for ~150 MB of workflows, less the ~10 MiB of the binary's own pages and
// room for the runtime's memory outside the limit. 72, not 80, since what
// a released set keeps is packed (package pack): the big set's heap then
// holds fewer holes (free slots in spans in use, which the limit counts),
// and its peak RSS went from ~91 to ~88 MiB; at 68 it was ~86 MiB for 8 %
// more CPU (docs/performance.md, seventh round).
const Soft = 72 << 20

// SmallHeap is the live heap below which the collector runs at smallGOGC:
// n8n-real's audit ends at ~16 MB live, so its run stays there until its
// last collection (peak RSS ~53 MiB, under the 64 MiB goal), while a
// large set leaves it early in its first pass, where the soft limit
// bounds the heap anyway.
const SmallHeap = 16 << 20

// smallGOGC is the GOGC of a small heap. 500, not 300 (the fifth round
// of issue 14): n8n-real's audit collects twice, not three times, 4 %
// faster; the big set, the generated workflows and the peak RSS of both
// sets no worse (docs/performance.md). At 800 the big set was 3 % slower.
const smallGOGC = 500

var (
	mu      sync.Mutex
	managed bool
	limit   int64
	// small is true while the collector runs at smallGOGC.
	small bool
)

// Start sets the soft limit, unless GOMEMLIMIT already set one, and
// smallGOGC while the heap is small, unless GOGC is set; it has the first
// HugeRegion of heap backed by huge pages (hugeHeap).
func Start() {
	hugeHeap(HugeRegion)
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	managed, limit = true, Soft
	debug.SetMemoryLimit(Soft)
	if os.Getenv("GOGC") == "" {
		small = true
		debug.SetGCPercent(smallGOGC)
	}
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

// Keep raises the limit when the collector would run too often under it
// (nextLimit). Once the live heap reaches SmallHeap, it sets GOGC back to
// 100. Cheap (no stop of the world); Start makes it run after every
// collection.
func Keep() {
	mu.Lock()
	defer mu.Unlock()
	if !managed {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return
	}
	live, goal := int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
	if small && live >= SmallHeap {
		small = false
		debug.SetGCPercent(100)
	}
	if next := nextLimit(live, goal, limit); next != limit {
		limit = next
		debug.SetMemoryLimit(next)
	}
}

// Hard is as far as nextLimit raises the limit for room over the live
// heap: the big set of issue 14 then peaks at 84-90 MiB of RSS, under the
// 96 MiB goal.
const Hard = Soft + 4<<20

// nextLimit is the limit after a collection that found live bytes live
// and set the heap goal to goal under limit:
//
//   - half again the live heap when that is above the limit: the
//     collector then runs after the heap grows by half, as GOGC=50 would
//     have it, never in a loop;
//   - else, when the goal leaves less than a fifth of the live heap to
//     grow into, raised by what is missing, up to Hard. The limit counts
//     the heap's overhead as well (free slots in spans that hold a few
//     live objects, free pages, metadata: ~27 MB on the big set in the
//     fifth round), so with 50 MB live under the 80 MiB limit of the time
//     the goal sat 3 to 7 MB above the live heap and the collector ran
//     every few MB: 28 % of that run's CPU.
func nextLimit(live, goal, limit int64) int64 {
	if want := live + live/2; want > limit {
		return want
	}
	if want := live + live/5; goal < want && limit < Hard {
		return min(limit+want-goal, Hard)
	}
	return limit
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
