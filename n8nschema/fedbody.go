package n8nschema

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// A model request whose whole JSON body is one expression reading the
// item ("={{ JSON.stringify($json.body) }}") sends what the node before it
// put there: HttpRequestV3 parses the expression's result as the body. When
// that node is a Code node whose top-level return builds the field from an
// object literal, or a Set node that sets it to one, the literal is read
// here, without a JavaScript parser beyond what that takes.

// fedBodyRefRE is a body expression that reads one field of an item:
// $json.K, $json["K"], $input.item.json.K, or $('Node').item.json.K
// (also .first(), .last()), bare or inside JSON.stringify( ).
var fedBodyRefRE = lazyregexp.New(`^\{\{\s*(?:JSON\.stringify\(\s*)?(\$json|\$input\.(?:item|first\(\)|last\(\))\.json|\$\(\s*(?:'([^']+)'|"([^"]+)")\s*\)\.(?:item|first\(\)|last\(\))\.json)((?:\??\.[A-Za-z_$][\w$]*|\[\s*(?:'[^']*'|"[^"]*")\s*\])*)\s*(\))?\s*\}\}$`)

var fedPathPartRE = lazyregexp.New(`[A-Za-z_$][\w$]*|'[^']*'|"[^"]*"`)

// fedBody returns the object literal that the body expression expr of
// HTTP node n sends, read from the node that builds it, and false when
// that is not one literal it can read.
//
// The field may also hold the literal as JSON text, JSON.stringify({…})
// written in place or held by a const the code declares once: raw is
// true for a raw body, which n8n sends as the text it is given, so there
// the JSON text must come from exactly one JSON.stringify (in the field,
// or in the body's expression); a JSON body parses text it is given
// (HttpRequestV3.node.js jsonBody), so there it may come from the field
// but not from both (text of text is a string, not the object).
func fedBody(n *Node, expr string, raw bool) (string, bool) {
	m := fedBodyRefRE.FindStringSubmatch(strings.TrimSpace(expr))
	if m == nil || n.wf == nil || strings.Contains(expr, "JSON.stringify(") != (m[5] == ")") {
		return "", false
	}
	exprText := m[5] == ")"
	var path []string
	for _, p := range fedPathPartRE.FindAllString(m[4], -1) {
		path = append(path, strings.Trim(p, `'"`))
	}
	var from *Node
	if name := m[2] + m[3]; name != "" {
		from = n.wf.Node(name)
	} else {
		from = itemSource(n)
	}
	if from == nil || from.Disabled {
		return "", false
	}
	a := n.wf.fedFrom(from, path)
	if !a.ok || exprText && a.text || raw && !exprText && !a.text {
		return "", false
	}
	return a.body, true
}

// fedKey names field path of what node from outputs.
type fedKey struct {
	from *Node
	path string
}

// fedAnswer is the literal at a fedKey (codeBody, setBody).
type fedAnswer struct {
	body     string
	text, ok bool
}

// fedFrom reads field path of what node from of w outputs (codeBody,
// setBody), once for w whatever the number of nodes that ask.
func (w *Workflow) fedFrom(from *Node, path []string) fedAnswer {
	k := fedKey{from, strings.Join(path, "\x00")}
	w.fedMu.Lock()
	a, hit := w.fed[k]
	w.fedMu.Unlock()
	if hit {
		return a
	}
	switch {
	case from.Type == TypeCode && (paramStr(from, "language") == "" || paramStr(from, "language") == "javaScript"):
		a.body, a.text, a.ok = codeBody(paramStr(from, "jsCode"), path)
	case from.Type == TypeSet && from.TypeVersion >= 3:
		a.body, a.ok = setBody(from, path)
	}
	w.fedMu.Lock()
	if w.fed == nil {
		w.fed = map[fedKey]fedAnswer{}
	}
	w.fed[k] = a
	w.fedReads++
	w.fedMu.Unlock()
	return a
}

