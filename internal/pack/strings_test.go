package pack

import (
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func TestCopy(t *testing.T) {
	var a Strings
	src := []byte("first second")
	view := unsafe.String(unsafe.SliceData(src), len(src))
	first, second := a.Copy(view[:5]), a.Copy(view[6:])
	copy(src, "XXXXXXXXXXXX")
	if first != "first" || second != "second" {
		t.Fatalf("copies changed with their source: %q %q", first, second)
	}
	// Packed: the second copy follows the first in the same chunk.
	if unsafe.StringData(second) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(first)), 5)) {
		t.Errorf("second copy is not packed after the first")
	}
	if a.Copy("") != "" {
		t.Errorf("empty string")
	}
	large := strings.Repeat("x", Large+1)
	before := len(a.buf)
	if got := a.Copy(large); got != large || len(a.buf) != before {
		t.Errorf("a string longer than Large went into the chunk (%d bytes used, %d before)", len(a.buf), before)
	}
}

// TestCopyChunks fills several chunks: each copy lies whole inside the
// chunk being filled, and keeps its bytes.
func TestCopyChunks(t *testing.T) {
	var a Strings
	var want, got []string
	chunks := 0
	for i := 0; i < 3*Chunk/100; i++ {
		s := strings.Repeat(string(rune('a'+i%26)), 1+i%Large)
		prev := unsafe.SliceData(a.buf)
		c := a.Copy(s)
		if unsafe.SliceData(a.buf) != prev {
			chunks++
		}
		base, p := uintptr(unsafe.Pointer(unsafe.SliceData(a.buf))), uintptr(unsafe.Pointer(unsafe.StringData(c)))
		if cap(a.buf) != Chunk || p < base || p+uintptr(len(c)) != base+uintptr(len(a.buf)) {
			t.Fatalf("copy %d is not the last bytes of its chunk", i)
		}
		want, got = append(want, s), append(got, c)
	}
	if chunks < 3 {
		t.Errorf("%d chunks filled, want at least 3", chunks)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("copy %d: %d bytes, want %d", i, len(got[i]), len(want[i]))
		}
	}
}

func TestCopyConcurrent(t *testing.T) {
	var a Strings
	var wg sync.WaitGroup
	out := make([][]string, 4)
	for g := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				out[g] = append(out[g], a.Copy(strings.Repeat(string(rune('a'+g)), 1+i%300)))
			}
		}()
	}
	wg.Wait()
	for g, ss := range out {
		for i, s := range ss {
			if want := strings.Repeat(string(rune('a'+g)), 1+i%300); s != want {
				t.Fatalf("goroutine %d copy %d: %q", g, i, s)
			}
		}
	}
}
