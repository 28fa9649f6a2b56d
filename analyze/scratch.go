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
	scratchPool.Put(s)
}

// graphMem is the memory the graphs of Build live in: a two-pass audit
// builds a graph for each workflow and drops it when the set is released
// (Set.Release gives it back to graphMemPool). On n8n-real the graphs
// were 5.4 of the 46 MB the first pass allocated, all of it fresh memory
// to fault in. A graph built by BuildGraph alone (nil graphMem) is
// allocated as usual.
type graphMem struct {
	graphs arena[Graph]
	nodes  arena[*n8nschema.Node]
	specs  arena[*n8nschema.Spec]
	edges  arena[Edge]
	eptrs  arena[*Edge]
	i32    arena[int32]
	bools  arena[bool]
}

var graphMemPool = sync.Pool{New: func() any { return new(graphMem) }}

func getGraphMem() *graphMem { return graphMemPool.Get().(*graphMem) }

// put gives the memory back, its pointers cleared: a graph read after its
// set's release finds nil where its nodes and edges were.
func (m *graphMem) put() {
	m.graphs.reset(true)
	m.nodes.reset(true)
	m.specs.reset(true)
	m.edges.reset(true)
	m.eptrs.reset(true)
	m.i32.reset(false)
	m.bools.reset(false)
	graphMemPool.Put(m)
}

// graph is a cleared Graph.
func (m *graphMem) graph() *Graph {
	if m == nil {
		return new(Graph)
	}
	return m.graphs.one()
}

func (m *graphMem) nodeList(n int) []*n8nschema.Node {
	if m == nil {
		return make([]*n8nschema.Node, 0, n)
	}
	return m.nodes.take(n)[:0]
}

func (m *graphMem) specList(n int) []*n8nschema.Spec {
	if m == nil {
		return make([]*n8nschema.Spec, n)
	}
	return m.specs.zeroed(n)
}

func (m *graphMem) edgeList(n int) []Edge {
	if m == nil {
		return make([]Edge, 0, n)
	}
	return m.edges.take(n)[:0]
}

func (m *graphMem) edgePtrs(n int) []*Edge {
	if m == nil {
		return make([]*Edge, n)
	}
	return m.eptrs.zeroed(n)
}

func (m *graphMem) int32s(n int) []int32 {
	if m == nil {
		return make([]int32, n)
	}
	return m.i32.zeroed(n)
}

func (m *graphMem) boolList(n int) []bool {
	if m == nil {
		return make([]bool, n)
	}
	return m.bools.zeroed(n)
}
