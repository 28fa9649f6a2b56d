package n8nschema

import (
	"hash/maphash"
	"math/bits"
)

// nameIndex finds a workflow's nodes by name: an open-addressing table
// made in one allocation, where a map of the same nodes took several (the
// map was a fifth of the objects the parser allocated on the corpus). The
// seed is random, as a map's is, so names made to collide cost no more.
type nameIndex struct {
	slots []*Node // len a power of two, at least twice the names
	mask  uint64
}

var nameSeed = maphash.MakeSeed()

func newNameIndex(count int) nameIndex {
	size := 1 << max(bits.Len(uint(2*count)), 3)
	return nameIndex{slots: make([]*Node, size), mask: uint64(size - 1)}
}

// get is the node indexed under name, or nil.
func (x *nameIndex) get(name string) *Node {
	if len(x.slots) == 0 {
		return nil
	}
	for i := maphash.String(nameSeed, name) & x.mask; ; i = (i + 1) & x.mask {
		n := x.slots[i]
		if n == nil || n.Name == name {
			return n
		}
	}
}

// add indexes n under its name unless a node already holds it, and
// returns that node (nil when n was added).
func (x *nameIndex) add(n *Node) *Node {
	for i := maphash.String(nameSeed, n.Name) & x.mask; ; i = (i + 1) & x.mask {
		switch s := x.slots[i]; {
		case s == nil:
			x.slots[i] = n
			return nil
		case s.Name == n.Name:
			return s
		}
	}
}
