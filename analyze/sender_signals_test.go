package analyze

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestSignalWordsInAsContains: signalWordsIn finds the signal words that
// strings.ToLower(x) contains, on random strings of the words' pieces in
// either case, the runes that lower to ASCII (the Kelvin sign, the dotted
// capital I) inside and beside them, other runes and invalid bytes.
func TestSignalWordsInAsContains(t *testing.T) {
	ps := []string{"x-", "X-", "slack", "SLAC", "\u212a", "K", "k", "-signature", "-SIGNATURE", "-retry", "body.", "BODY.", "Body",
		"event", "_callback", "url_verification", "stripe", "invoice.", "\u0130nvoice.", "INVOICE.", "paid", "entry[0].",
		"changes[0].value", "hub.", "verify_token", "i", "I", "\u0130", ".messaging_product", "orders/", "create", " ",
		"\x00", "é", "É", "\xff", "\xe2\x84", "github-event", "smssid", "CallSid", "line_items", "data.object", "shopify-"}
	rng := rand.New(rand.NewSource(32))
	n := 0
	for range 300_000 {
		x := pieces(rng, ps, 8)
		got, _ := signalWordsIn(x, nil, nil)
		low := strings.ToLower(x)
		for _, w := range signalWords {
			if want := strings.Contains(low, w); got[w] != want {
				t.Fatalf("signalWordsIn(%q)[%q] = %v, want %v", x, w, got[w], want)
			}
		}
		n += len(got)
	}
	if n < 1000 {
		t.Fatalf("only %d words found: the pieces no longer make the words", n)
	}
	// A word after a string that lowered (the buffer is reused) and
	// within one with a dotted capital I.
	in, low := signalWordsIn("\u0130 x", nil, nil)
	in, _ = signalWordsIn("X-Slack-Retry", in, low)
	if !in["x-slack-retry"] || len(in) != 1 {
		t.Fatalf("signalWordsIn after a lowered string: %v", in)
	}
}

// TestLowerToASCII: the runes outside ASCII that unicode.ToLower (and so
// strings.ToLower) maps into ASCII are exactly lowerToASCII.
func TestLowerToASCII(t *testing.T) {
	var into []string
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if unicode.ToLower(r) < utf8.RuneSelf {
			into = append(into, string(r))
		}
	}
	if !slices.Equal(into, []string{"\u0130", "\u212a"}) {
		t.Fatalf("runes lowered into ASCII %q, lowersToASCII marks U+0130 and U+212A", into)
	}
}

// TestReadSendersAsContains: readSenders answers as one search of the
// lowered, NUL-joined values per signal word did, for every webhook of
// the three corpora.
func TestReadSendersAsContains(t *testing.T) {
	webhooks, found := 0, 0
	for _, name := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		for _, f := range corpustest.FilesOf(t, name) {
			s := Build([]*n8nschema.File{f}, DefaultOptions())
			for _, w := range s.Workflows {
				g := s.Graph(w)
				for _, tr := range g.Triggers() {
					if tr.Type != n8nschema.TypeWebhook {
						continue
					}
					reached := g.walk(true, []*n8nschema.Node{tr})
					got, want := g.readSenders(reached, false), readSendersByContains(g, reached)
					if !slices.Equal(got.signals, want.signals) {
						t.Errorf("%s %q webhook %q: readSenders %+v, by search %+v", name, w.Name, tr.Name, got.signals, want.signals)
					}
					webhooks++
					for _, sig := range want.signals {
						if sig.strong != "" || sig.event != "" || sig.payload != "" {
							found++
							break
						}
					}
				}
			}
		}
	}
	t.Logf("%d webhooks, %d read a signal", webhooks, found)
}

// readSendersByContains is readSenders as it was: the values lowered and
// joined with NULs, searched once per word.
func readSendersByContains(g *Graph, reached Reach) *senderReads {
	r := &senderReads{signals: make([]struct{ strong, event, payload string }, len(senderSignals))}
	b := []byte{0}
	for i, n := range g.Nodes {
		if reached.Has(n) && !n.Disabled && !n.IsSticky() {
			for _, x := range g.paths(i) {
				b = append(appendLower(b, x), 0)
			}
		}
	}
	texts := string(b)
	first := func(words []string, has func(string) bool) string {
		for _, w := range words {
			if has(w) {
				return w
			}
		}
		return ""
	}
	contains := func(w string) bool { return strings.Contains(texts, w) }
	for i, sig := range senderSignals {
		r.signals[i].strong = first(sig.strong, contains)
		r.signals[i].event = first(sig.events, func(ev string) bool { return contains(ev) && quoted(texts, ev) })
		r.signals[i].payload = first(sig.payload, contains)
	}
	return r
}
