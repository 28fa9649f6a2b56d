package pack

import (
	"sync"
	"testing"
	"unsafe"
)

type item struct {
	name string
	n    int
	next *item
}

// TestSlabMake: arrays are zeroed, cut one after another from a chunk,
// and an append to one copies it instead of writing over the next.
func TestSlabMake(t *testing.T) {
	var s Slab[item]
	a := s.Make(3)
	b := s.Make(2)
	if len(a) != 3 || cap(a) != 3 || len(b) != 2 || cap(b) != 2 {
		t.Fatalf("len/cap %d/%d and %d/%d, want 3/3 and 2/2", len(a), cap(a), len(b), cap(b))
	}
	for _, x := range append(a, b...) {
		if x != (item{}) {
			t.Fatalf("not zeroed: %+v", x)
		}
	}
	if &b[0] != (*item)(unsafe.Add(unsafe.Pointer(&a[0]), 3*unsafe.Sizeof(item{}))) {
		t.Error("second array is not cut right after the first")
	}
	a[2].name = "kept"
	a = append(a, item{name: "appended"})
	if b[0].name != "" || a[2].name != "kept" {
		t.Errorf("append wrote over the next array: %+v", b[0])
	}
	if got := s.Make(0); got == nil || len(got) != 0 {
		t.Errorf("Make(0) = %#v, want an empty slice", got)
	}
	per := Chunk / int(unsafe.Sizeof(item{}))
	before := len(s.buf)
	if big := s.Make(per/4 + 1); len(big) != per/4+1 || len(s.buf) != before {
		t.Errorf("an array over a quarter of a chunk was cut from it")
	}
}

// TestSlabChunks: arrays never straddle two chunks, and a new chunk
// starts when the rest of the old one is too short.
func TestSlabChunks(t *testing.T) {
	var s Slab[int64]
	per := Chunk / 8
	chunks := 0
	for i := range 4 * per / 100 {
		prev := unsafe.SliceData(s.buf)
		n := 1 + i%(per/4)
		got := s.Make(n)
		if unsafe.SliceData(s.buf) != prev {
			chunks++
		}
		end := unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.buf)), len(s.buf)*8)
		if cap(s.buf) != per || unsafe.Add(unsafe.Pointer(&got[0]), n*8) != end {
			t.Fatalf("array %d (%d long) is not the last piece of its chunk", i, n)
		}
		for j := range got {
			got[j] = int64(i)
		}
	}
	if chunks < 3 {
		t.Errorf("%d chunks, want at least 3", chunks)
	}
}

func TestSlabConcurrent(t *testing.T) {
	var s Slab[int]
	var wg sync.WaitGroup
	out := make([][][]int, 4)
	for g := range out {
		wg.Go(func() {
			for i := range 2000 {
				a := s.Make(1 + i%7)
				for j := range a {
					a[j] = g*10000 + i
				}
				out[g] = append(out[g], a)
			}
		})
	}
	wg.Wait()
	for g, as := range out {
		for i, a := range as {
			for _, v := range a {
				if v != g*10000+i {
					t.Fatalf("goroutine %d array %d holds %d: arrays overlap", g, i, v)
				}
			}
		}
	}
}
