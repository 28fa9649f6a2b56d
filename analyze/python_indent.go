package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// pyBlockWords open a compound statement whose header ends with ":".
var pyBlockWords = []string{"if", "elif", "else", "for", "while", "def", "class", "try", "except", "finally", "with", "async", "match", "case"}

// pythonIndentation judges a Python Code node whose code cannot compile:
// a compound statement's header (if …:, for …:, def …:) is followed by a
// line indented no deeper, where Python requires an indented block
// ("IndentationError: expected an indented block"; the Python Language
// Reference, Lexical analysis, Indentation: a block opens with an INDENT
// token). Python compiles the whole code before it runs a line, so the
// node raises on every run, whatever its items, under either runner
// (nodes-base Code/Code.node.js L183-205 sends "python" and
// "pythonNative" to the Python runner). Only lines outside brackets and
// strings are read, indentation of spaces only or tabs only; a header
// with its body on the same line (if x: continue) does not end with ":".
func pythonIndentation(nd *n8nschema.Node) (string, bool) {
	if nd.Type != n8nschema.TypeCode || nd.TypeVersion != 2 {
		return "", false
	}
	p := nd.Params()
	if l := p.Get("language"); l.Kind() != n8nschema.String || l.Str() != "python" && l.Str() != "pythonNative" {
		return "", false
	}
	c := p.Get("pythonCode")
	if c.Kind() != n8nschema.String {
		return "", false
	}
	raw := strings.Split(c.Str(), "\n")
	code := strings.Split(pythonCodeOnly(c.Str()), "\n")
	if len(code) != len(raw) {
		return "", false
	}
	depth := 0
	header, headerIndent := -1, ""
	for i, line := range code {
		text := strings.TrimRight(line, " \t\r")
		trimmed := strings.TrimLeft(text, " \t")
		if trimmed == "" {
			continue // blank, or a comment or string blanked
		}
		indent := text[:len(text)-len(trimmed)]
		if depth == 0 {
			if header >= 0 {
				if strings.Contains(indent, " ") && strings.Contains(indent+headerIndent, "\t") {
					return "", false // spaces and tabs mixed: not judged
				}
				if len(indent) <= len(headerIndent) {
					return "line " + strconv.Itoa(header+1) + " of its Python code opens a block (" + strconv.Quote(strings.TrimSpace(raw[header])) + ") and the next line is not indented deeper, so the code raises \"IndentationError: expected an indented block\" before any line runs", true
				}
				header = -1
			}
			if strings.HasSuffix(text, ":") && opensBlock(trimmed) && !strings.HasSuffix(text, "\\:") {
				header, headerIndent = i, indent
			}
		}
		for j := 0; j < len(text); j++ {
			switch text[j] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
		}
		if strings.HasSuffix(text, "\\") {
			return "", false // a joined line: not judged
		}
	}
	return "", false
}

// opensBlock reports a line that starts with a compound statement's word.
func opensBlock(line string) bool {
	for _, w := range pyBlockWords {
		if rest, ok := strings.CutPrefix(line, w); ok && (rest == "" || !pyIdent(rest[0])) {
			return true
		}
	}
	return false
}
