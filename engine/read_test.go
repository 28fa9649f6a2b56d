package engine

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

type countedReader struct {
	r     io.Reader
	reads int
}

func (c *countedReader) Read(b []byte) (int, error) {
	c.reads++
	return c.r.Read(b)
}

// TestReadFileStopsAtItsSize: a file is read in one read when its size
// is right, and to its end when the read meets more (a file that grew).
func TestReadFileStopsAtItsSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w.json")
	for _, n := range []int{0, 1, 4095, 4096, 70000} {
		want := strings.Repeat("y", n)
		if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := ReadFile(p, 1<<20)
		if err != nil || string(b) != want {
			t.Errorf("%d bytes: read %d bytes, err %v", n, len(b), err)
		}
	}
	// One read when the size is right: the read that would meet the end
	// is not made.
	for _, n := range []int{1, 4096, 70000} {
		r := &countedReader{r: strings.NewReader(strings.Repeat("z", n))}
		if b, err := readSized(r, 1<<20, int64(n)); err != nil || len(b) != n || r.reads != 1 {
			t.Errorf("%d bytes of size %d: read %d bytes in %d reads, err %v; want 1 read", n, n, len(b), r.reads, err)
		}
	}
	// A reader that holds more than the size says reads on to the end.
	b, err := readInto(strings.NewReader("abcdef"), 100, make([]byte, 0, 8), 3)
	if err != nil || string(b) != "abcdef" {
		t.Errorf("grown file: %q, %v", b, err)
	}
}

// TestReadSized pins the bounded reader on both sides of the ceiling,
// with and without a size guess, and with a guess that is wrong (a file
// that grew after fstat).
func TestReadSized(t *testing.T) {
	for _, tt := range []struct {
		n, limit, size int64
		tooLarge       bool
	}{
		{0, 10, 0, false}, {10, 10, 0, false}, {11, 10, 0, true}, {10, 10, 10, false},
		{5000, 5000, 100, false}, {5001, 5000, 5001, true}, {100, 1 << 20, 0, false}, {1 << 20, 1 << 20, 1 << 20, false},
	} {
		readers := map[string]func(io.Reader) io.Reader{"whole": func(r io.Reader) io.Reader { return r }}
		if tt.size == tt.n || tt.size < 0 {
			// Short reads: with the true size (or none) the whole input
			// still comes, read to its end.
			readers["one byte"] = iotest.OneByteReader
			readers["half"] = iotest.HalfReader
		}
		for name, wrap := range readers {
			b, err := readSized(wrap(strings.NewReader(strings.Repeat("x", int(tt.n)))), tt.limit, tt.size)
			switch {
			case tt.tooLarge && !errors.Is(err, ErrTooLarge):
				t.Errorf("%s: %d bytes under %d: err %v, want ErrTooLarge", name, tt.n, tt.limit, err)
			case !tt.tooLarge && (err != nil || int64(len(b)) != tt.n):
				t.Errorf("%s: %d bytes under %d (size %d): %d bytes, err %v", name, tt.n, tt.limit, tt.size, len(b), err)
			}
		}
	}
}