// itemSource is the node whose items reach n unchanged: its only main
// input, followed back through gates that pass items as they are (If,
// Filter, Switch, No Operation).
func itemSource(n *Node) *Node {
	w := n.wf
	for range len(w.Nodes) {
		src := w.mainSources(n.Name)
		if len(src) != 1 {
			return nil
		}
		n = w.Node(src[0])
		if n == nil || n.Disabled || !IsBranch(n.Type) && n.Type != TypeNoOp {
			return n
		}
	}
	return nil
}

// mainSources returns the distinct nodes whose main outputs feed node to.
func (w *Workflow) mainSources(to string) []string {
	w.mainInOnce.Do(func() {
		w.mainIn = map[string][]string{}
		for _, c := range w.Connections {
			if c.FromType != "main" || c.ToType != "main" {
				continue
			}
			if s := w.mainIn[c.To]; !contains(s, c.From) {
				w.mainIn[c.To] = append(s, c.From)
			}
		}
	})
	return w.mainIn[to]
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// codeBody reads field path of the item a Code node's code returns: the
// one top-level return whose item carries the field (a return of [] or of
// an item without it sends no such body), as an object literal written
// in the return, or in a const, let or var the return names that nothing
// assigns to afterwards. n8n makes a returned object without a json key
// the item's json (n8n-core normalize-items.js normalizeItems).
//
// text is true when the field holds the literal as JSON text
// (JSON.stringify of it, stringified).
func codeBody(code string, path []string) (body string, text, ok bool) {
	found, count, asText := "", 0, false
	for _, at := range TopLevelReturns(code) {
		var ok bool
		v := strings.TrimLeft(code[at:], " \t\r\n")
		if strings.HasPrefix(v, "[]") || strings.HasPrefix(v, "[ ]") {
			continue
		}
		if v, ok = returnedValue(v); !ok {
			return "", false, false
		}
		if strings.HasPrefix(v, "[") {
			inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v[1:len(v)-1]), ","))
			if inner == "" || valueEnd(inner, 0) != len(inner) {
				return "", false, false // several items, or none it can read
			}
			v = inner
		}
		item, ok := objectValue(code, v)
		if !ok {
			return "", false, false
		}
		if j, ok, clean := litMember(item, "json"); clean && ok {
			if item, ok = objectValue(code, j); !ok {
				return "", false, false
			}
		} else if !clean {
			return "", false, false
		}
		body, has, text, ok := fieldAt(code, item, path)
		if !ok {
			return "", false, false
		}
		if has {
			found, count, asText = body, count+1, text
		}
	}
	return found, asText, count == 1
}

// returnedValue cuts what a return statement returns: a bracketed array
// or object, or a name, followed by the statement's end.
func returnedValue(v string) (string, bool) {
	end := 0
	switch {
	case strings.HasPrefix(v, "[") || strings.HasPrefix(v, "{"):
		end = closeOf(v, 0)
	default:
		for end < len(v) && isIdentByte(v[end]) {
			end++
		}
	}
	if end <= 0 {
		return "", false
	}
	rest := strings.TrimLeft(v[end:], " \t")
	if rest != "" && !strings.ContainsRune(";}\r\n", rune(rest[0])) && !strings.HasPrefix(rest, "//") {
		return "", false // the value goes on: [...].concat(x), body.messages
	}
	return v[:end], true
}

// fieldAt follows path down an object literal; has is false when the
// literal has no such field (and no spread that might add it). The last
// field may hold the literal as JSON text (stringified, text true).
func fieldAt(code, lit string, path []string) (body string, has, text, ok bool) {
	for i, k := range path {
		v, has, clean := litMember(lit, k)
		if !clean {
			return "", false, false, false
		}
		if !has {
			return "", false, false, true
		}
		if lit, ok = objectValue(code, v); ok {
			continue
		}
		if i < len(path)-1 || code == "" {
			return "", false, false, false
		}
		if lit, ok = stringified(code, v); !ok {
			return "", false, false, false
		}
		return lit, true, true, true
	}
	return lit, true, false, true
}

// jsonStringifyRE is a call of JSON.stringify, up to its open parenthesis.
var jsonStringifyRE = lazyregexp.New(`^JSON\.stringify\s*\(`)

