package n8nschema

import (
	"regexp"
	"strconv"
	"strings"
)

// leftAlwaysBoolean reports a first condition whose left value (left) is an
// expression that yields a boolean whatever the item holds, compared by
// a string or number operator, and why. n8n validates the left value
// against the operator's type whatever the operation
// (n8n-workflow/dist/cjs/node-parameters/filter-parameter.js
// parseFilterConditionValues, called by prepareFilterCondition for every
// condition); under strict validation type-validation.js refuses a
// boolean where a string or a number is expected, so the test throws on
// every item.
func leftAlwaysBoolean(left Value, typ string) (string, bool) {
	if typ != "string" && typ != "number" {
		return "", false
	}
	if left.Kind() != String || !left.IsExpr() || !certainBoolean(left.Str()) {
		return "", false
	}
	text := left.Str()[1:]
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return "its first condition's value " + strconv.Quote(text) + " is always a boolean, compared as a " + typ +
		", and strict type validation throws \"Wrong type\" on every item", true
}

// ternaryBoolRE is the tail of a conditional whose branches are the two
// booleans.
var ternaryBoolRE = regexp.MustCompile(`^\s*(true\s*:\s*false|false\s*:\s*true)\s*$`)

// certainBoolean reports a parameter expression whose value is a boolean
// from its text alone: a single {{ }} holding nothing else (any text
// around it makes the value a string) that is a conditional whose
// branches are true and false (x ? true : false), a negation of one
// operand (!x, !!x) or Boolean(...).
func certainBoolean(s string) bool {
	text, ok := strings.CutPrefix(s, "=")
	if !ok || !strings.HasPrefix(text, "{{") || !strings.HasSuffix(text, "}}") || len(text) < 4 {
		return false
	}
	code := text[2 : len(text)-2]
	if strings.Contains(code, "{{") || strings.Contains(code, "}}") {
		return false
	}
	code = strings.TrimSpace(code)
	if code == "" || strings.Contains(code, "=>") {
		return false
	}
	switch q := topLevelTernary(code); {
	case q == -2 || q == 0:
		return false
	case q > 0:
		return ternaryBoolRE.MatchString(code[q+1:])
	}
	if strings.HasPrefix(code, "Boolean(") {
		end, ok := closing(code, len("Boolean"))
		return ok && end == len(code)-1
	}
	if strings.HasPrefix(code, "!") {
		return simpleOperand(strings.TrimLeft(code, "! "))
	}
	return false
}

// topLevelTernary returns the index of the first "?" outside brackets
// and string literals that is a conditional's (not "?." or "??"), -1 for
// none, -2 when the text cannot be read.
func topLevelTernary(code string) int {
	depth := 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '"', '\'', '`':
			j, ok := skipString(code, i)
			if !ok {
				return -2
			}
			i = j
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '?':
			if i+1 < len(code) && (code[i+1] == '.' || code[i+1] == '?') {
				i++
				continue
			}
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// simpleOperand reports a member chain or call (a.b["c"](d)?.e) with no
// operator outside its brackets.
func simpleOperand(code string) bool {
	if code == "" {
		return false
	}
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '(' || c == '[':
			end, ok := closing(code, i)
			if !ok {
				return false
			}
			i = end
		case c == '?' && i+1 < len(code) && code[i+1] == '.':
			i++
		case c == '.' || c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		default:
			return false
		}
	}
	return true
}

// closing returns the index of the bracket that closes the one at i.
func closing(code string, i int) (int, bool) {
	depth := 0
	for ; i < len(code); i++ {
		switch c := code[i]; c {
		case '"', '\'', '`':
			j, ok := skipString(code, i)
			if !ok {
				return 0, false
			}
			i = j
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i, true
			}
		}
	}
	return 0, false
}

// skipString returns the index of the quote that closes the string
// literal opening at i.
func skipString(code string, i int) (int, bool) {
	q := code[i]
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case '\\':
			j++
		case q:
			return j, true
		}
	}
	return 0, false
}
