package analyze

import (
	"regexp"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// senderTester is senderTestRE: the pattern's three forms (a sender
// compared with a literal, a long number compared with a sender, a list's
// includes( of a sender) with a MatchString that does not try the whole
// pattern at every byte of a Code node's code. The pattern starts with no
// literal (an alternation, without case), so Go's regexp ran every form at
// every byte: ~2,000 instructions a byte of code, 7 % of an audit of the
// corpus for 20 codes.
//
// The first form starts where a sender's word (chat, from, messages,
// wa_id, user, sender, telegram, whatsapp) starts, in any case: it is
// tried there alone, anchored (start). The second starts before a number
// of five digits or more that an equality test follows (idCompare), the
// third at `includes(` (hasIncludes): a text holding either, or a Kelvin
// sign or a long s (which the pattern's (?i) reads as k and s, a byte
// search does not), goes to the whole pattern as before.
type senderTester struct {
	all   *lazyregexp.Regexp
	start func() *regexp.Regexp
}

func newSenderTester(sender string) senderTester {
	first := sender + `\b(\.toString\(\))?\s*\)?\s*(===?|!==?)\s*['"]?[-\w@.+]{3,}`
	second := `['"]?\+?\d{5,}['"]?\s*(===?|!==?)\s*[\w.$?()'"\[\]]*` + sender
	third := `includes\(\s*[\w.$?()'"\[\]]*` + sender
	return senderTester{
		all:   lazyregexp.New(`(?i)` + first + `|` + second + `|` + third),
		start: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(?:` + first + `)`) }),
	}
}

func (t senderTester) String() string { return t.all.String() }

// FindString is the pattern's leftmost match in s, searched whole: it is
// asked of a condition's side, a short text, after MatchString.
func (t senderTester) FindString(s string) string {
	if !t.MatchString(s) {
		return ""
	}
	return t.all.FindString(s)
}

// MatchString reports whether s holds a match of the pattern.
func (t senderTester) MatchString(s string) bool {
	if idCompare(s) || strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f") || hasIncludes(s) {
		return t.all.MatchString(s)
	}
	var start *regexp.Regexp
	for i := 0; i < len(s); i++ {
		if !senderWordAt(s[i:]) {
			continue
		}
		if start == nil {
			start = t.start()
		}
		if start.MatchString(s[i:]) {
			return true
		}
	}
	return false
}

// senderWords are the words a match of the first or the third form starts
// with, lower case.
var senderWords = []string{"chat", "from", "messages", "wa_id", "user", "sender", "telegram", "whatsapp"}

// hasIncludes reports `includes(` in any case. The third form's list
// ([\w.$?()'"\[\]]*) may run on past every later includes(, so tried at
// each it would read the text again and again; Go's regexp reads it once.
func hasIncludes(s string) bool {
	for i := strings.IndexAny(s, "iI"); i >= 0 && i+9 <= len(s); {
		if ascii.HasPrefixFold(s[i:], "includes(") {
			return true
		}
		j := strings.IndexAny(s[i+1:], "iI")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// senderWordAt reports whether s starts with one of senderWords in any
// case of its ASCII letters.
func senderWordAt(s string) bool {
	switch s[0] | 0x20 {
	case 'c', 'f', 'm', 'w', 'u', 's', 't':
	default:
		return false
	}
	for _, w := range senderWords {
		if ascii.HasPrefixFold(s, w) {
			return true
		}
	}
	return false
}

// idCompare reports whether s holds five digits or more followed by a
// quote or none, white space and == or != (`\d{5,}['"]?\s*(==|!=)`), which
// every match of the second form holds.
func idCompare(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j-i >= 5 {
			k := j
			if k < len(s) && (s[k] == '\'' || s[k] == '"') {
				k++
			}
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\f' || s[k] == '\r') {
				k++
			}
			if k+1 < len(s) && (s[k] == '=' || s[k] == '!') && s[k+1] == '=' {
				return true
			}
		}
		i = j
	}
	return false
}
