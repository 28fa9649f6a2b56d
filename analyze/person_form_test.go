package analyze

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFieldNamesAsClass: the patterns that read a field's name spell a
// name [_\p{L}]+(?:\p{N}+[_\p{L}]*)*, which compiles without merging the
// letters' and the numbers' tables into one class; each finds what it
// finds spelled [\p{L}_][\p{L}\p{N}_]*, on names of letters, numbers and
// underscores beyond ASCII, beside the reads around them.
func TestFieldNamesAsClass(t *testing.T) {
	const name, class = `[_\p{L}]+(?:\p{N}+[_\p{L}]*)*`, `[\p{L}_][\p{L}\p{N}_]*`
	pieces := []string{"", "body", "xbody", ".", " . ", "json", "query", "$json", "$input", ".first()", ".item", ".all()[0]", ".json",
		"[", "]", "'", `"`, " ", "\n", "a", "Z", "é", "Ж", "_", "9", "٣", "²", "Ⅻ", "ſ", "-", "$", "\xff", "email", "x1", "1x"}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, re := range []interface {
		String() string
		FindAllStringSubmatchIndex(string, int) [][]int
		FindStringSubmatchIndex(string) []int
	}{requestFieldRE, codeBodyRE, queryFieldRE, nestedFieldRE, itemOwnFieldRE, refJSONRE} {
		expr := re.String()
		if strings.Count(expr, name) != 1 {
			t.Fatalf("%s: does not spell a name %s", expr, name)
		}
		want := regexp.MustCompile(strings.Replace(expr, name, class, 1))
		for range 20000 {
			var b strings.Builder
			for range rng.IntN(12) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			s := b.String()
			if !slices.EqualFunc(re.FindAllStringSubmatchIndex(s, -1), want.FindAllStringSubmatchIndex(s, -1), slices.Equal) ||
				!slices.Equal(re.FindStringSubmatchIndex(s), want.FindStringSubmatchIndex(s)) {
				t.Fatalf("%s on %q differs from %s", expr, s, want)
			}
		}
	}
}
