package report

import (
	"math/rand"
	"testing"
)

// TestPrintStopMask compares printStopMask's lowest flag with a byte
// test on words of printable bytes with one or two stop bytes (below
// 0x20, DEL, past ASCII, 0xff) put anywhere: it fails if the mask skips
// a stop byte or flags a printable one first.
func TestPrintStopMask(t *testing.T) {
	stops := []byte{0x00, 0x1f, 0x7f, 0x80, 0xc2, 0xe2, 0xff}
	edges := []byte{0x20, 0x21, 0x7e, 'a', '"', '\\'}
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 200000; n++ {
		var w [8]byte
		for i := range w {
			if r.Intn(3) == 0 {
				w[i] = edges[r.Intn(len(edges))]
			} else {
				w[i] = byte(0x20 + r.Intn(0x5f))
			}
		}
		for k := r.Intn(3); k > 0; k-- {
			w[r.Intn(8)] = stops[r.Intn(len(stops))]
		}
		want := 8
		for i, b := range w {
			if b < 0x20 || b >= 0x7f {
				want = i
				break
			}
		}
		m := printStopMask(load8(string(w[:]), 0))
		got := 8
		if m != 0 {
			got = 0
			for m&0x80 == 0 {
				m >>= 8
				got++
			}
		}
		if got != want {
			t.Fatalf("% x: first stop %d, mask says %d", w, want, got)
		}
	}
}