// stringified is the object literal a value turns into JSON text:
// JSON.stringify(lit) or JSON.stringify(name), written there or held by a
// const, let or var declared once and never assigned to afterwards. A
// replacer other than null (which may drop or change keys) is refused; an
// indent changes only blanks.
func stringified(code, v string) (string, bool) {
	v = strings.TrimSpace(v)
	if jsIdentRE.MatchString(v) {
		d, ok := declaredValue(code, v)
		if !ok {
			return "", false
		}
		v = d
	}
	m := jsonStringifyRE.FindStringIndex(v)
	if m == nil || closeOf(v, m[1]-1) != len(v) {
		return "", false
	}
	args := v[m[1] : len(v)-1]
	end := valueEnd(args, 0)
	if end < 0 {
		return "", false
	}
	if end < len(args) {
		rest := strings.TrimSpace(args[end+1:])
		if r, _, _ := strings.Cut(rest, ","); strings.TrimSpace(r) != "null" {
			return "", false
		}
	}
	return objectValue(code, args[:end])
}

// setBody reads field path of what a Set node (v3 and later) outputs: the
// object literal it sets the field to, in manual mode (an assignment of
// type object, or an objectValue field before v3.3) or in its raw JSON.
// A field a dotted name also writes into (body.max_tokens) is not read
// (Set/v2/manual.mode.js, raw.mode.js; helpers/utils.js composeReturnItem).
func setBody(n *Node, path []string) (string, bool) {
	if paramStr(n, "mode") == "raw" {
		lit, ok := setObject(paramStr(n, "jsonOutput"))
		if !ok || len(path) == 0 && (n.TypeVersion < 3.3 || truthy(n, "includeOtherFields")) {
			return "", false
		}
		body, has, _, ok := fieldAt("", lit, path)
		return body, ok && has
	}
	if len(path) != 1 {
		return "", false
	}
	entries, valueKey, objType := n.Params().Get("assignments.assignments").Elems(), "value", "object"
	if n.TypeVersion < 3.3 {
		entries, valueKey, objType = n.Params().Get("fields.values").Elems(), "objectValue", "objectValue"
	}
	found, ok := "", false
	for _, e := range entries {
		name := e.Get("name").Str()
		switch {
		case name == path[0]:
			if e.Get("type").Str() != objType {
				return "", false
			}
			found, ok = setObject(strings.TrimPrefix(e.Get(valueKey).Str(), "="))
		case strings.HasPrefix(name, path[0]+"."):
			return "", false
		}
	}
	return found, ok
}

// truthy reports a boolean parameter set to true.
func truthy(n *Node, path string) bool {
	v, ok := n.Param(path)
	return ok && v.Kind() == Bool && v.True()
}

// setObject reads a Set value that is an object literal: JSON text (whose
// {{ }} n8n fills in before parsing it), or one expression that is an
// object literal ("{{ { model: 'x' } }}").
func setObject(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if wholeExpr("=" + v) {
		v = strings.TrimSpace(v[2 : len(v)-2])
	}
	if !strings.HasPrefix(v, "{") || closeOf(v, 0) != len(v) {
		return "", false
	}
	return v, true
}

// objectValue is the object literal a value is: written there, or held
// by a const, let or var the code declares once and never assigns to or
// into afterwards.
func objectValue(code, v string) (string, bool) {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "{") {
		return v, closeOf(v, 0) == len(v)
	}
	if code == "" || !jsIdentRE.MatchString(v) {
		return "", false
	}
	return declaredObject(code, v)
}

var jsIdentRE = lazyregexp.New(`^[A-Za-z_$][\w$]*$`)

// declaredObject finds `const|let|var name = { … }`, declared once, and
// refuses it when the code assigns to the name or into it later
// (name = …, name.max_tokens = …, name["x"] += …, Object.assign(name, …)).
func declaredObject(code, name string) (string, bool) {
	v, ok := declaredValue(code, name)
	if !ok || !strings.HasPrefix(v, "{") || closeOf(v, 0) != len(v) {
		return "", false
	}
	return v, true
}

