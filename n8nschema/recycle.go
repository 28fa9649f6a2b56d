package n8nschema

import (
	"math/bits"
	"sync"
	"testing"
)

// Recycling. The two-pass audit parses thousands of files, one after
// another on each core, and drops each once its group is released. The
// largest buffers of a parse (the bytes read, the tree's nodes, the line
// index, the blocks of its workflows' nodes and connections) then go to the
// next parse instead of to the collector: on n8n-real they were 75 of the
// 144 MB an audit allocated, and every MB not allocated is garbage not
// collected and, on a virtual machine, fresh pages not faulted in.
//
// A source whose bytes came from Buffer is marked owned (Source.Own);
// Parse then hands its tree the builder's arrays instead of copies, and
// File.Recycle gives all back once the file is released. A string still
// viewing the bytes, or a node of the full model, after that would read
// the next file's: under go test every recycled buffer is overwritten
// first, so such a view reads garbage and the tests comparing audits fail
// instead of passing by luck.

// Buffer returns an empty slice with room for at least n bytes, recycled
// when one is free: read a file into it and wrap it with NewSource and Own.
func Buffer(n int) []byte { return bytesPool.get(n) }

// Own says that s.Src came from Buffer (or make) and nothing but s holds
// it: File.Recycle may give it back, and Parse may give the tree arrays
// that Recycle gives back too. Call it before Parse.
func (s *Source) Own() { s.owned = true }

// Recycle gives back the buffers of f's parse when f's source is owned:
// its bytes, its tree's nodes, its line index and its node and connection
// blocks. Call it only once f is released (File.Release) and every string
// read from it that outlives it has been copied off (its workflows
// released, and findings on it: see analyze.Set.Release and
// analyze.ReleaseFindings). It does nothing to a source that is not owned,
// or while the file or one of its workflows is not released (their values
// read the tree).
func (f *File) Recycle() {
	s := f.Source
	if s == nil || !s.owned || !s.released {
		return
	}
	for _, w := range f.Workflows {
		if !w.released {
			return
		}
	}
	u := s.inUse
	if u == nil {
		return // recycled already
	}
	u.mu.Lock()
	spare := u.spare
	u.spare = recycled{}
	s.inUse = nil
	u.mu.Unlock()
	if spare.bytes != nil {
		bytesPool.put(poisoned(spare.bytes, 0xff))
	}
	if spare.nodes != nil {
		nodesPool.put(poisoned(spare.nodes, jnode{off: maxText, first: maxText, n: maxText, k: 0xff}))
	}
	if spare.lines != nil {
		linesPool.put(poisoned(spare.lines, maxText))
	}
	spare.blocks.recycle()
	for _, b := range spare.more {
		b.recycle()
	}
}

// recycledText is what a recycled node's strings read under go test.
const recycledText = "\xffrecycled"

// takeNodeBlocks returns zeroed blocks for count nodes and their bodies: for
// an owned source, blocks that File.Recycle gave back and takes again
// (they were 60% of what a parse allocated once the tree and the bytes
// were recycled).
func (s *Source) takeNodeBlocks(count int) ([]Node, []nodeBody) {
	if !s.owned {
		return make([]Node, count), make([]nodeBody, count)
	}
	block, bodies := nodeBlockPool.get(count)[:count], bodyPool.get(count)[:count]
	if poisonRecycled {
		clear(block)
		clear(bodies)
	}
	s.spare.keep(nodeBlocks{nodes: block, bodies: bodies})
	return block, bodies
}

// connBlock returns an empty slice with room for n connections: for an
// owned source, one that File.Recycle gave back and takes again.
func (s *Source) connBlock(n int) []Connection {
	if !s.owned {
		return make([]Connection, 0, n)
	}
	b := connPool.get(n)
	s.spare.keep(nodeBlocks{conns: b})
	return b
}

// keep notes blocks for Recycle.
func (r *recycled) keep(b nodeBlocks) {
	switch { // most files hold one workflow: its blocks need no list
	case b.nodes != nil && r.blocks.nodes == nil:
		r.blocks.nodes, r.blocks.bodies = b.nodes, b.bodies
	case b.conns != nil && r.blocks.conns == nil:
		r.blocks.conns = b.conns
	default:
		r.more = append(r.more, b)
	}
}

// blanked is poisoned for slices that hold pointers: outside go test it
// clears them instead, so that a kept block holds nothing alive and comes
// back zeroed.
func blanked[T any](s []T, bad T) []T {
	if poisonRecycled {
		return poisoned(s, bad)
	}
	clear(s[:cap(s)])
	return s[:0]
}

// recycled are the buffers of an owned source's parse, kept past Release
// for Recycle.
type recycled struct {
	bytes []byte
	nodes []jnode
	lines []uint32
	// the node and connection blocks of its workflows (wfParser.nodes,
	// connections): the first ones, then the others
	blocks nodeBlocks
	more   []nodeBlocks
}

type nodeBlocks struct {
	nodes  []Node
	bodies []nodeBody
	conns  []Connection
}

func (b nodeBlocks) recycle() {
	if b.nodes != nil {
		nodeBlockPool.put(blanked(b.nodes, Node{Index: -1, Name: recycledText, Type: recycledText}))
		bodyPool.put(blanked(b.bodies, nodeBody{ID: recycledText, Notes: recycledText}))
	}
	if b.conns != nil {
		connPool.put(blanked(b.conns, Connection{From: recycledText, To: recycledText, Output: -1}))
	}
}

// poisonRecycled makes Recycle overwrite what it gives back (see above).
var poisonRecycled = testing.Testing()

func poisoned[T any](s []T, bad T) []T {
	if poisonRecycled {
		s = s[:cap(s)]
		for i := range s {
			s[i] = bad
		}
	}
	return s[:0]
}

// slicePool keeps slices for reuse in power-of-two classes of capacity, so
// that get finds one large enough without searching. Slices of less than
// 1<<minClass elements are not worth keeping; those of more than
// 1<<maxClass (rare, large files) are left to the collector.
type slicePool[T any] struct {
	least int // the least class kept, when not minClass
	class [maxClass + 1]sync.Pool
}

const (
	minClass = 10
	maxClass = 24
)

var (
	bytesPool slicePool[byte]
	nodesPool slicePool[jnode]
	linesPool slicePool[uint32]
	// A workflow has tens of nodes, not thousands.
	nodeBlockPool = slicePool[Node]{least: 4}
	bodyPool      = slicePool[nodeBody]{least: 4}
	connPool      = slicePool[Connection]{least: 4}
)

func (p *slicePool[T]) minClass() int {
	if p.least > 0 {
		return p.least
	}
	return minClass
}

// get returns an empty slice with room for at least n elements.
func (p *slicePool[T]) get(n int) []T {
	c := max(bits.Len(uint(max(n, 1)-1)), p.minClass()) // 1<<c >= n
	if c > maxClass {
		return make([]T, 0, n)
	}
	if v, ok := p.class[c].Get().(*[]T); ok {
		return (*v)[:0]
	}
	return make([]T, 0, 1<<c)
}

// put keeps s for a later get; its contents are garbage from now on.
func (p *slicePool[T]) put(s []T) {
	c := bits.Len(uint(cap(s))) - 1 // 1<<c <= cap(s)
	if c < p.minClass() || c > maxClass {
		return
	}
	s = s[:0]
	p.class[c].Put(&s)
}
