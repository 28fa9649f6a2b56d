package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// pythonGlobals judges a Code node v2 in Python whose code reads, at its
// top level, a name n8n 2's Python runner does not define: n8n 2 sends
// both "python" (the legacy Pyodide value) and "pythonNative" to the
// native runner (nodes-base Code/Code.node.js execute, L183–205: typeVersion
// 2 reads language, v1 runs JavaScript), whose only globals are _items in
// "run once for all items" mode (the default) and _item in "for each item"
// mode; _input, _json, _("Node") and the other mode's accessor are
// undefined (Code/descriptions/PythonCodeDescription.js, L16 and the
// notice after it). Reading one raises a NameError on every item. n8n 1.x
// ran "python" on Pyodide, which defined them: only n8n 2 and later are
// judged. A name is judged only where every use reads it (_input. or
// _json[ ...) outside strings and comments, none binds it, and the first
// use is on a line at the top level that no earlier return or raise
// outside a def can skip.
func pythonGlobals(nd *n8nschema.Node, v n8nschema.Version) (string, bool) {
	if v.Major < 2 || nd.Type != n8nschema.TypeCode || nd.TypeVersion != 2 {
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
	other := "_item" // the accessor of the mode the node is not in
	if p.Get("mode").Str() == "runOnceForEachItem" {
		other = "_items"
	}
	code := pythonCodeOnly(c.Str())
	for _, name := range []string{"_input", "_json", "_", other} {
		if pythonTopLevelRead(code, name) {
			shown := name
			if name == "_" {
				shown = `_("…")`
			}
			return "its Python code reads " + shown + ", which n8n 2's Python runner does not define (only _items, or _item for each item), so it raises a NameError", true
		}
	}
	return "", false
}

// pythonCodeOnly blanks a Python source's comments and string literals
// (newlines kept), so that names are found in code only.
func pythonCodeOnly(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '#':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case c == '"' || c == '\'':
			q := string(b[i : i+1])
			if i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				q = strings.Repeat(q, 3)
			}
			end := strings.Index(s[i+len(q):], q)
			// a backslash escapes the quote in a one-line string
			for len(q) == 1 && end >= 0 {
				j := i + 1 + end
				k := j
				for k > i+1 && b[k-1] == '\\' {
					k--
				}
				if (j-k)%2 == 0 {
					break
				}
				next := strings.Index(s[j+1:], q)
				if next < 0 {
					end = -1
					break
				}
				end += 1 + next
			}
			stop := len(b)
			if end >= 0 {
				stop = i + len(q) + end + len(q)
			}
			for ; i < stop; i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if end >= 0 {
				b[i-1] = '"' // a string stays a value
			}
		default:
			i++
		}
	}
	return string(b)
}

func pyIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// pythonTopLevelRead reports whether code (pythonCodeOnly) reads name
// first on a top-level line that always runs, and every use of it reads
// it: name followed by "." or "[" (by "(" then a string for "_").
func pythonTopLevelRead(code, name string) bool {
	first := -1
	for i := 0; ; {
		k := strings.Index(code[i:], name)
		if k < 0 {
			break
		}
		at := i + k
		end := at + len(name)
		i = end
		if at > 0 && (pyIdent(code[at-1]) || code[at-1] == '.') || end < len(code) && pyIdent(code[end]) {
			continue // part of another name, or an attribute
		}
		rest := strings.TrimLeft(code[end:], " \t")
		reads := strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "[")
		if name == "_" {
			rest, ok := strings.CutPrefix(rest, "(")
			reads = ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), `"`) // the string is blanked to its closing quote
		}
		if !reads {
			return false // bound, or passed: not the missing global
		}
		if first < 0 {
			first = at
		}
	}
	if first < 0 {
		return false
	}
	// The line of the first use must be at the top level, after no
	// return or raise outside a def or class.
	start := strings.LastIndexByte(code[:first], '\n') + 1
	if start < len(code) && (code[start] == ' ' || code[start] == '\t') {
		return false
	}
	inDef := false
	for _, line := range strings.Split(code[:start], "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			inDef = strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") || strings.HasPrefix(t, "class ") || strings.HasPrefix(t, "@")
		}
		if !inDef && (hasWord(t, "return") || hasWord(t, "raise") || strings.Contains(t, "exit(")) {
			return false
		}
	}
	return true
}

// hasWord reports whether s holds w as a whole name.
func hasWord(s, w string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(w)
		if (at == 0 || !pyIdent(s[at-1])) && (end == len(s) || !pyIdent(s[end])) {
			return true
		}
		i = end
	}
}
