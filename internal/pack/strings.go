// Package pack packs what lives long into shared chunks.
//
// What a released set keeps (names, messages, light nodes, operations)
// is allocated while an audit's garbage is all around it. Allocated one
// object each, a few dozen kept bytes held a span of their size class
// part-empty once that garbage was collected; on the issue-14 big set
// those holes (heap/unused) left the collector too little room under the
// soft limit, and it ran back to back (docs/performance.md). Packed, they
// fill whole chunks that share their spans with nothing that dies.
//
// A chunk is freed once nothing in it is referenced, and a piece kept
// keeps its whole chunk alive, with whatever the chunk's other pieces
// point to: pack suits what is kept together, and pointers only to what
// is kept as well (the analysis packs what a set keeps once it is
// released, never before).
package pack

import (
	"sync"
	"unsafe"
)

const (
	// Chunk is the size of a chunk: a size class of its own (one object
	// per span).
	Chunk = 32 << 10
	// Large is the longest string Strings packs; a longer one gets an
	// allocation of its own, so at most 3 % of a chunk is left unused
	// when a string does not fit in what remains of it.
	Large = 1 << 10
)

// Strings packs the strings it copies. The zero Strings is ready; it is
// safe for concurrent use.
type Strings struct {
	mu sync.Mutex
	// buf is the chunk being filled; its bytes before len are never
	// written again.
	buf []byte
}

// Copy returns a string equal to s that shares no memory with it.
func (a *Strings) Copy(s string) string {
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

// Slab hands out arrays of T cut from shared chunks. The zero Slab is
// ready; it is safe for concurrent use.
type Slab[T any] struct {
	mu sync.Mutex
	// buf is the chunk being cut; its elements before len are handed out.
	buf []T
}

// Make returns n zeroed T, like make([]T, n). The slice's capacity is n:
// appending to it copies it rather than writing over the next array. An
// array larger than a quarter of a chunk gets an allocation of its own.
func (s *Slab[T]) Make(n int) []T {
	var zero T
	per := Chunk / max(int(unsafe.Sizeof(zero)), 1)
	if n == 0 || n > per/4 {
		return make([]T, n)
	}
	s.mu.Lock()
	if n > cap(s.buf)-len(s.buf) {
		s.buf = make([]T, 0, per)
	}
	start := len(s.buf)
	s.buf = s.buf[:start+n]
	out := s.buf[start : start+n : start+n]
	s.mu.Unlock()
	return out
}
