package ascii

import (
	"regexp"
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
