package analyze

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// TestContainsWordMatchesTheRegexp: containsWord answers as
// \b + QuoteMeta(w) + \b did, on random text over word bytes, non-word
// bytes and a non-ASCII letter, for words that start or end with either.
func TestContainsWordMatchesTheRegexp(t *testing.T) {
	const alphabet = "ab_1 -.$é"
	rnd := rand.New(rand.NewPCG(1, 2))
	text := func(n int) string {
		b := make([]rune, n)
		for i := range b {
			b[i] = []rune(alphabet)[rnd.IntN(len([]rune(alphabet)))]
		}
		return string(b)
	}
	for range 20000 {
		w, s := text(1+rnd.IntN(3)), text(rnd.IntN(12))
		want := regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`).MatchString(s)
		if got := containsWord(s, w); got != want {
			t.Fatalf("containsWord(%q, %q) = %v, the regexp says %v", s, w, got, want)
		}
	}
	for _, c := range []struct {
		s, w string
		want bool
	}{
		{"if (index > 3) throw", "index", true},
		{"if (myindex > 3) throw", "index", false},
		{"index_2", "index", false},
		{"a-b", "-", true},
		{"", "x", false},
	} {
		if got := containsWord(c.s, c.w); got != c.want {
			t.Errorf("containsWord(%q, %q) = %v, want %v", c.s, c.w, got, c.want)
		}
	}
}

// TestNextLinkURL: a URL that is wholly a next-page link read from a
// response is one; a URL with a host of its own, or a field that only
// starts with "next", is not.
func TestNextLinkURL(t *testing.T) {
	for x, want := range map[string]bool{
		`={{ $node["If1"].json["paging"]["next"] }}`:   true,
		`={{$node["Config URL"].json["next"]}}`:        true,
		`={{ $json["@odata.nextLink"] }}`:              true,
		`={{ $json.next_page_url }}`:                   true,
		`={{ $json.paging.next.link }}`:                true,
		`={{ $json.links.next.href }}`:                 true,
		`=https://api.example.com/{{ $json.next }}`:    false,
		`={{ $json.nextStep }}`:                        false,
		`={{ $json.next_run }}`:                        false,
		`={{ $json.url }}`:                             false,
		`={{ $json.next }}?limit={{ $json.limit }}`:    false,
		`https://graph.facebook.com/v20.0/me/insights`: false,
	} {
		if got := nextLinkRE.MatchString(x); got != want {
			t.Errorf("%s: next link %v, want %v", x, got, want)
		}
	}
}
