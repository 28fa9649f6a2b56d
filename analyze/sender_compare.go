package analyze

import (
	"iter"
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
// MatchString asks whether some form matches somewhere, so each form is
// tried alone, anchored, where its matches can start: the first where a
// sender's word (chat, from, messages, wa_id, user, sender, telegram,
// whatsapp) starts, in any case (start); the second, whose quote and plus
// in front are optional, at a run of five digits or more that a quote or
// none, white space and == or != follow (idCompares: the run's start, as
// \d{5,} may start anywhere in it with five left) (second); the third at
// each `includes(` (third), but not at one inside the list ([\w.$?()'"\[\]]*)
// that a failed try at an earlier one read (every match from there is one
// from the earlier, so each list is read once). A text holding a Kelvin
// sign or a long s (which the pattern's (?i) reads as k and s, a byte
// search does not) goes to the whole pattern.
type senderTester struct {
	all                  *lazyregexp.Regexp
	start, second, third func() *regexp.Regexp
}

func newSenderTester(sender string) senderTester {
	const list = `[\w.$?()'"\[\]]*`
	first := sender + `\b(\.toString\(\))?\s*\)?\s*(===?|!==?)\s*['"]?[-\w@.+]{3,}`
	second := `['"]?\+?\d{5,}['"]?\s*(===?|!==?)\s*` + list + sender
	third := `includes\(\s*` + list + sender
	anchored := func(form string) func() *regexp.Regexp {
		return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(?:` + form + `)`) })
	}
	return senderTester{
		all:    lazyregexp.New(`(?i)` + first + `|` + second + `|` + third),
		start:  anchored(first),
		second: anchored(`\d{5,}['"]?\s*(===?|!==?)\s*` + list + sender),
		third:  anchored(third),
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
	if strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f") {
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
	for i := range idCompares(s) {
		if t.second().MatchString(s[i:]) {
			return true
		}
	}
	read := 0 // where the list a failed try at includes( read ends
	for i := range includesAt(s) {
		if i+len("includes(") < read {
			continue
		}
		if t.third().MatchString(s[i:]) {
			return true
		}
		read = listEnd(s, i+len("includes("))
	}
	return false
}

// listEnd is where the third form's list, after the white space at from,
// ends in s: the first byte past from's white space that is not one of
// [\w.$?()'"\[\]].
func listEnd(s string, from int) int {
	for from < len(s) && ascii.IsSpace(s[from]) {
		from++
	}
	for from < len(s) && (ascii.IsWord(s[from]) || strings.IndexByte(".$?()'\"[]", s[from]) >= 0) {
		from++
	}
	return from
}

// includesAt yields the offsets of `includes(` in s, in any case.
func includesAt(s string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i+len("includes(") <= len(s); i++ {
			j := strings.IndexAny(s[i:], "iI")
			if j < 0 {
				return
			}
			i += j
			if ascii.HasPrefixFold(s[i:], "includes(") && !yield(i) {
				return
			}
		}
	}
}

// senderWords are the words a match of the first form starts
// with, lower case.
var senderWords = []string{"chat", "from", "messages", "wa_id", "user", "sender", "telegram", "whatsapp"}

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

// idCompares yields the start of each run of five digits or more in s
// that a quote or none, white space and == or != follow
// (`\d{5,}['"]?\s*(==|!=)`), where every match of the second form holds
// its number.
func idCompares(s string) iter.Seq[int] {
	return func(yield func(int) bool) {
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
				for k < len(s) && ascii.IsSpace(s[k]) {
					k++
				}
				if k+1 < len(s) && (s[k] == '=' || s[k] == '!') && s[k+1] == '=' && !yield(i) {
					return
				}
			}
			i = j
		}
	}
}
