package n8nschema

import (
	"bytes"
	"testing"
)

// ownedParse parses releaseSrc from a recycled buffer, as the two-pass
// audit does, and returns the file with its tree.
func ownedParse(t *testing.T, own bool) (*File, *tree) {
	t.Helper()
	src := NewSource("w.json", append(Buffer(len(releaseSrc)), releaseSrc...))
	if own {
		src.Own()
	}
	f := Parse(src)
	if len(f.Workflows) != 1 || len(f.Problems) != 0 {
		t.Fatalf("parse: %d workflows, problems %v", len(f.Workflows), f.Problems)
	}
	return f, f.Workflows[0].Value.t
}

// TestRecycleGivesBack: once an owned file is released, Recycle gives its
// bytes, tree nodes and line index back, overwritten under go test; before
// the release, or for a source that is not owned, it gives back nothing.
func TestRecycleGivesBack(t *testing.T) {
	f, tr := ownedParse(t, true)
	b, nodes, lines := f.Source.Src, tr.nodes, f.Source.lineStarts
	node, body := f.Workflows[0].Nodes[0], f.Workflows[0].Nodes[0].nodeBody
	conns := f.Workflows[0].Connections
	if len(conns) == 0 {
		t.Fatal("releaseSrc has no connections")
	}
	if len(nodes) == 0 || len(lines) < 2 {
		t.Fatalf("tree of %d nodes, %d lines", len(nodes), len(lines))
	}
	f.Recycle() // not released: nothing happens
	if string(b) != releaseSrc {
		t.Fatal("Recycle before Release overwrote the bytes")
	}
	f.Release()
	f.Recycle() // the workflow is not released: its values read the tree
	if !bytes.Equal(b, []byte(releaseSrc)) || nodes[0].off == maxText {
		t.Fatal("Recycle gave back the buffers of a file whose workflow is not released")
	}
	f.Workflows[0].Release(nil)
	f.Recycle()
	if !poisonRecycled {
		t.Fatal("recycled buffers are not overwritten under go test")
	}
	if !bytes.Equal(b, bytes.Repeat([]byte{0xff}, len(b))) {
		t.Errorf("bytes not given back: %q", b)
	}
	for i, n := range nodes {
		if n.off != maxText {
			t.Fatalf("tree node %d not given back: %+v", i, n)
		}
	}
	for i, l := range lines {
		if l != maxText {
			t.Fatalf("line start %d not given back: %d", i, l)
		}
	}
	if node.Name != recycledText || node.nodeBody != nil || body.ID != recycledText {
		t.Errorf("node block not given back: %+v, body %+v", node, body)
	}
	if c := conns[0]; c.From != recycledText || c.To != recycledText {
		t.Errorf("connection block not given back: %+v", c)
	}
	if f.Source.inUse != nil {
		t.Error("Recycle kept what a released source no longer uses")
	}
	f.Recycle() // twice: nothing left to give

	f, _ = ownedParse(t, false)
	b = f.Source.Src
	f.Workflows[0].Release(nil)
	f.Release()
	f.Recycle()
	if string(b) != releaseSrc {
		t.Error("Recycle gave back the bytes of a source it does not own")
	}
}

// TestOwnedParseSameTree: a tree over an owned source (the builder's
// arrays) reads as one over a copy (exact copies).
func TestOwnedParseSameTree(t *testing.T) {
	owned, a := ownedParse(t, true)
	_, b := ownedParse(t, false)
	if len(a.nodes) != len(b.nodes) || !equalNodes(a.nodes, b.nodes) {
		t.Error("trees differ")
	}
	if got, want := owned.Source.lines(), bytes.Count([]byte(releaseSrc), []byte("\n"))+1; got != want {
		t.Errorf("%d lines, want %d", got, want)
	}
}

func equalNodes(a, b []jnode) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSlicePoolRoom: get always has room for what is asked, whatever was
// put back before.
func TestSlicePoolRoom(t *testing.T) {
	var p slicePool[byte]
	for _, n := range []int{0, 1, 1023, 1024, 1025, 5000, 1 << 20, 1<<24 + 1} {
		for _, put := range []int{1024, 1500, 4096, 1 << 20} {
			p.put(make([]byte, 3, put))
			if s := p.get(n); len(s) != 0 || cap(s) < n {
				t.Errorf("get(%d) after put(cap %d) = len %d cap %d", n, put, len(s), cap(s))
			}
		}
	}
}