// declaredValue is the value text of `const|let|var name = …`, declared
// once, up to the statement's end, refused when the code assigns to the
// name or into it later.
func declaredValue(code, name string) (string, bool) {
	q := regexp.QuoteMeta(name)
	decls := regexp.MustCompile(`\b(?:const|let|var)\s+`+q+`\s*=\s*`).FindAllStringIndex(code, -1)
	if len(decls) != 1 {
		return "", false
	}
	start := decls[0][1]
	if start >= len(code) {
		return "", false
	}
	// A bracket or a call ends the value where it closes: the statement
	// needs no ';' before the next line.
	var end int
	switch m := jsonStringifyRE.FindStringIndex(code[start:]); {
	case code[start] == '{':
		end = closeOf(code, start)
	case m != nil:
		end = closeOf(code, start+m[1]-1)
	default:
		end = valueEnd(code, start)
	}
	if end <= start {
		return "", false
	}
	if regexp.MustCompile(`Object\.assign\(\s*` + q + `\b`).MatchString(code) {
		return "", false
	}
	for _, m := range regexp.MustCompile(`(?:^|[^\w$.])`+q+`(?:\s*\??\.\s*[\w$]+|\s*\[[^\]]*\])*\s*[-+*/%&|^?]{0,3}=(?:[^=>]|$)`).FindAllStringIndex(code, -1) {
		if m[0] < decls[0][0] || m[0] >= decls[0][1] { // not the declaration itself
			return "", false
		}
	}
	return strings.TrimSpace(code[start:end]), true
}

// litMember returns the value text of key in an object literal (the last
// one, as JavaScript keeps). clean is false when the literal has a member
// it cannot read (a computed key, a method) or a spread that may add key,
// after its last write.
func litMember(lit, key string) (value string, has, clean bool) {
	ms, ok := litMembers(lit)
	if !ok {
		return "", false, false
	}
	clean = true
	for _, m := range ms {
		switch {
		case m.key == "...":
			clean = false // a spread may hold key
		case m.key == key:
			value, has, clean = m.value, true, true
		}
	}
	if !clean {
		return "", false, false
	}
	return value, has, true
}

type objMember struct {
	key, value string // key "..." for a spread; value is the key for shorthand
}

// litMembers lists an object literal's members in order; false when one is
// not key: value, shorthand or a spread (a computed key, a method, an
// expression where a key goes).
func litMembers(lit string) ([]objMember, bool) {
	if len(lit) < 2 || lit[0] != '{' || lit[len(lit)-1] != '}' {
		return nil, false
	}
	s := lit[:len(lit)-1]
	var out []objMember
	i := 1
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			return out, true
		}
		var key string
		switch c := s[i]; {
		case strings.HasPrefix(s[i:], "..."):
			j := valueEnd(s, i+3)
			if j < 0 {
				return nil, false
			}
			out = append(out, objMember{"...", strings.TrimSpace(s[i+3 : j])})
			i = j
			goto next
		case c == '"' || c == '\'':
			j := jsSkip(s, i)
			if j <= i+1 || s[j-1] != c {
				return nil, false
			}
			key = s[i+1 : j-1]
			if c == '"' {
				if u, err := strconv.Unquote(s[i:j]); err == nil {
					key = u
				}
			}
			i = j
		case isIdentByte(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			key, i = s[i:j], j
		default:
			return nil, false
		}
		i = skipSpace(s, i)
		switch {
		case i < len(s) && s[i] == ':':
			j := valueEnd(s, i+1)
			if j < 0 {
				return nil, false
			}
			out = append(out, objMember{key, strings.TrimSpace(s[i+1 : j])})
			i = j
		case i >= len(s) || s[i] == ',':
			if !jsIdentRE.MatchString(key) {
				return nil, false
			}
			out = append(out, objMember{key, key})
		default:
			return nil, false // a method or an accessor
		}
	next:
		i = skipSpace(s, i)
		if i < len(s) {
			if s[i] != ',' {
				return nil, false
			}
			i++
		}
	}
}

// skipSpace skips blanks and comments.
func skipSpace(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r':
			i++
		case strings.HasPrefix(s[i:], "//") || strings.HasPrefix(s[i:], "/*"):
			i = jsSkip(s, i)
		default:
			return i
		}
	}
	return i
}

