package analyze

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
