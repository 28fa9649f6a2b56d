// Package ascii holds the byte tests that the hand-written scanners share
// in place of regular expressions: \w and \s as Go's regexp reads them, and
// prefix and suffix tests that ignore the case of ASCII letters.
package ascii

// IsWord reports whether c is a byte of a word as regexp's \w and \b read
// one.
func IsWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// IsSpace reports whether c is a byte regexp's \s matches.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// HasPrefixFold reports whether s starts with w, which is lower-case ASCII,
// in any case of s's ASCII letters.
func HasPrefixFold(s, w string) bool {
	return len(s) >= len(w) && equalFold(s[:len(w)], w)
}

// HasSuffixFold reports whether s ends with w, which is lower-case ASCII,
// in any case of s's ASCII letters.
func HasSuffixFold(s, w string) bool {
	return len(s) >= len(w) && equalFold(s[len(s)-len(w):], w)
}

func equalFold(s, w string) bool {
	for i := 0; i < len(w); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}
