package n8nschema

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestPlaceholderHostLabels checks PlaceholderHost's reading of a label
// that starts with "your" against a regular expression of it, on random
// hosts of the pieces it reads.
func TestPlaceholderHostLabels(t *testing.T) {
	fill := regexp.MustCompile(`(^|\.)your($|\.|-|_|n8n|[a-z]{3})`)
	byLabel := func(h string) bool {
		return fill.MatchString(strings.NewReplacer("yourstory", "x", "yourmembership", "x").Replace(h))
	}
	pieces := []string{"your", "you", "r", ".", "-", "_", "domain", "dom", "app", "api", "n8n", "x", "com", "my", "yourdomain", "s", "ls", "8"}
	rng := rand.New(rand.NewPCG(3, 29))
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		for k := rng.IntN(6); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		h := b.String()
		if strings.HasSuffix(h, ".test") || strings.HasSuffix(h, ".invalid") || strings.Contains(h, "example") {
			continue // placeholders for another reason
		}
		if got, want := PlaceholderHost(h), byLabel(h); got != want {
			t.Fatalf("PlaceholderHost(%q) = %v, by label %v", h, got, want)
		}
	}
	for h, want := range map[string]bool{"yourdomain.com": true, "api.your-instance.app": true, "myyourdomain.com": false,
		"yours.com": false, "n8n.yourcompany.io": true, "api.yourcourier.com": true, "yourshop.io": true, "your.nextcloud.com": true,
		"yourls.org": false, "api.yourmembership.com": false, "yourstory.com": false, "your1.com": false, "example.com": true, "api.stripe.com": false} {
		if got := PlaceholderHost(h); got != want {
			t.Errorf("PlaceholderHost(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	for s, want := range map[string]bool{
		"REPLACE_WITH_CREDENTIAL_ID": true,
		"YOUR_GEMINI_CREDENTIAL_ID":  true,
		"{{APIFY_CREDENTIAL_ID}}":    true,
		"{{INSTANCE_ID}}":            true,
		"REPLACE_WITH_INSTANCE_ID":   true,
		"xxx":                        true,
		"":                           false,
		"1":                          false, // an n8n 0.x credential id
		"xEdXDIPxkqE6OLxQ":           false, // a nanoid n8n gave
		"8f3a2b1c9d0e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a": false,
	} {
		if got := Placeholder(s); got != want {
			t.Errorf("Placeholder(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestPlaceholderSplit checks the three placeholder patterns against the
// one alternation they replace, on random strings of the pieces it reads.
func TestPlaceholderSplit(t *testing.T) {
	one := regexp.MustCompile(`(?i)^(<[^>]*>|\[[^\]]*\]|\{[^}]*\}|\{\{[^}]*\}\}|your[\s_-].*|x{3,}|\.{3}|replace[\s_-].*|.*placeholder.*|changeme|todo|tbd|.*api[\s_-]?key.*|.*secret.*|.*token.*)$|^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`)
	pieces := []string{"<", ">", "[", "]", "{", "}", "{{", "}}", "your", "YOUR", " ", "_", "-", "\n", "x", "X", ".", "replace",
		"PlaceHolder", "changeme", "todo", "TBD", "api", "key", "KEY", "secret", "token", "a", "Z", "9", "id", "\u212a"}
	rng := rand.New(rand.NewPCG(12, 3))
	matched := 0
	for i := 0; i < 200000; i++ {
		s := joinRandom(rng, pieces)
		want := one.MatchString(s)
		if got := placeholder(s); got != want {
			t.Fatalf("placeholder(%q) = %v, one pattern %v", s, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d random strings matched", matched)
	}
}

// TestMayBePlaceholder checks that the gate before the placeholder patterns lets
// through every string the regexp matches, on random strings of the
// pieces its alternatives read (cases, folds, separators, non-ASCII).
func TestMayBePlaceholder(t *testing.T) {
	pieces := []string{"your", "YOUR", "Yo", "ur", "replace", "REPLACE", "placeholder", "PlaceHolder", "changeme", "todo",
		"TBD", "api", "Api", "key", "KEY", "secret", "SECRET", "token", "Token", "x", "X", "xxx", ".", "...", "<", ">",
		"[", "]", "{", "}", "{{", "}}", "_", "-", " ", "\t", "\n", "a", "Z", "9", "abc", "ſ", "K", "é", "ID"}
	rng := rand.New(rand.NewPCG(12, 29))
	matched := 0
	for i := 0; i < 200000; i++ {
		s := joinRandom(rng, pieces)
		if placeholder(s) {
			matched++
			if !mayBePlaceholder(s) {
				t.Fatalf("mayBePlaceholder(%q) = false, but the placeholder patterns match it", s)
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d random strings matched: the test reads too little", matched)
	}
}

// joinRandom joins one to five pieces drawn at random.
func joinRandom(rng *rand.Rand, pieces []string) string {
	var b strings.Builder
	for k := rng.IntN(5); k >= 0; k-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}
