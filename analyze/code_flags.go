package analyze

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// What a Code node's JavaScript says about the fields of the item it
// reads: a flag it computes from whether a field is there
// (ok = typeof s.worker_hours === 'number'). A node that failed under
// continue-on-fail passes {error: …} instead of its result, so such a flag
// is false for the failed item, and a condition that tests the flag sends
// it down a branch the workflow chose.

// FieldFlag is a name a Code node binds to a test of a field of an item.
type FieldFlag struct {
	// Name is the variable or output key the test's value is bound to.
	Name string
	// Of is the item the tested field belongs to, as the code reaches it:
	// "$json", "$input.item.json", "item.json" (a loop's variable),
	// "$('Runner Stats').item.json".
	Of string
}

// itemRefRE matches a reference to an item's JSON in n8n's Code node:
// a named node's ($('Name')….json, $node["Name"].json), the input's
// ($input.item.json, $input.first().json, $input.all()[0].json), $json,
// items[0].json, or a loop variable's (item.json).
var itemRefRE = lazyregexp.New(`\$\(\s*['"][^'"]+['"]\s*\)[\w.()\[\]]*?\.json\b|\$node\[\s*['"][^'"]+['"]\s*\]\.json\b|\$input\.[\w.()\[\]]*?json\b|\$json\b|\bitems\[\s*\w+\s*\]\.json\b|\b[A-Za-z_]\w*\.json\b`)

// aliasRE matches a variable bound to an item or a part of it:
// const s = $input.item.json || {}; let r = $('Stats').first().json.data.
var aliasRE = lazyregexp.New(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*`)

// fieldPath is a field read after a reference: .a, ?.a, ["a"], ['a'].
const fieldPath = `(?:\??\.[A-Za-z_$][\w$]*|\[\s*['"][^'"]+['"]\s*\])+`

// jsLiteral is a literal a ternary flag picks: true, 'missing', "Yes".
const jsLiteral = `(?:true|false|null|'[^']*'|"[^"]*")`

// testJoinRE matches what may come between a flag's = and a test of it:
// nothing, a negation, a parenthesis, or earlier tests joined by && or ||
// (ok = typeof s.a === 'number' && typeof s.b === 'number').
var testJoinRE = lazyregexp.New(`^[\s!(]*$|(&&|\|\|)[\s!(]*$`)

// onlyTests reports whether the text between a flag's = (or :) and a test
// binds the test's value, not a value picked or computed with it: no
// arrow function (items.filter(i => !i.json.x)), no ternary, no call.
func onlyTests(between string) bool {
	if strings.HasPrefix(between, "=") || strings.HasPrefix(between, ">") || strings.Contains(between, "=>") || strings.Contains(between, "?") {
		return false
	}
	return testJoinRE.MatchString(between)
}

// assignRE matches the start of a value bound to a name: ok = …,
// const ok = …, ok: …, "ok": …, item.json.ok = ….
var assignRE = lazyregexp.New(`^\s*(?:(?:const|let|var)\s+)?(?:[\w$]+\.)*["']?([A-Za-z_$][\w$]*)["']?\s*(?::|=)`)

// boolAssignRE matches a name set to true or false: ok = false, ok: true.
var boolAssignRE = lazyregexp.New(`["']?([A-Za-z_$][\w$]*)["']?\s*(?::|=)\s*(?:true|false)\b`)

// FieldFlags returns the names the code binds to a test of a field of an
// item: typeof x.f === 'number', x.f !== undefined, x.f == null, !x.f,
// 'f' in x, x.hasOwnProperty('f'), x.f ? … : …, as the value of a variable
// or an output key (ok = typeof s.f === 'number'; {found: !!x.f}), or a
// flag set to true or false under an if that makes such a test. A name
// bound to another flag (available: ok) is one too. x is an item reference
// or a variable bound to one. A fallback (x.f || 'n/a', x.f ?? 0) is not a
// test: it hides the missing field.
func FieldFlags(code string) []FieldFlag {
	if code == "" || !strings.Contains(code, "json") {
		return nil
	}
	refs := itemRefs(code)
	if len(refs) == 0 {
		return nil
	}
	var out []FieldFlag
	seen := map[string]bool{}
	add := func(name, of string) {
		if name == "" || seen[name] || jsWords[name] {
			return
		}
		seen[name] = true
		out = append(out, FieldFlag{Name: name, Of: of})
	}
	for _, t := range fieldTests(code, refs) {
		start, inIf := valueStart(code, t.at)
		if inIf {
			// if (typeof s.f !== 'number') { ok = false } : the flags set
			// in the statement the test guards.
			for _, m := range boolAssignRE.FindAllStringSubmatch(guarded(code, t.at), -1) {
				add(m[1], t.of)
			}
			continue
		}
		if m := assignRE.FindStringSubmatch(code[start:t.at]); m != nil && onlyTests(code[start+len(m[0]):t.at]) {
			add(m[1], t.of)
		}
	}
	// One round of names bound to a flag: available: ok, found = !ok.
	for i, f := range append([]FieldFlag(nil), out...) {
		if i == maxRefs {
			break
		}
		re := regexp.MustCompile(`["']?([A-Za-z_$][\w$]*)["']?\s*(?::|=)\s*!?\s*` + regexp.QuoteMeta(f.Name) + `\b\s*(?:[,;}\n]|$)`)
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			add(m[1], f.Of)
		}
	}
	return out
}

