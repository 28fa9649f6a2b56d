package n8nschema

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPlaceholderHostLabels checks PlaceholderHost's search for a label
// that starts with "your" against the label-by-label reading it stands
// for, on random hosts of the pieces it reads.
func TestPlaceholderHostLabels(t *testing.T) {
	words := []string{"-", "_", "domain", "site", "company", "instance", "server", "host", "n8n", "app", "api", "store", "shop", "url", "business", "website", "project", "org"}
	byLabel := func(h string) bool {
		for _, label := range strings.Split(h, ".") {
			if rest, ok := strings.CutPrefix(label, "your"); ok {
				for _, w := range words {
					if strings.HasPrefix(rest, w) {
						return true
					}
				}
			}
		}
		return false
	}
	pieces := []string{"your", "you", "r", ".", "-", "_", "domain", "dom", "app", "api", "n8n", "x", "com", "my", "yourdomain"}
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
		"yours.com": false, "n8n.yourcompany.io": true, "example.com": true, "api.stripe.com": false} {
		if got := PlaceholderHost(h); got != want {
			t.Errorf("PlaceholderHost(%q) = %v, want %v", h, got, want)
		}
	}
}
