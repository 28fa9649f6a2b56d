// Package packstr copies strings that are kept long into shared chunks.
//
// What a released set keeps is copied while an audit's garbage is all
// around it. Copied one allocation each, every few dozen bytes of kept
// strings held a span of their size class part-empty once that garbage
// was collected; on the issue-14 big set those holes (heap/unused) left
// the collector too little room under the soft limit, and it ran back to
// back (docs/performance.md). Copied into an Arena, they fill whole chunks
// that share their spans with nothing that dies.
package packstr

import (
	"sync"
	"unsafe"
)

const (
	// Chunk is the size of a chunk: a size class of its own (one object
	// per span).
	Chunk = 32 << 10
	// Large is the longest string packed; a longer one gets an allocation
	// of its own, so at most 3 % of a chunk is left unused when a string
	// does not fit in what remains of it.
	Large = 1 << 10
)

// Arena packs the strings it copies. A chunk is freed once none of its
// strings is referenced. The zero Arena is ready; it is safe for
// concurrent use.
type Arena struct {
	mu sync.Mutex
	// buf is the chunk being filled; its bytes before len are never
	// written again.
	buf []byte
}

// Copy returns a string equal to s that shares no memory with it.
func (a *Arena) Copy(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > Large {
		return string([]byte(s))
	}
	a.mu.Lock()
	if len(s) > cap(a.buf)-len(a.buf) {
		a.buf = make([]byte, 0, Chunk)
	}
	start := len(a.buf)
	a.buf = append(a.buf, s...)
	p := unsafe.SliceData(a.buf[start:])
	a.mu.Unlock()
	return unsafe.String(p, len(s))
}
