package heaproom

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestKeepRaisesTheLimitAboveALargeLiveHeap: with a live heap above the
// soft limit, Keep must lift the limit to half again that heap, so the
// collector is not driven to run back to back.
func TestKeepRaisesTheLimitAboveALargeLiveHeap(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetMemoryLimit(math.MaxInt64)
	Start()
	if got := Limit(); got != Soft {
		t.Fatalf("after Start, Limit() = %d, want %d", got, Soft)
	}
	held := make([][]byte, 0, 128)
	for range 120 {
		held = append(held, make([]byte, 1<<20)) // 120 MiB, above Soft
	}
	runtime.GC() // the live-heap metric is updated by a collection
	Keep()
	if got, min := Limit(), int64(120<<20)*3/2; got < min {
		t.Errorf("live heap 120 MiB: Limit() = %d MiB, want at least %d MiB", got>>20, min>>20)
	}
	if got := debug.SetMemoryLimit(-1); got != Limit() {
		t.Errorf("the runtime's limit is %d, Limit() says %d", got, Limit())
	}
	runtime.KeepAlive(held)
}

// TestTheLimitFollowsAHeapThatOutgrowsIt: when the live heap grows past
// the soft limit and nothing calls Keep (pass 1, one large file, --fix,
// graph), the limit must still be lifted after a collection, or the
// collector runs back to back (a 200 KB hostile file took 9 s, not 2).
func TestTheLimitFollowsAHeapThatOutgrowsIt(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetMemoryLimit(math.MaxInt64)
	Start()
	defer func() {
		mu.Lock()
		managed = false
		mu.Unlock()
	}()
	held := make([][]byte, 0, 128)
	for range 120 {
		held = append(held, make([]byte, 1<<20)) // 120 MiB, above Soft
	}
	want := int64(120<<20) * 3 / 2
	for range 50 {
		runtime.GC()
		if Limit() >= want {
			break
		}
		time.Sleep(20 * time.Millisecond) // the finalizer runs on its own goroutine
	}
	if got := Limit(); got < want {
		t.Errorf("live heap 120 MiB, no Keep call: Limit() = %d MiB, want at least %d MiB", got>>20, want>>20)
	}
	runtime.KeepAlive(held)
}

// TestGOMEMLIMITWins: a limit the user set is left alone.
func TestGOMEMLIMITWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	mu.Lock()
	managed, limit = false, 0
	mu.Unlock()
	before := debug.SetMemoryLimit(-1)
	Start()
	Keep()
	if Limit() != 0 || debug.SetMemoryLimit(-1) != before {
		t.Errorf("Start/Keep changed the limit although GOMEMLIMIT is set")
	}
}

// gogc is the runtime's GOGC now.
func gogc() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestSmallHeapCollectsLate: a run starts at smallGOGC and goes back to
// 100 after the first collection that finds SmallHeap live.
func TestSmallHeapCollectsLate(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	defer debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetGCPercent(100)
	Start()
	defer func() {
		mu.Lock()
		managed, small = false, false
		mu.Unlock()
	}()
	if got := gogc(); got != smallGOGC {
		t.Fatalf("after Start, GOGC is %d, want %d", got, smallGOGC)
	}
	runtime.GC() // a few MB live: still small
	Keep()
	if got := gogc(); got != smallGOGC {
		t.Fatalf("small live heap: GOGC is %d, want %d", got, smallGOGC)
	}
	held := make([][]byte, 0, 32)
	for range SmallHeap>>20 + 4 {
		held = append(held, make([]byte, 1<<20))
	}
	runtime.GC()
	Keep()
	if got := gogc(); got != 100 {
		t.Errorf("live heap above SmallHeap: GOGC is %d, want 100", got)
	}
	runtime.KeepAlive(held)
}

// TestGOGCWins: a GOGC the user set is left alone.
func TestGOGCWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "150")
	defer debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetGCPercent(100)
	debug.SetGCPercent(150) // as the runtime read it at start
	Start()
	defer func() {
		mu.Lock()
		managed, small = false, false
		mu.Unlock()
	}()
	if got := gogc(); got != 150 {
		t.Errorf("GOGC=150 set: Start made it %d", got)
	}
}

// TestNextLimit pins the two raises: to half again a live heap above the
// limit, and up to Hard when the goal leaves under a fifth of the live
// heap to grow into.
func TestNextLimit(t *testing.T) {
	const mb = 1 << 20
	if Soft < 60*mb { // half again the cases' 40 MB live
		t.Fatalf("the cases below assume a Soft of at least 60 MiB, not %d", Soft/mb)
	}
	for _, tt := range []struct {
		live, goal, limit, want int64
	}{
		{10 * mb, 40 * mb, Soft, Soft},                 // room enough
		{120 * mb, 130 * mb, Soft, 180 * mb},           // live above the limit: half again
		{40 * mb, 46 * mb, Soft, Soft + 2*mb},          // 6 MB of room: raised by the 2 MB missing
		{40 * mb, 48 * mb, Soft, Soft},                 // a fifth exactly
		{40 * mb, 42 * mb, Soft, Hard},                 // 6 MB missing: only to Hard
		{40 * mb, 42 * mb, Hard, Hard},                 // at Hard already
		{40 * mb, 42 * mb, Hard + 10*mb, Hard + 10*mb}, // raised past Hard by the first rule: kept
		{200 * mb, 210 * mb, Hard + 10*mb, 300 * mb},   // and the first rule still raises it
	} {
		if got := nextLimit(tt.live, tt.goal, tt.limit); got != tt.want {
			t.Errorf("nextLimit(live %d MiB, goal %d MiB, limit %d MiB) = %d MiB, want %d MiB",
				tt.live/mb, tt.goal/mb, tt.limit/mb, got/mb, tt.want/mb)
		}
	}
}
