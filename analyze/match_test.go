package analyze

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomText joins random pieces of what the scanners below look at, so
// that matches and near misses both come up often.
func randomText(r *rand.Rand, pieces []string) string {
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// The byte scanners stand in for regular expressions on hot paths: they
// must say what the regexps say (or, for the prefilters, never no when the
// regexp says yes).
func TestScannersMatchRegexps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"+", "-", "=", " ", "\t", "\n", "\v", "\f", "\r", "1", "10", "a", "_", "x1", "é", "ſ", "K", "\u212a",
		"{{", "}}", "page", "Page", "next_", "cursor", "Offset", "ſkip", "start", "count", "Count", "attempt", "RETRY", "tries",
		"trieſ", "iteration", "depth", "$runIndex", "İ", "\xff", ".", "$json.", "7", "0"}
	for range 50000 {
		s := randomText(r, pieces)
		if got, want := stepsByOne(s), stepRE.MatchString(s); got != want {
			t.Fatalf("stepsByOne(%q) = %v, stepRE says %v", s, got, want)
		}
		var ids []string
		eachIdent(s, func(id string) bool { ids = append(ids, id); return true })
		if want := identRE.FindAllString(s, -1); !slices.Equal(ids, want) {
			t.Fatalf("eachIdent(%q) = %q, identRE says %q", s, ids, want)
		}
		if got, want := cursorName(s), cursorRE.MatchString(s); got != want {
			t.Fatalf("cursorName(%q) = %v, cursorRE says %v", s, got, want)
		}
		if (guardRE.MatchString(s) || counterRE.MatchString(s)) && !mayTestGuard(s) {
			t.Fatalf("mayTestGuard(%q) is false, but a guard regexp matches", s)
		}
	}
}
