package report

import (
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTextStyleAsLipgloss: without colour, a textStyle renders every text
// as its lipgloss style does, with and without a tab or a line break.
func TestTextStyleAsLipgloss(t *testing.T) {
	st := (&Text{}).styles(io.Discard)
	styles := []textStyle{st.pos, st.rule, st.dim, st.plain, st.caret, st.gutter}
	for _, s := range st.sev {
		styles = append(styles, s)
	}
	pieces := []string{"", "a", "node", " ", "  ", "\t", "\n", "\r\n", "\r", "é", "漢字", "👩🏻\u200d🏫", "\x1b[31m", "\x1b[0m", "|", "^^^", "…", "\u200b", "[RS101 attempt-budget]"}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		for _, s := range styles {
			if !s.colorless {
				t.Fatal("a style without colour is not colorless")
			}
			if got, want := s.Render(text), s.Style.Render(text); got != want {
				t.Fatalf("Render(%q) = %q, lipgloss renders %q", text, got, want)
			}
		}
	}
	if (&Text{Color: true}).styles(io.Discard).pos.colorless {
		t.Error("a style with colour is colorless")
	}
}
