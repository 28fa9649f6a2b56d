package analyze

import (
	"sync"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// scratch is the memory one graph or attempt model works in and drops
// when it is built: degrees, queues, adjacency lists, Tarjan's arrays,
// contexts. Builds take it from scratchPool and give it back, so an audit
// of many small sets (a two-pass audit's groups) allocates it about once
// per core instead of once per workflow. Nothing a build keeps may point
// into it.
type scratch struct {
	i32   arena[int32]
	bools arena[bool]
	adj   arena[[]int32] // points into i32 only
	memo  arena[[maxRootLevel + 1]rootMemo]
	// Pointer-holding parts, cleared when given back so that a pooled
	// scratch keeps no workflow alive.
	ctxs    arena[ctx]
	cedges  arena[cedge]
	cadj    arena[[]cedge]
	links   arena[link]
	factors arena[Factor]
	nodes   arena[*n8nschema.Node]
	chains  arena[pendingChain]
	outs    arena[outCount]
}

// arena hands out pieces of one array; a piece is not cleared unless
// asked (zeroed). When the array is full a larger one replaces it: the
// pieces already given keep the old one.
type arena[T any] struct {
	buf []T
	n   int
}

func (a *arena[T]) take(k int) []T {
	if a.n+k > len(a.buf) {
		a.buf = make([]T, max(2*len(a.buf), k, 64))
		a.n = 0
	}
	p := a.buf[a.n : a.n+k : a.n+k]
	a.n += k
	return p
}

func (a *arena[T]) zeroed(k int) []T {
	p := a.take(k)
	clear(p)
	return p
}

// one returns a pointer to a cleared element.
func (a *arena[T]) one() *T {
	return &a.zeroed(1)[0]
}

// mark and release give back what was taken since mark, for work
// repeated in a loop; a replaced array is left as it is.
func (a *arena[T]) mark() [2]int { return [2]int{a.n, len(a.buf)} }

func (a *arena[T]) release(m [2]int) {
	if len(a.buf) == m[1] {
		a.n = m[0]
	}
}

// reset makes the whole array free again; clear drops what it points to.
func (a *arena[T]) reset(clearIt bool) {
	if clearIt {
		clear(a.buf[:a.n])
	}
	a.n = 0
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

func putScratch(s *scratch) {
	s.i32.reset(false)
	s.bools.reset(false)
	s.adj.reset(true)
	s.memo.reset(false)
	s.ctxs.reset(true)
	s.cedges.reset(true)
	s.cadj.reset(true)
	s.links.reset(true)
	s.factors.reset(true)
	s.nodes.reset(true)
	s.chains.reset(true)
	s.outs.reset(true)
	scratchPool.Put(s)
}
