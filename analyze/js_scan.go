package analyze

import "strings"

// The JavaScript scanners the Code readers share (static_gate.go,
// count_bound.go): they step over strings, template literals and
// comments, read forward once, and build no regexp from the code's text.

// nester reads the brackets open at an offset of JavaScript code s,
// strings, template literals, regex literals and comments skipped: braces
// only, or (, [ and { alike. depth counts them (a close with none open goes
// below 0), open holds the offsets of those open. The offsets asked do not
// go back, so it reads s once in all. visit, when set, is called with the
// offset of each byte of code it reads (not one in a literal or a
// comment), after the brackets are counted: sureScanner hangs its reading
// of statements on it.
type nester struct {
	braces   bool
	i, depth int
	open     []int
	visit    func(i int)
}

func (n *nester) at(s string, off int) int {
	for ; n.i < off && n.i < len(s); n.i++ {
		switch c := s[n.i]; {
		case c == '{' || !n.braces && (c == '(' || c == '['):
			n.depth++
			n.open = append(n.open, n.i)
		case c == '}' || !n.braces && (c == ')' || c == ']'):
			n.depth--
			if len(n.open) > 0 {
				n.open = n.open[:len(n.open)-1]
			}
		case c == '"' || c == '\'' || c == '`' || c == '/':
			if j := skipLiteral(s, n.i); j != n.i {
				n.i = j
				continue
			}
		}
		if n.visit != nil {
			n.visit(n.i)
		}
	}
	return n.depth
}

// skipLiteral is the offset of the last byte of the string, template
// literal, regex literal or comment that opens at i of JavaScript code s
// (len(s) for a string or comment left open), or i when none does: the
// scanners step over them.
func skipLiteral(s string, i int) int {
	switch c := s[i]; c {
	case '"', '\'', '`':
		for i++; i < len(s) && s[i] != c; i++ {
			if s[i] == '\\' {
				i++
			}
		}
		return i
	case '/':
		if j := skipComment(s, i); j != i {
			return j
		}
		return skipRegex(s, i)
	}
	return i
}

// maxRegexLen bounds the bytes skipRegex reads for one literal, so that
// a line of many slashes costs its length, not its square.
const maxRegexLen = 1024

// skipRegex is the offset of the last byte of the regex literal (its
// flags included) that opens with the / at i, or i when that / divides.
// A / starts a regex at the start of the code, after an operator or
// punctuation (( , = : [ ! & | ? { } ; + - * % < > ~ ^, but not after
// ++ or --, read as postfix: n-- / 2 divides) or after a
// keyword that an expression follows (return, typeof, case, ...); after a
// name, a number, ) or ] it divides (ECMA-262 §12 "the goal symbol
// InputElementRegExp", which a parser picks by the token before). The
// literal runs to the first / outside a character class ([...]) and not
// escaped by \, on the same line (a regex literal holds no line break);
// one that does not close there, or within maxRegexLen bytes, is read as
// division.
func skipRegex(s string, i int) int {
	if !regexMayStart(s, i) {
		return i
	}
	class := false
	for j := i + 1; j < len(s) && j <= i+maxRegexLen; j++ {
		switch s[j] {
		case '\\':
			j++
			if j < len(s) && (s[j] == '\n' || s[j] == '\r') {
				return i
			}
		case '\n', '\r':
			return i
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if class {
				continue
			}
			for j+1 < len(s) && isIdent(s[j+1]) {
				j++ // the flags
			}
			return j
		}
	}
	return i
}

// regexMayStart reports a / at i of s where a regex literal may start,
// by the code before it: white space, /* */ comments and whole-line //
// comments stepped back over (a / after code that ends its line with a //
// comment is read as division). It reads back at most maxRegexLen*4
// bytes (past that, division): a bounded cost for each /.
func regexMayStart(s string, i int) bool {
	lo := max(0, i-4*maxRegexLen)
	j := i
	for j > lo {
		nl := false
		for j > lo && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\n' || s[j-1] == '\r' || s[j-1] == '\f' || s[j-1] == '\v') {
			nl = nl || s[j-1] == '\n'
			j--
		}
		if j-2 >= lo && s[j-2:j] == "*/" {
			if k := strings.LastIndex(s[lo:j-2], "/*"); k >= 0 {
				j = lo + k
				continue
			}
		}
		if nl && j > lo {
			ls := strings.LastIndexByte(s[lo:j], '\n') + 1 + lo
			if (ls > lo || lo == 0) && strings.HasPrefix(strings.TrimLeft(s[ls:j], " \t\f\v\r"), "//") {
				j = ls
				continue
			}
		}
		break
	}
	if j == 0 {
		return true
	}
	if j == lo {
		return false // too far back to tell
	}
	c := s[j-1]
	if (c == '+' || c == '-') && j-2 >= lo && s[j-2] == c {
		return false // a postfix ++ or -- ends an operand: i++ / 2 divides
	}
	if strings.IndexByte("(,=:[!&|?{};+-*%<>~^", c) >= 0 {
		return true
	}
	if !isIdent(c) {
		return false
	}
	k := j
	for k > lo && isIdent(s[k-1]) {
		k--
	}
	if k > 0 && s[k-1] == '.' {
		return false // a property named like a keyword: x.return / 2
	}
	switch s[k:j] {
	case "return", "typeof", "case", "do", "else", "in", "of", "instanceof", "new", "delete", "void", "throw", "yield", "await":
		return true
	}
	return false
}

