package report

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names of nodes, workflows, files and connection types come from the
// workflow, not from us: every format escapes them so that they stay data.
// Printable is the base (terminals and CI logs); Markdown and Mermaid add
// their own markup on top.

// Printable shows control characters and invisible reordering marks as Go
// escapes (\n, \x1b, \u202e) and bytes that are not UTF-8 as \xNN, so that
// a name cannot move the cursor, colour a terminal, start a new line in a
// CI log (a forged `::error` annotation) or reorder what is shown.
func Printable(s string) string {
	i := 0
	for i+8 <= len(s) { // eight printable ASCII bytes at a time
		if m := printStopMask(load8(s, i)); m != 0 {
			i += bits.TrailingZeros64(m) / 8
			break
		}
		i += 8
	}
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) || !needsEscape(s[i:]) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&0xf, 16))
		case unprintable(r) && !emojiJoiner(s, i):
			q := strconv.QuoteRuneToASCII(r) // '\n', '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// printStopMask flags the bytes of x that Printable's first loop stops
// at: below 0x20, DEL or not ASCII. It is 0 exactly when all eight are
// printable ASCII, and its lowest flag is exact (a borrow or a carry may
// flag a byte above a flagged one, never below), as jsonStopMask's.
func printStopMask(x uint64) uint64 {
	return ((x - ones*0x20) | (x + ones) | x) & highs
}

// needsEscape says whether Printable changes s: most non-ASCII text (a
// name in another script, a dash) goes through without a copy. Only the
// lead bytes of the runes unprintable lists are decoded: C0 and DEL,
// 0xC2 (C1), 0xD8 (U+061C), 0xE2 (U+200B to U+2069), 0xEF (U+FEFF).
func needsEscape(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == 0x7f:
			return true
		case c == 0xc2 || c == 0xd8 || c == 0xe2 || c == 0xef:
			if r, _ := utf8.DecodeRuneInString(s[i:]); unprintable(r) && !emojiJoiner(s, i) {
				return true
			}
		}
	}
	return false
}

// emojiJoiner says whether the rune at s[i:] is a zero-width joiner inside
// an emoji sequence (🧑‍💻 is 🧑, U+200D, 💻; 🙋‍♂️ and 👩🏻‍🏫 too): between
// symbols it joins glyphs and hides no letter, and n8n names use it.
func emojiJoiner(s string, i int) bool {
	if !strings.HasPrefix(s[i:], "\u200d") {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	if prev == 0xfe0f { // emoji presentation selector: look before it
		prev, _ = utf8.DecodeLastRuneInString(strings.TrimSuffix(s[:i], "\ufe0f"))
	}
	next, _ := utf8.DecodeRuneInString(s[i+len("\u200d"):])
	skinTone := prev >= 0x1f3fb && prev <= 0x1f3ff
	return (unicode.Is(unicode.So, prev) || skinTone) && unicode.Is(unicode.So, next)
}

// unprintable reports runes Printable escapes: C0 and C1 controls, DEL,
// the line and paragraph separators, and the bidirectional and zero-width
// marks that change what a reader sees without being seen (U+061C, U+200B
// to U+200F, U+202A to U+202E, U+2060 to U+2069, U+FEFF).
func unprintable(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2060 && r <= 0x2069, r == 0xfeff, r == 0x061c:
		return true
	}
	return false
}

// mdEscaper backslash-escapes the characters that make inline Markdown
// (emphasis, code, links and images need [, strikethrough, table cells)
// and turns the ones that start HTML or an entity into entities.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`, "|", `\|`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;",
)

// mdText makes untrusted text literal inside a Markdown table cell or
// heading: one line, no markup, no HTML.
func mdText(s string) string {
	return mdEscaper.Replace(Printable(s))
}

// mdCode shows untrusted text as one inline code span: fenced by more
// backticks than any run inside it, on one line, pipes escaped for tables
// (GitHub unescapes \| inside code spans in table cells).
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(Printable(s), "|", `\|`)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mermaidEscaper writes Mermaid entity codes (#quot;, #35;) for every
// character that could end a quoted label, an edge label (|) or a Markdown
// fence around the diagram, or start HTML inside a label.
var mermaidEscaper = strings.NewReplacer(
	"#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;", "&", "#38;", "`", "#96;", "|", "#124;",
)

// MermaidText makes untrusted text safe inside a double-quoted Mermaid
// label ("…" in a node or |"…"| on an edge).
func MermaidText(s string) string {
	return mermaidEscaper.Replace(Printable(s))
}
