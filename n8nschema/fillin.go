package n8nschema

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
)

// The words and shapes of a template's fill-in, the text an author writes
// for the owner to replace: a name in brackets ("<spreadsheet_id>",
// "[Your PiAPI Key]", "{accountId}", "{{INSTANCE_ID}}"), a token that
// starts with "your" or "replace" ("YOUR_API_KEY", "your-location",
// "YourUnitId", "REPLACE_WITH_BOARD_ID"), or says "placeholder", a run of
// x ("xxx"), "..." or "changeme". Every reader of one shares them (fillIn);
// each adds only what its context reads: a key's free text (blankKeyWord),
// a URL's part (blankURLPart), a resource's id (BlankID), any literal
// (Placeholder), a host's label (fillInLabel).

// fillIn reports a token that is a fill-in: bracketed (inBrackets) or
// one by its words (fillInWords).
func fillIn(s string) bool {
	_, ok := inBrackets(s)
	return ok || fillInWords(s)
}

// inBrackets returns what a bracketed fill-in holds: s in angle, square or
// curly brackets (or double braces, "{{INSTANCE_ID}}"), the closing one
// nowhere inside.
func inBrackets(s string) (string, bool) {
	if len(s) < 2 {
		return "", false
	}
	var end byte
	switch s[0] {
	case '<':
		end = '>'
	case '[':
		end = ']'
	case '{':
		end = '}'
		if len(s) >= 4 && s[1] == '{' && s[len(s)-2] == '}' && s[len(s)-1] == '}' && strings.IndexByte(s[2:len(s)-2], '}') < 0 {
			return s[2 : len(s)-2], true
		}
	default:
		return "", false
	}
	if s[len(s)-1] != end || strings.IndexByte(s[1:len(s)-1], end) >= 0 {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// fillInLeads are the words a fill-in starts with.
var fillInLeads = [...]string{"your", "replace"}

// leadLen returns the length of the fill-in word s starts with at i (any
// case of its letters), 0 for none.
func leadLen(s string, i int) int {
	for _, w := range fillInLeads {
		if foldAt(s, i, w) {
			return len(w)
		}
	}
	return 0
}

// leadEnds reports a word that ends at s[i]: s's end, a separator (a
// space, "_" or "-"), or a capital after a capitalised word ("YourUnitId":
// s[0] a capital, s[1] a small letter).
func leadEnds(s string, i int) bool {
	if i == len(s) {
		return true
	}
	switch c := s[i]; {
	case c == ' ', c == '\t', c == '\n', c == '\r', c == '\f', c == '_', c == '-':
		return true
	case 'A' <= c && c <= 'Z':
		return 'A' <= s[0] && s[0] <= 'Z' && 'a' <= s[1] && s[1] <= 'z'
	}
	return false
}

// fillInWords reports a token that is a fill-in by its words: "your" or
// "replace" its first word (leadEnds), "placeholder" anywhere, only x
// (three or more), "..." or "changeme", in any case.
func fillInWords(s string) bool {
	if n := leadLen(s, 0); n > 0 && leadEnds(s, n) {
		return true
	}
	if len(s) >= 3 && (s[0]|0x20 == 'x' && onlyX(s) || s == "...") || len(s) == 8 && foldAt(s, 0, "changeme") {
		return true
	}
	return ascii.ContainsFold(s, "placeholder")
}

// onlyX reports s made of x alone, in any case.
func onlyX(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != 'x' {
			return false
		}
	}
	return true
}
