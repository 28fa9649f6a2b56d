package analyze

import (
	"math/rand"
	"strings"
	"testing"
)

// TestAppendLowerAsToLower: appendLower gives strings.ToLower's bytes on
// random strings of ASCII, runes that lower to ASCII (the Kelvin sign,
// the dotted capital I), other cased runes and invalid bytes.
func TestAppendLowerAsToLower(t *testing.T) {
	ps := []string{"a", "Z", "K", "\u212a", "\u0130", "é", "É", "\xff", "\xe2\x84", "\ufffd", "Σ", "ß", "x-Stripe", "\x00", "ǅ", "ﬀ"}
	rng := rand.New(rand.NewSource(1))
	for range 200_000 {
		x := pieces(rng, ps, 8)
		if got, want := string(appendLower([]byte("p"), x)), "p"+strings.ToLower(x); got != want {
			t.Fatalf("appendLower(%q) = %q, want %q", x, got, want)
		}
	}
}

// TestRecipientKeyAsRegexp: recipientKey answers as recipientKeyRE on
// random keys made of its words' pieces in any case, separators, the runes
// (?i) folds to ASCII letters and bytes outside ASCII.
func TestRecipientKeyAsRegexp(t *testing.T) {
	ps := []string{"to", "TO", "_", "number", "Number", "phone", "email", "participant", "s", "S", "\u017f", "chat", "id", "ID",
		"recipient", "receiver", "jid", "remote", "msisdn", "destination", "mobile", "reply", "token", "to\u212aen", "\n", " ", "é", "x"}
	rng := rand.New(rand.NewSource(2))
	for range 200_000 {
		k := pieces(rng, ps, 4)
		if got, want := recipientKey(k), recipientKeyRE.MatchString(k); got != want {
			t.Fatalf("recipientKey(%q) = %v, want %v", k, got, want)
		}
	}
}