// valueEnd returns the offset of the ',' (or the end of s, or of the
// statement at ';') that ends the value starting at i, brackets, strings
// and template literals skipped; -1 when a bracket closes that it did not
// open.
func valueEnd(s string, i int) int {
	for i < len(s) {
		if j := jsSkip(s, i); j > i {
			i = j
			continue
		}
		switch s[i] {
		case ',', ';':
			return i
		case '{', '[', '(':
			j := closeOf(s, i)
			if j < 0 {
				return -1
			}
			i = j
			continue
		case '}', ']', ')':
			return -1
		}
		i++
	}
	return i
}

// closeOf returns the offset just past the bracket that closes the one at
// i, strings, template literals and comments skipped; -1 when none does.
func closeOf(s string, i int) int {
	depth := 0
	for j := i; j < len(s); {
		if k := jsSkip(s, j); k > j {
			j = k
			continue
		}
		switch s[j] {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
		j++
	}
	return -1
}

// jsSkip returns the offset just past the string, template literal or
// comment starting at i, or i when none starts there.
func jsSkip(s string, i int) int {
	switch {
	case s[i] == '"' || s[i] == '\'':
		j := i + 1
		for j < len(s) && s[j] != s[i] && s[j] != '\n' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		return min(j+1, len(s))
	case s[i] == '`':
		j := i + 1
		for j < len(s) && s[j] != '`' {
			switch {
			case s[j] == '\\':
				j += 2
			case strings.HasPrefix(s[j:], "${"):
				k := closeOf(s, j+1)
				if k < 0 {
					return len(s)
				}
				j = k
			default:
				j++
			}
		}
		return min(j+1, len(s))
	case strings.HasPrefix(s[i:], "//"):
		if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
			return i + k + 1
		}
		return len(s)
	case strings.HasPrefix(s[i:], "/*"):
		if k := strings.Index(s[i+2:], "*/"); k >= 0 {
			return i + 2 + k + 2
		}
		return len(s)
	}
	return i
}

// fedCapKeys are the output caps a model body may set at its top level;
// Gemini's sits in generationConfig.
var fedCapKeys = []string{"max_tokens", "max_completion_tokens", "max_output_tokens", "maxOutputTokens"}

// readFedBody judges a body literal: its literal cap (capped), or a
// literal model, or the URL's, and no cap (uncapped, model named).
// decided is false, the cap being the run's, when a cap is set by an
// expression, the body may gain keys (a spread, a computed key), or it
// names no model.
func readFedBody(lit, urlModel string) (model string, maxTokens int, capped, decided bool) {
	ms, ok := litMembers(lit)
	if !ok {
		return "", 0, false, false
	}
	var capVal string
	var hasCap bool
	for _, m := range ms {
		switch {
		case m.key == "...":
			return "", 0, false, false
		case m.key == "model":
			model = ""
			if u, ok := literalString(m.value); ok {
				model = u
			}
		case contains(fedCapKeys, m.key):
			capVal, hasCap = m.value, true
		case m.key == "generationConfig" || m.key == "generation_config":
			gc, ok := litMembers(m.value)
			if !ok {
				return "", 0, false, false
			}
			for _, g := range gc {
				switch g.key {
				case "...":
					return "", 0, false, false
				case "maxOutputTokens", "max_output_tokens":
					capVal, hasCap = g.value, true
				}
			}
		}
	}
	if model == "" {
		model = urlModel
	}
	if hasCap {
		v, err := strconv.Atoi(strings.Trim(capVal, `'"`))
		if err != nil || v <= 0 {
			return "", 0, false, false
		}
		return model, v, true, true
	}
	return model, 0, false, model != ""
}

// literalString is a quoted string with no expression in it.
func literalString(v string) (string, bool) {
	if len(v) < 2 || !strings.ContainsRune(`"'`+"`", rune(v[0])) || v[len(v)-1] != v[0] {
		return "", false
	}
	s := v[1 : len(v)-1]
	if strings.ContainsAny(s, `"'`+"`\\") || strings.Contains(s, "${") || strings.Contains(s, "{{") {
		return "", false
	}
	return s, true
}
