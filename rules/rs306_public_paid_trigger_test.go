package rules

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestReadsCredentialHeaderAsPattern checks readsCredentialHeader against
// callerCheckRE on random strings of the pieces the pattern reads.
func TestReadsCredentialHeaderAsPattern(t *testing.T) {
	pieces := []string{"headers", "Headers", "HEADERS", "header", "heade", "rs", "h", "[", "]", ".", "'", "\"", " ", "-", "_", "(",
		"authorization", "AUTHORIZATION", "x-api-key", "X-API-KEY", "api_key", "api-key", "apikey", "Api__key", "api", "key", "ke",
		"token", "toKen", "tok", "secret", "signature", "x-hub", "x-auth", "x-", "x", "a", "1", "é", "\u017f", "\u212a", "\xff"}
	rng := rand.New(rand.NewPCG(3, 6))
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		for k := rng.IntN(10); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := readsCredentialHeader(s), callerCheckRE.MatchString(s); got != want {
			t.Fatalf("readsCredentialHeader(%q) = %v, the pattern %v", s, got, want)
		}
	}
}

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