// jsWords are keywords the binding patterns may catch.
var jsWords = map[string]bool{"const": true, "let": true, "var": true, "return": true, "if": true,
	"json": true, "true": true, "false": true, "typeof": true}

// maxRefs bounds the item references and aliases a code is searched
// for, and so the size of the patterns built from them: a run stays
// linear in the size of the code.
const maxRefs = 32

// maxSpan bounds how far a statement is read around a test, so that the
// tests of a code cost no more than its length times a constant.
const maxSpan = 600

// fieldTest is a test of a field of the item of reference of, at offset at.
type fieldTest struct {
	at int
	of string
}

// itemRefs returns the item references the code uses, with the variables
// bound to them (const s = $input.item.json || {} binds s to
// $input.item.json), each name mapped to what it stands for.
func itemRefs(code string) map[string]string {
	refs, _ := itemRefsRead(code)
	return refs
}

// maxRefLen bounds the length of an item reference an alias binds: the
// scan for each alias's reference reads within maxSpan+maxRefLen bytes of
// it (a reference the statement binds starts within maxSpan: ternaryThen),
// so that a code of many declarations is read in linear time.
const maxRefLen = 4 << 10

// itemRefsRead is itemRefs, with the bytes its alias scan read.
func itemRefsRead(code string) (map[string]string, int) {
	refs := map[string]string{}
	read := 0
	for _, loc := range itemRefRE.FindAllStringIndex(code, -1) {
		if loc[0] > 0 && (code[loc[0]-1] == '.' || code[loc[0]-1] == '$') {
			continue // the tail of a longer reference ($('X').item.json)
		}
		if strings.HasPrefix(code[loc[1]:], "(") {
			continue // a method (response.json()), not an item
		}
		if len(refs) >= maxRefs {
			break
		}
		r := code[loc[0]:loc[1]]
		refs[r] = r
	}
	for _, m := range aliasRE.FindAllStringSubmatchIndex(code, -1) {
		if len(refs) >= 2*maxRefs {
			break
		}
		rest := code[m[1]:min(len(code), m[1]+maxSpan+maxRefLen)]
		read += len(rest)
		loc := itemRefRE.FindStringIndex(rest)
		if loc != nil && loc[0] != 0 && !ternaryThen(rest[:loc[0]]) || loc == nil {
			continue
		}
		refs[code[m[2]:m[3]]] = rest[loc[0]:loc[1]]
	}
	return refs, read
}