// skipComment is the offset of the last byte of the comment that opens
// at i, or i when none does.
func skipComment(s string, i int) int {
	switch {
	case strings.HasPrefix(s[i:], "//"):
		for i < len(s) && s[i] != '\n' {
			i++
		}
	case strings.HasPrefix(s[i:], "/*"):
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return len(s)
		}
		i += j + 3
	}
	return i
}

// stripComments drops // and /* */ comments from a tail of code.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if j := skipComment(s, i); j != i {
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// blank reports code that holds only white space and comments.
func blank(s string) bool { return strings.TrimSpace(stripComments(s)) == "" }

// nameOffsets are the offsets where name is written in s, each after the
// last.
func nameOffsets(s, name string) []int {
	var out []int
	for i := 0; name != ""; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			break
		}
		out = append(out, i+j)
		i += j + len(name)
	}
	return out
}

// nameStart reports a name at offset i of s that is not part of a longer
// name ($ included) nor a property of another value (after a ".").
func nameStart(s string, i int) bool {
	return i == 0 || !isWordByte(s[i-1]) && s[i-1] != '.'
}

// tokenAt is the offset past tok when tok follows offset j of s after
// white space, else -1 (and -1 for j < 0, so that calls chain).
func tokenAt(s string, j int, tok string) int {
	if j < 0 {
		return -1
	}
	if j = skipSpace(s, j); strings.HasPrefix(s[j:], tok) {
		return j + len(tok)
	}
	return -1
}

// declAt is the keyword (const, let, var, a whole word) that declares the
// name at offset i of code after white space, or "".
func declAt(code string, i int) string {
	before := strings.TrimRight(code[:i], " \t\n\f\r")
	for _, kw := range []string{"const", "let", "var"} {
		if len(before) < i && strings.HasSuffix(before, kw) && wordBoundary(code, len(before)-len(kw)) {
			return kw
		}
	}
	return ""
}

// constValue is the expression a `const name = …` declares up to the
// first ; or line end, when the code declares name once and that way.
func constValue(code, name string) (string, bool) {
	n, kind, val := 0, "", ""
	for _, i := range nameOffsets(code, name) {
		kw, j := declAt(code, i), tokenAt(code, i+len(name), "=")
		if kw == "" || j < 0 {
			continue
		}
		j = skipSpace(code, j)
		if e := strings.IndexAny(code[j:], ";\n"); e > 0 {
			n, kind, val = n+1, kw, code[j:j+e]
		} else if e < 0 {
			n, kind, val = n+1, kw, code[j:]
		}
	}
	if n != 1 || kind != "const" {
		return "", false
	}
	return strings.TrimSpace(val), true
}

// keyCount is how many times code writes key as an object key
// (`(?:^|[^\w$.])key\s*:`, matches that do not overlap).
func keyCount(code, key string) int {
	n, end := 0, 0
	for _, i := range nameOffsets(code, key) {
		if j := tokenAt(code, i+len(key), ":"); nameStart(code, i) && (i == 0 || i-1 >= end) && j >= 0 {
			n, end = n+1, j
		}
	}
	return n
}

// closeParen is the offset of the ")" that closes the "(" at open, strings
// and template literals skipped; -1 when the code ends first.
func closeParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch c := s[i]; c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		case '"', '\'', '`', '/':
			i = skipLiteral(s, i)
		}
	}
	return -1
}

// topLevelComma reports a comma outside any bracket of s.
func topLevelComma(s string) bool {
	var n nester
	for i := range len(s) {
		if s[i] == ',' && n.at(s, i) == 0 {
			return true
		}
	}
	return false
}
