package heaproom

import (
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// HugeRegion is how much heap Start has the runtime map at once and
// advise for transparent huge pages: the heap the soft limit lets a run
// grow to. A page is faulted in when first used, so a run that needs less
// (an audit of n8n-real: ~40 MB) holds no more memory for it; with 32 MiB
// the big set of issue 14 grew past it into 4 KiB pages and gained a
// fifth of what n8n-real gained (docs/performance.md).
const HugeRegion = Soft

// Transparent huge pages. Go maps its heap in 4 KiB pages and, since Go
// 1.21.1, leaves huge pages to the system's setting, which is most often
// "madvise": the heap then gets none. An audit grows its heap to ~40 MB
// in a fraction of a second, so each 4 KiB page is a fault, and on a
// virtual machine a fault is a trip to the hypervisor: 12 µs on the
// machine the benchmarks run on, where faults were a seventh of an
// audit's CPU (docs/performance.md). hugeHeap has the runtime map n bytes
// of heap in one piece (one allocation, freed at once: the first free
// pages the heap grows into) and advises them MADV_HUGEPAGE, so that they
// are faulted 2 MiB at a time. It does nothing (not even the collection)
// where the advice would change nothing: a system that gives huge pages to
// every mapping already, or none (hugeOnAdvice), or GODEBUG=disablethp=1,
// the runtime's own switch.
func hugeHeap(n int) {
	if n <= 0 || !hugeOnAdvice() || slices.Contains(strings.Split(os.Getenv("GODEBUG"), ","), "disablethp=1") {
		return
	}
	// Fresh pages from the system, not touched; no collection while b is
	// held, which could not free it.
	gogc := debug.SetGCPercent(-1)
	b := make([]byte, n)
	adviseHuge(b)
	runtime.KeepAlive(b)
	b = nil
	debug.SetGCPercent(gogc)
	runtime.GC() // frees b now: the heap grows into it from the start
}
