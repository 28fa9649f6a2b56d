package rules

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/ascii"
)

// TestRateLimitStems: every word namesRateLimit looks for holds one of the
// stems it looks for first.
func TestRateLimitStems(t *testing.T) {
	for _, w := range rateLimitWords {
		if !containsAny(w, rateLimitStems) {
			t.Errorf("rate-limit word %q holds none of rateLimitStems %q", w, rateLimitStems)
		}
	}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"const RATE_LIMIT = 10", true},
		{"if (usage-limit) {}", true},
		{"Max Requests reached", true},
		{"out of credits", true},
		{"accredited", false},
		{"return items.map(i => i.json)", false},
		{"this request has no limit", false},
	} {
		if got := namesRateLimit(c.s); got != c.want {
			t.Errorf("namesRateLimit(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestNamesRateLimitAsLowered: namesRateLimit, which searches without a
// lowered copy, answers as looking in strings.ToLower(s) does, on random
// text of the words' pieces in both cases, separators, and the runes that
// lower to ASCII letters (the Kelvin sign, the dotted capital I) or change
// their length (Ⱥ) or are not UTF-8.
func TestNamesRateLimitAsLowered(t *testing.T) {
	lowered := func(s string) bool {
		s = strings.ToLower(s)
		if containsAny(s, rateLimitStems) {
			for _, w := range rateLimitWords {
				if strings.Contains(s, w) {
					return true
				}
			}
		}
		ends := func(k int) bool { return k >= len(s) || !ascii.IsWord(s[k]) }
		for i := 0; ; {
			j := strings.Index(s[i:], "credit")
			if j < 0 {
				return false
			}
			k := i + j + len("credit")
			if ends(k) || s[k] == 's' && ends(k+1) {
				return true
			}
			i = k
		}
	}
	pieces := []string{"rate", "RATE", "Rate", "limit", "LIMIT", "lim", "it", "max", "Max", "requests", "Request", "REQUEST",
		"count", "usage", "quota", "QUOTA", "quot", "throttl", "Throttle", "too", "many", "Too Many", "credit", "CREDIT", "Credit",
		"cred", "s", "S", "x", "_", "-", " ", "per", "\u212a", "\u0130", "İt", "\u023a", "\xff", "é", "q", "h", "y", "c", "d", "m"}
	r := rand.New(rand.NewSource(1))
	for range 200000 {
		var b strings.Builder
		for range r.Intn(10) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		s := b.String()
		if got, want := namesRateLimit(s), lowered(s); got != want {
			t.Fatalf("namesRateLimit(%q) = %v, lowered %v", s, got, want)
		}
	}
}