// ternaryThen reports whether the text before an item reference makes it
// the value a ternary picks when its condition holds, within the statement:
// const dm = $('DM').isExecuted ? $('DM').first().json : null binds dm to
// that item (or to nothing).
func ternaryThen(pre string) bool {
	return len(pre) <= maxSpan && !strings.ContainsAny(pre, ";\n") && strings.HasSuffix(strings.TrimRight(pre, " \t"), "?") &&
		!strings.HasSuffix(strings.TrimRight(pre, " \t"), "??")
}

// fieldTestPattern is a pattern of a test of a field of a reference
// (ref, the references' alternation), with the literals one of which
// each of its matches holds: without any in a code, it is neither built
// nor run (TestFieldTestNeeds).
type fieldTestPattern struct {
	needs []string
	re    string
}

// fieldTestPatterns are the tests fieldTests looks for.
func fieldTestPatterns(ref string) [10]fieldTestPattern {
	return [...]fieldTestPattern{
		{[]string{"typeof"}, `typeof\s+` + ref + fieldPath + `\s*[!=]==?\s*(?:'[^']*'|"[^"]*")`},
		{[]string{"undefined", "null"}, ref + fieldPath + `\s*[!=]==?\s*(?:undefined|null)\b`},
		{[]string{"true"}, ref + fieldPath + `\s*[!=]==?\s*true\b`}, // dm?.ok === true: false when the field is missing
		{[]string{"undefined", "null"}, `(?:undefined|null)\s*[!=]==?\s*` + ref + fieldPath},
		{[]string{"!"}, `!\s*` + ref + fieldPath},
		{[]string{"in"}, `['"][\w$]+['"]\s+in\s+` + ref + `\b`},
		{[]string{".hasOwnProperty("}, ref + `\.hasOwnProperty\(\s*['"][^'"]*['"]\s*\)`},
		{[]string{"Object.hasOwn("}, `Object\.hasOwn\(\s*` + ref + `\s*,\s*['"][^'"]*['"]\s*\)`},
		{[]string{"Boolean(", "Array.isArray(", "Number.isFinite("}, `(?:Boolean|Array\.isArray|Number\.isFinite)\(\s*` + ref + fieldPath + `\s*\)`},
		{[]string{"?"}, ref + fieldPath + `\s*\?\s*` + jsLiteral + `\s*:\s*` + jsLiteral},
	}
}

// fieldTests finds the tests of a field of a reference in refs.
func fieldTests(code string, refs map[string]string) []fieldTest {
	var out []fieldTest
	for _, p := range fieldTestPatterns(refAlternation(refs)) {
		if !slices.ContainsFunc(p.needs, func(lit string) bool { return strings.Contains(code, lit) }) {
			continue
		}
		rx, err := regexp.Compile(p.re)
		if err != nil {
			continue
		}
		for _, m := range rx.FindAllStringSubmatchIndex(code, -1) {
			if m[2] > 0 && (code[m[2]-1] == '.' || isIdent(code[m[2]-1])) {
				continue // not the whole name (xs.json, a.s)
			}
			if picks(code[m[1]:]) {
				continue // cond ? a : b picks a value with the test; the value is no flag
			}
			out = append(out, fieldTest{at: m[0], of: refs[code[m[2]:m[3]]]})
		}
	}
	return out
}

