package n8nschema

import "strings"

// TopLevelReturns returns the offset just after each `return` keyword of a
// Code node's code that returns from the node itself. n8n runs the code as
// the body of one async function and takes that function's result as the
// node's output (@n8n/task-runner/dist/js-task-runner/js-task-runner.js:
// "async function VmCodeWrapper() {" + code + "}", or runDirectly's
// "(async function() {" + code + "})()"), so a return inside a function
// the code defines (function, method, an arrow with a block body, an
// IIFE, a callback) is that function's, not the node's.
// It reads only what this needs: strings, template literals, comments and
// regular-expression literals are skipped, and a brace opens a function
// body after "=>" or after the ")" of a parameter list (one not preceded
// by if, for, for await, while, switch, catch or with). Unbalanced text is read as
// far as it goes; one pass, no backtracking.
func TopLevelReturns(code string) []int {
	var out []int
	// stack holds what each open brace is: 'f' a function body, 'b' a
	// block or object, 'e' a template literal's ${ }, with a 't' for the
	// template literal itself below it.
	var stack []byte
	funcs := 0
	var parens []int              // offsets of open '('
	lastClose, lastOpen := -1, -1 // the last ')' and its '('
	prev := -1                    // offset of the last significant character
	inTemplate := false
	for i := 0; i < len(code); i++ {
		c := code[i]
		if inTemplate {
			switch {
			case c == '\\':
				i++
			case c == '`':
				inTemplate = false
				stack = stack[:len(stack)-1] // the 't'
				prev = i
			case c == '$' && i+1 < len(code) && code[i+1] == '{':
				stack = append(stack, 'e')
				inTemplate = false
				i++
				prev = i
			}
			continue
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == '/' && i+1 < len(code) && code[i+1] == '/':
			for i < len(code) && code[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(code) && code[i+1] == '*':
			j := strings.Index(code[i+2:], "*/")
			if j < 0 {
				return out
			}
			i += 2 + j + 1
			continue
		case c == '/' && regexMayStart(code, prev):
			i = skipRegex(code, i)
		case c == '"' || c == '\'':
			for i++; i < len(code) && code[i] != c && code[i] != '\n'; i++ {
				if code[i] == '\\' {
					i++
				}
			}
		case c == '`':
			stack = append(stack, 't')
			inTemplate = true
		case c == '(':
			parens = append(parens, i)
		case c == ')':
			if len(parens) > 0 {
				lastOpen, lastClose = parens[len(parens)-1], i
				parens = parens[:len(parens)-1]
			}
		case c == '{':
			kind := byte('b')
			if prev >= 1 && code[prev] == '>' && code[prev-1] == '=' ||
				prev >= 0 && prev == lastClose && !controlWord(wordBefore(code, lastOpen)) {
				kind = 'f'
				funcs++
			}
			stack = append(stack, kind)
		case c == '}':
			if len(stack) == 0 {
				break
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top == 'f' {
				funcs--
			}
			if top == 'e' && len(stack) > 0 && stack[len(stack)-1] == 't' {
				inTemplate = true
			}
		case isIdentByte(c):
			j := i
			for j < len(code) && isIdentByte(code[j]) {
				j++
			}
			if funcs == 0 && code[i:j] == "return" && (i == 0 || code[i-1] != '.') {
				out = append(out, j)
			}
			i = j - 1
		}
		prev = i
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z' || c >= 0x80
}

// wordBefore returns the identifier that ends just before offset i,
// spaces skipped ("if" for "if (").
func wordBefore(code string, i int) string {
	for i > 0 && (code[i-1] == ' ' || code[i-1] == '\t' || code[i-1] == '\n' || code[i-1] == '\r') {
		i--
	}
	end := i
	for i > 0 && isIdentByte(code[i-1]) {
		i--
	}
	return code[i:end]
}

// controlWord reports the keywords whose "( … ) {" opens a block, not a
// function body.
func controlWord(w string) bool {
	switch w {
	case "if", "for", "await", "while", "switch", "catch", "with": // for await (…) {
		return true
	}
	return false
}

// regexMayStart reports whether a '/' after the significant character at
// prev starts a regular-expression literal rather than a division: at the
// start, after an operator or an opening bracket, or after "return".
func regexMayStart(code string, prev int) bool {
	if prev < 0 {
		return true
	}
	switch c := code[prev]; {
	case c == ')' || c == ']' || c == '}':
		return false
	case isIdentByte(c):
		w := wordBefore(code, prev+1)
		return w == "return" || w == "typeof" || w == "case"
	}
	return true
}

// skipRegex returns the offset of the '/' that closes the regular
// expression opening at i, or i itself when the line ends first (a
// division after all).
func skipRegex(code string, i int) int {
	class := false
	for j := i + 1; j < len(code) && code[j] != '\n'; j++ {
		switch code[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				return j
			}
		}
	}
	return i
}
