package analyze

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestNextNamedRefAsPattern checks nextNamedRef against the pattern it
// stands for, match by match, on random strings of the pieces the pattern
// reads.
func TestNextNamedRefAsPattern(t *testing.T) {
	re := regexp.MustCompile(`\$(?:\(|items\(|node\[)\s*(?:'([^'"\\]+)'|"([^'"\\]+)")\s*[)\]]`)
	pieces := []string{"$", "$(", "$items(", "$node[", "items(", "node[", "(", ")", "[", "]", "'", `"`, `\`, " ", "\t",
		"\n", "\v", "\f", "\r", "Lead", "A b", "x", "é", "\xff", "$('Lead')", `$node["Config"]`, ".json"}
	rng := rand.New(rand.NewPCG(7, 29))
	found := 0
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for k := rng.IntN(10); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		var got [][]int
		for at := 0; ; {
			start, end, _, ok := nextNamedRef(s, at)
			if !ok {
				break
			}
			got = append(got, []int{start, end})
			at = end
		}
		found += len(got)
		want := re.FindAllStringSubmatchIndex(s, -1)
		if len(got) != len(want) {
			t.Fatalf("nextNamedRef finds %v in %q, the pattern %v", got, s, want)
		}
		for j, m := range want {
			ref := m[2:4]
			if m[2] < 0 {
				ref = m[4:6]
			}
			_, _, name, _ := nextNamedRef(s, got[j][0])
			if got[j][0] != m[0] || got[j][1] != m[1] || name != s[ref[0]:ref[1]] {
				t.Fatalf("nextNamedRef finds %v (%q) in %q, the pattern %v", got[j], name, s, m)
			}
		}
	}
	if found < 1000 {
		t.Fatalf("only %d matches: the pieces miss the pattern", found)
	}
}

func TestReadsByName(t *testing.T) {
	for s, want := range map[string]bool{
		`{{ $('Lead').item.json.email }}`: true,
		`{{ $node["Config"].json.x }}`:    true,
		`{{ $items("Old Sheet") }}`:       true,
		`{{ $json.x }} and $`:             false,
		`$$ $json $input.first()`:         false,
		``:                                false,
		`$`:                               false,
	} {
		if got := readsByName(s); got != want {
			t.Errorf("readsByName(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestThrowsUnrun(t *testing.T) {
	for _, c := range []struct {
		form, after string
		want        bool
	}{
		{"$(", ".first().json.x", true},
		{"$(", ".item.json.x", true},
		{"$(", ".itemMatching(0)", true},
		{"$(", ".all()", true},
		{"$(", ".isExecuted", false},
		{"$(", ".params.url", false},
		{"$(", "?.first()", false},
		{"$node[", ".json.id", true},
		{"$node[", ".parameter.url", false},
		{"$items(", "[0].json.id", true},
	} {
		if got := throwsUnrun(c.form, c.after); got != c.want {
			t.Errorf("throwsUnrun(%q, %q) = %v, want %v", c.form, c.after, got, c.want)
		}
	}
}