// picks reports whether the text after a test goes on as a ternary's
// condition (… === 'string' ? JSON.parse(x) : x), past closing
// parentheses.
func picks(after string) bool {
	after = strings.TrimLeft(after, " \t\n)")
	return strings.HasPrefix(after, "?") && !strings.HasPrefix(after, "?.") && !strings.HasPrefix(after, "??")
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// valueStart walks back from offset at to the start of the expression it
// is in: after a ; or a line break, or a { , or ( that opens it. inIf is
// true when that ( is an if's.
func valueStart(code string, at int) (int, bool) {
	depth := 0
	for i := at - 1; i >= 0 && i >= at-maxSpan; i-- {
		switch c := code[i]; c {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth == 0 {
				if c == '(' && strings.HasSuffix(strings.TrimRight(code[:i], " \t"), "if") {
					return i + 1, true
				}
				if c == '(' {
					continue // a call or a group: the value goes on before it
				}
				return i + 1, false
			}
			depth--
		case ';', '\n':
			if depth == 0 {
				return i + 1, false
			}
		case ',':
			if depth == 0 {
				return i + 1, false
			}
		}
	}
	if at > maxSpan {
		return at, false // too far to tell: no binding
	}
	return 0, false
}

// guarded returns the statement after the if condition that holds offset
// at: the block { … } or the line that follows its closing parenthesis.
func guarded(code string, at int) string {
	depth := 1
	i := at
	code = code[:min(len(code), at+maxSpan)]
	for ; i < len(code) && depth > 0; i++ {
		switch code[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	rest := strings.TrimLeft(code[i:], " \t\n")
	if strings.HasPrefix(rest, "{") {
		d := 0
		for j := 0; j < len(rest); j++ {
			switch rest[j] {
			case '{':
				d++
			case '}':
				d--
				if d == 0 {
					return rest[:j+1]
				}
			}
		}
		return rest
	}
	if j := strings.IndexAny(rest, ";\n"); j >= 0 {
		return rest[:j]
	}
	return rest
}

// FieldFallbacks returns the fields of an item the code reads with a
// fallback of its own words (item.json.resposta || 'Got your message, we
// will answer here.', x.reply ?? "Thanks for your comment!"): Name is the
// field, Of the item it belongs to. A placeholder of fewer than three words
// (|| 'n/a', ?? '{}', || 0) is a silent default, not an answer written for
// the case the field is missing, and is left out; so is the error field.
func FieldFallbacks(code string) []FieldFlag {
	if code == "" || !strings.Contains(code, "json") || !strings.Contains(code, "||") && !strings.Contains(code, "??") {
		return nil
	}
	refs := itemRefs(code)
	if len(refs) == 0 {
		return nil
	}
	rx, err := regexp.Compile(refAlternation(refs) + `(` + fallbackPath + `)\s*(?:\|\||\?\?)\s*('[^'\n]*'|"[^"\n]*"|` + "`[^`]*`" + `)`)
	if err != nil {
		return nil
	}
	var out []FieldFlag
	seen := map[FieldFlag]bool{}
	for _, m := range rx.FindAllStringSubmatchIndex(code, -1) {
		if m[2] > 0 && (code[m[2]-1] == '.' || isIdent(code[m[2]-1])) {
			continue // not the whole name
		}
		path, lit := code[m[4]:m[5]], code[m[6]+1:m[7]-1]
		field := strings.Trim(path[strings.LastIndexAny(path, ".[")+1:], `"' ]`)
		f := FieldFlag{Name: field, Of: refs[code[m[2]:m[3]]]}
		if strings.Contains(strings.ToLower(path), "error") || wordCount(lit) < 3 || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}

// fallbackPath is a field read after a reference, indexes included:
// .a, ?.a, ["a"], [0], ?.[0].
const fallbackPath = `(?:\??\.[A-Za-z_$][\w$]*|(?:\?\.)?\[\s*(?:\d+|['"][^'"]+['"])\s*\])+`

// refAlternation is a pattern group matching any name in refs, the
// longest first (the alternation takes the first that matches).
func refAlternation(refs map[string]string) string {
	var names []string
	for r := range refs {
		names = append(names, r)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	for i, r := range names {
		names[i] = regexp.QuoteMeta(r)
	}
	return `(` + strings.Join(names, "|") + `)`
}

// wordCount counts the words of a text: runs with a letter in them.
func wordCount(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n
}
