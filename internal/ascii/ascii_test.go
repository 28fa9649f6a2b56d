package ascii

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestAgainstRegexp checks the byte tests against the patterns they stand
// in for, over every byte.
func TestAgainstRegexp(t *testing.T) {
	word, space := regexp.MustCompile(`\w`), regexp.MustCompile(`\s`)
	for i := 0; i < 256; i++ {
		b := []byte{byte(i)}
		if got, want := IsWord(byte(i)), word.Match(b); got != want {
			t.Errorf("IsWord(%#x) = %v, \\w says %v", i, got, want)
		}
		if got, want := IsSpace(byte(i)), space.Match(b); got != want {
			t.Errorf("IsSpace(%#x) = %v, \\s says %v", i, got, want)
		}
	}
}

func TestFold(t *testing.T) {
	for _, c := range []struct {
		s, w           string
		prefix, suffix bool
	}{
		{"Headers.Authorization", "headers", true, false},
		{"X-API-KEY", "key", false, true},
		{"RUNNING", "running", true, true},
		{"ru", "running", false, false},
		{"", "", true, true},
		{"Ärger", "ärger", false, false}, // only ASCII letters fold
	} {
		if got := HasPrefixFold(c.s, c.w); got != c.prefix {
			t.Errorf("HasPrefixFold(%q, %q) = %v", c.s, c.w, got)
		}
		if got := HasSuffixFold(c.s, c.w); got != c.suffix {
			t.Errorf("HasSuffixFold(%q, %q) = %v", c.s, c.w, got)
		}
	}
}

// TestContainsFold: the search finds the literal in any case, anywhere,
// and nothing else.
func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		s, lit string
		want   bool
	}{
		{"HEADER", "header", true}, {"xxHeAdEr", "header", true}, {"heade", "header", false},
		{"hhhhhheader", "header", true}, {"HhHhHEADER", "header", true}, {"h-eader", "header", false},
		{"", "a", false}, {"a", "a", true}, {"A", "a", true}, {"b", "a", false}, {"x.y", ".y", true},
	} {
		if got := ContainsFold(c.s, c.lit); got != c.want {
			t.Errorf("ContainsFold(%q, %q) = %v", c.s, c.lit, got)
		}
	}
}

// TestIndexFoldAsLowered: on random text, the search answers as
// strings.Index of lit in the text with its ASCII letters lowered does,
// whichever of lit's bytes it skips to.
func TestIndexFoldAsLowered(t *testing.T) {
	lowerASCII := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	lits := []string{"header", "body.message.", "draft", "log", "x-api-", "tory", "request-id", "q", "ab", "zzz", "$json."}
	alphabet := "abdehlorstxyzqABDEHLORSTXYZQ.-$_ é"
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		lit := lits[rng.IntN(len(lits))]
		var b strings.Builder
		for range rng.IntN(12) {
			if rng.IntN(4) == 0 {
				w := []byte(lit)
				for i := range w {
					if rng.IntN(2) == 0 && 'a' <= w[i] && w[i] <= 'z' {
						w[i] -= 'a' - 'A'
					}
				}
				b.Write(w[:rng.IntN(len(w)+1)])
			} else {
				b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
		}
		s, at := b.String(), rng.IntN(len(lit))
		if got, want := IndexFold(s, lit, at), strings.Index(lowerASCII(s), lit); got != want {
			t.Fatalf("IndexFold(%q, %q, %d) = %d, want %d", s, lit, at, got, want)
		}
		if got, want := ContainsFold(s, lit), strings.Contains(lowerASCII(s), lit); got != want {
			t.Fatalf("ContainsFold(%q, %q) = %v", s, lit, got)
		}
	}
}

// TestIndexAsStrings: Index from any byte of lit is strings.Index, on
// strings made of lit's pieces (so that the byte searched for often
// stands where lit does not start) and of lit itself, at either end.
func TestIndexAsStrings(t *testing.T) {
	lits := []string{"require", "$env", "getWorkflowStaticData", "error", "q", "ab", "aab", "qq"}
	alphabet := "aberqiu$vnd Ee\\."
	rng := rand.New(rand.NewPCG(9, 10))
	for range 50000 {
		lit := lits[rng.IntN(len(lits))]
		var b strings.Builder
		for range rng.IntN(14) {
			if rng.IntN(3) == 0 {
				i := rng.IntN(len(lit) + 1)
				b.WriteString(lit[i:][:rng.IntN(len(lit)-i+1)])
			} else {
				b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
		}
		s, at := b.String(), rng.IntN(len(lit))
		if got, want := Index(s, lit, at), strings.Index(s, lit); got != want {
			t.Fatalf("Index(%q, %q, %d) = %d, want %d", s, lit, at, got, want)
		}
	}
}

// TestRarest: the byte a search skips to is the word's least common
// letter, the first of equals; a byte that is no letter is never picked
// over a letter.
func TestRarest(t *testing.T) {
	for w, want := range map[string]int{
		"request": 2, "throttl": 6, "header": 3, "ab": 1, "$json.": 1, "x-api-": 0, "tory": 3, "zzz": 0, "-": 0,
	} {
		if got := Rarest(w); got != want {
			t.Errorf("Rarest(%q) = %d, want %d", w, got, want)
		}
	}
}
