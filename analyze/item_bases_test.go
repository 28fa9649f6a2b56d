package analyze

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// TestItemBasesAsRegexp holds itemBases to the one alternation it
// replaces: the same matches, in order, at every limit.
func TestItemBasesAsRegexp(t *testing.T) {
	re := regexp.MustCompile(`\$json\b|\b(items)\s*\[\s*0\s*\]\s*\.\s*json\b|\$input\s*\.\s*first\s*\(\s*\)\s*\.\s*json\b`)
	check := func(s string, n int) {
		t.Helper()
		want := re.FindAllStringSubmatchIndex(s, n)
		got := itemBases(s, n)
		if len(got) != len(want) {
			t.Fatalf("itemBases(%q, %d): %d matches, the regexp %d", s, n, len(got), len(want))
		}
		for k, m := range want {
			if g := got[k]; g.at != m[0] || g.end != m[1] || g.items != (m[2] >= 0) {
				t.Fatalf("itemBases(%q, %d)[%d] = %+v, the regexp %v", s, n, k, g, m)
			}
		}
	}
	for _, c := range []string{
		"const a = $json.x; items[0].json.y; $input.first().json.z", "$jsonx $json_ $json", "myitems[0].json items [ 0 ] . json",
		"$input . first ( ) . json.a", "$items[0].json", "items[0].jsonb items[0].json", "", "$json$json", "x.items[0].json",
	} {
		for _, n := range []int{-1, 1, 2, 64} {
			check(c, n)
		}
	}
	pieces := []string{"$json", "items", "$input", "json", "first", "[", "0", "]", ".", "(", ")", " ", "\n", "\t", "x", "_", "$", "9", "é"}
	r := rand.New(rand.NewSource(1))
	for range 100000 {
		var b strings.Builder
		for range r.Intn(16) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		check(b.String(), r.Intn(5)-1)
	}
}
