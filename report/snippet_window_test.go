package report

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// writeWindowByRune is writeWindow as it was, one rune at a time: the
// reference for its runs of printable ASCII.
func writeWindowByRune(out *strings.Builder, b []byte, ds, de, caret int, spans [][2]int) int {
	col, si := 0, 0
	for i := ds; i < de; {
		c, size := utf8.DecodeRune(b[i:])
		for si < len(spans) && spans[si][1] <= i {
			si++
		}
		text := ""
		switch {
		case si < len(spans) && spans[si][0] <= i:
			text = "*"
		case c == '\t':
			text = " "
		case unprintable(c) || c == utf8.RuneError && size == 1:
			text = Printable(string(b[i : i+size]))
		default:
			text = string(b[i : i+size])
		}
		out.WriteString(text)
		if i < caret {
			col += utf8.RuneCountInString(text)
		}
		i += size
	}
	return col
}

// TestWriteWindowByRuns compares writeWindow with the per-rune loop on
// lines of printable ASCII, tabs, control bytes, DEL, wide and invisible
// runes and broken UTF-8, with spans and the caret anywhere.
func TestWriteWindowByRuns(t *testing.T) {
	rng := rand.New(rand.NewSource(34))
	pieces := []string{"a", "Z", " ", "~", "\"", "{", "\t", "\x00", "\x1f", "\x7f", "\u0085", "é", "日本", "\u200b", "\u2028", "\ufeff", "\xff", "\xe6\x97", "😀", "key", "value"}
	for n := 0; n < 20000; n++ {
		var sb strings.Builder
		for k := rng.Intn(30); k >= 0; k-- {
			sb.WriteString(pieces[rng.Intn(len(pieces))])
		}
		b := []byte(sb.String())
		ds := rng.Intn(len(b) + 1)
		de := ds + rng.Intn(len(b)-ds+1)
		caret := rng.Intn(len(b) + 2)
		var spans [][2]int
		for at := 0; at < len(b); {
			s := at + rng.Intn(8)
			e := s + 1 + rng.Intn(6)
			if s >= len(b) || rng.Intn(3) == 0 {
				break
			}
			spans = append(spans, [2]int{s, min(e, len(b))})
			at = e + 1
		}
		var got, want strings.Builder
		gc := writeWindow(&got, b, ds, de, caret, spans)
		wc := writeWindowByRune(&want, b, ds, de, caret, spans)
		if got.String() != want.String() || gc != wc {
			t.Fatalf("%q [%d, %d) caret %d spans %v:\n got %q col %d\nwant %q col %d", b, ds, de, caret, spans, got.String(), gc, want.String(), wc)
		}
	}
}
