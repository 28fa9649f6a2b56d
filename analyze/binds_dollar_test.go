package analyze

import (
	"math/rand"
	"regexp"
	"testing"
)

// TestBindsDollar: bindsDollar answers as the regexp it replaced, on
// hand-picked code and on random strings over the characters it reads.
func TestBindsDollar(t *testing.T) {
	re := regexp.MustCompile(`(?:^|[^\w$.])\$\s*(?:=[^=]|=>|,|\))|(?:const|let|var|function)\s+\$(?:[^\w$]|$)`)
	cases := []string{
		"const $ = cheerio.load(html);", "let $=1", "$ = x", "x.$ = 1", "a$ = 1", "$$ = 1", "($, y) => 1", "f($)",
		"$ == 1", "$('X').all()", "$json.a", "function $(s) {}", "var\t$\n= 2", "const $x = 1", "const  $", "$",
		"return $('Get').first().json", "items.map(($) => $.json)", "const\n$", "x = $ ,y", "$\t=\t3", "$=",
	}
	for _, c := range cases {
		if got, want := bindsDollar(c), re.MatchString(c); got != want {
			t.Errorf("bindsDollar(%q) = %v, the regexp %v", c, got, want)
		}
	}
	alpha := []byte("$ =,)(.aconstletvarfunctionx_9\t\n>")
	r := rand.New(rand.NewSource(1))
	for range 200000 {
		b := make([]byte, r.Intn(14))
		for i := range b {
			b[i] = alpha[r.Intn(len(alpha))]
		}
		s := string(b)
		if got, want := bindsDollar(s), re.MatchString(s); got != want {
			t.Fatalf("bindsDollar(%q) = %v, the regexp %v", s, got, want)
		}
	}
}
