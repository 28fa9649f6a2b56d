// Package ascii holds the byte tests that the hand-written scanners share
// in place of regular expressions: \w and \s as Go's regexp reads them, and
// prefix, suffix and substring tests that ignore the case of ASCII letters.
package ascii

import "strings"

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

// letterOrder is ASCII's letters from the most common in English text to
// the least.
const letterOrder = "etaoinsrhldcumfpgwybvkxjqz"

// Rarest is the offset of the byte of w (lower-case ASCII) that English
// text, code and names hold least, by letterOrder (a byte that is no
// letter counts as the most common): the at for IndexFold, which stops at
// each place that byte stands ("request" from its q, "throttl" from its l).
func Rarest(w string) int {
	at := 0
	for j := range len(w) {
		if strings.IndexByte(letterOrder, w[j]) > strings.IndexByte(letterOrder, w[at]) {
			at = j
		}
	}
	return at
}

// ContainsFold reports whether s holds lit (lower-case ASCII) in any case
// of its ASCII letters. For a lit without k or s that is what (?i)lit
// finds; without i and k also what strings.ToLower(s) holds (ToLower
// makes the Kelvin sign a k and the dotted capital I an i).
func ContainsFold(s, lit string) bool { return IndexFold(s, lit, 0) >= 0 }

// Index is strings.Index(s, lit), skipping to lit's byte at with
// strings.IndexByte: at best a byte of lit the text seldom holds
// ("require" from its q), where strings.Index stops at every place lit's
// first byte stands. lit is not empty and 0 <= at < len(lit).
func Index(s, lit string, at int) int {
	for i := at; i < len(s); {
		j := strings.IndexByte(s[i:], lit[at])
		if j < 0 {
			return -1
		}
		if start := i + j - at; strings.HasPrefix(s[start:], lit) {
			return start
		}
		i += j + 1
	}
	return -1
}

// IndexFold is where lit (lower-case ASCII) first starts in s in any case
// of s's ASCII letters, or -1: strings.Index of lit in s with s's ASCII
// letters lowered. It skips to lit's byte at in either case with
// strings.IndexByte, so at best names the byte of lit the text holds
// least.
func IndexFold(s, lit string, at int) int {
	end := len(s) - len(lit) + at + 1 // where lit[at] can be, below
	if end <= at {
		return -1
	}
	lo, up := lit[at], lit[at]
	if 'a' <= lo && lo <= 'z' {
		up = lo - ('a' - 'A')
	}
	next := func(c byte, from int) int {
		if i := strings.IndexByte(s[from:end], c); i >= 0 {
			return from + i
		}
		return end
	}
	nl, nu := -1, -1 // the next byte at in each case, at or after i
	for i := at; i < end; {
		if nl < i {
			nl = next(lo, i)
		}
		if nu < i {
			nu = next(up, i)
		}
		p := min(nl, nu)
		if p == end {
			return -1
		}
		if start := p - at; equalFold(s[start:start+len(lit)], lit) {
			return start
		}
		i = p + 1
	}
	return -1
}
