package rules

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestVersionMarks checks that versionMarks' byte scan clears no string
// versionMarkRE finds a mark in, on random strings of the pieces its
// alternatives read.
func TestVersionMarks(t *testing.T) {
	pieces := []string{"v", "V", "_v", "-v", "1", "22", ".", "..", "-", "_", " ", "/", "a", "n8n", "Sync", "ſ", "é", "x9"}
	rng := rand.New(rand.NewPCG(20, 29))
	marked := 0
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		for k := rng.IntN(8); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want := versionMarkRE.FindAllString(s, -1)
		if got := versionMarks(s); !slices.Equal(got, want) {
			t.Fatalf("versionMarks(%q) = %q, versionMarkRE finds %q", s, got, want)
		}
		if len(want) > 0 {
			marked++
		}
	}
	if marked < 1000 {
		t.Fatalf("only %d random strings held a mark: the test reads too little", marked)
	}
}
