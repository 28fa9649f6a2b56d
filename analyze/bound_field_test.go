package analyze

import (
	"math/rand"
	"strings"
	"testing"
)

// TestBoundFieldAsRegexp holds boundFieldIn, which findBinds asks of
// every branch, to the pattern it stands for (boundFieldRE.MatchString),
// on hand cases both ways and on random strings of the pattern's pieces.
func TestBoundFieldAsRegexp(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := boundFieldIn(s), boundFieldRE.MatchString(s); got != want {
			t.Fatalf("boundFieldIn(%q) = %v, the regexp %v", s, got, want)
		}
	}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{`"={{ $json.kind }}"`, true},
		{`"={{$json.kind}}"`, true},
		{"\"={{\n\t$json.$k_1 \r}}\"", true},
		{`"={{ $json[\"my field\"] }}"`, true},
		{`"={{ $json['a-b'] }}"`, true},
		{`"={{ $json[ 'x' ] }}"`, true},
		{`"={{ $json[\"x'] }}"`, true}, // the pattern lets the quotes differ
		{`"x": "={{ $json.a.b }}", "y": "={{ $json.c }}"`, true},
		{`"={{ $json.kind }}`, false},
		{`"={{ $json.1a }}"`, false},
		{`"={{ $json. a }}"`, false},
		{`"={{ $json[''] }}"`, false},
		{`"={{ $json['a\'] }}"`, false},
		{`"={{ $json.a.b }}"`, false},
		{`"={{ $json.a + 1 }}"`, false},
		{`"={{ $node.x }}"`, false},
		{`"={{ $jsonx }}"`, false},
		{`"={{ $json }}"`, false},
		{`"={ {$json.a}}"`, false},
		{`"={{"={{ $json.a }}"`, true},
		{"\"={{\v$json.a }}\"", false}, // \s has no vertical tab
		{"", false},
	} {
		if got := boundFieldIn(c.s); got != c.want {
			t.Errorf("boundFieldIn(%q) = %v, want %v", c.s, got, c.want)
		}
		check(c.s)
	}
	pieces := []string{`"={{`, `"=`, `{{`, `}}"`, `}}`, `"`, "$json", "$", "json", ".", "[", "]", `\"`, `\`, "'",
		" ", "\t", "\n", "\v", "a", "Z", "_", "9", "-", "é", "\xff", "+"}
	// Mostly the pattern's own parts in order, each slot now and then
	// another piece, left out or doubled, so that about one in a hundred matches.
	slots := [][]string{
		{`"={{`}, {"", " ", "\n\t"}, {"$json"}, {".", "["}, {"", " "}, {`\"`, "'", "", "a"},
		{"a", "$x", "_9", "9", "a b", "a-b", "é"}, {"", `\"`, "'"}, {"", " "}, {"", "]"}, {"", " ", "\r"}, {`}}"`},
	}
	r := rand.New(rand.NewSource(1))
	matched := 0
	for range 300000 {
		var b strings.Builder
		for range r.Intn(3) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		for _, slot := range slots {
			switch r.Intn(12) {
			case 0:
				b.WriteString(pieces[r.Intn(len(pieces))])
			case 1:
			case 2:
				x := slot[r.Intn(len(slot))]
				b.WriteString(x + x)
			default:
				b.WriteString(slot[r.Intn(len(slot))])
			}
		}
		for range r.Intn(3) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		s := b.String()
		if boundFieldRE.MatchString(s) {
			matched++
		}
		check(s)
	}
	if matched < 2000 {
		t.Fatalf("only %d of the random strings match: the test reads too few", matched)
	}
}
