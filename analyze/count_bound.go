package analyze

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// typeLimit is the Limit node.
const typeLimit = "n8n-nodes-base.limit"

// countBounds is an upper bound on how many items one run of a node is
// given and sends, from a Limit node (maxItems, 1 when unset: it keeps
// items.slice(0, maxItems), or the last maxItems, whichever keep is set,
// n8n-nodes-base/dist/nodes/Transform/Limit/Limit.node.js execute L52–64)
// through nodes that send at most one item per item they are given; and
// the item fields a Code node sets to the count of its own input, read by
// a later test of that count. n8n runs a node once per list of items
// that reaches its input (each parent's list on its own: a node with two
// parents runs once for each), so a run's count is at most the largest
// bound of a list that reaches it. Whatever the model cannot decide is
// unbounded: a trigger, a node that may add items (a list or getAll
// operation, an HTTP Request, whose array body becomes many items, a
// Merge, an Item Lists or Split Out), a loop (a node met again on its own
// way back), a Code node whose return is not one of the shapes read here.
//
// Each memo is set before its node is read, so a loop meets the narrow
// answer (no bound, no field), and each node is read once however many
// ways reach it: the reads are linear in the workflow.
type countBounds struct {
	w      *n8nschema.Workflow
	in     map[string][]*n8nschema.Connection // main connections by target
	out    map[string]bound                   // outBoundWhy by node
	fields map[string]map[string]fieldBound   // inFields by node
	code   map[string]map[string]fieldBound   // codeFields by Code node
	// mu guards the memos: DecidedGate reads the Graph's countBounds
	// again after buildGraph.
	mu sync.Mutex
}

// bound is a bound on a count and what sets it.
type bound struct {
	b   float64
	why boundWhy
}

// boundWhy is the node whose rule sets a finite bound, and that rule: a
// Limit's maxItems, executeOnce, or alwaysOutputData lifting a bound of 0
// to its one empty item.
type boundWhy struct {
	node *n8nschema.Node
	rule uint8
}

const (
	byLimit uint8 = iota + 1
	byOnce
	byAlways
)

var noBound = math.Inf(1)

// newCountBounds is nil for a workflow with no Limit node: no bound.
func newCountBounds(w *n8nschema.Workflow) *countBounds {
	if !slices.ContainsFunc(w.Nodes, func(nd *n8nschema.Node) bool { return nd.Type == typeLimit && !nd.Disabled }) {
		return nil
	}
	cb := &countBounds{w: w, in: map[string][]*n8nschema.Connection{}, out: map[string]bound{},
		fields: map[string]map[string]fieldBound{}, code: map[string]map[string]fieldBound{}}
	for i := range w.Connections {
		if c := &w.Connections[i]; c.FromType == ConnMain {
			cb.in[c.To] = append(cb.in[c.To], c)
		}
	}
	return cb
}

// inBoundWhy bounds the items of one run of nd: the largest bound of a
// parent's list (that parent's cause), 1 with executeOnce (the node
// keeps the first item, n8n-core/dist/execution-engine/
// workflow-execute.js runNode); none for a trigger or a second input (a
// Merge and its kin combine lists).
func (cb *countBounds) inBoundWhy(nd *n8nschema.Node) (float64, boundWhy) {
	if nd.ExecuteOnce && !nd.Disabled {
		return 1, boundWhy{nd, byOnce}
	}
	b, why := noBound, boundWhy{}
	for i, c := range cb.in[nd.Name] {
		from := cb.w.Node(c.From)
		if c.ToIndex != 0 || from == nil {
			return noBound, boundWhy{}
		}
		x, xw := cb.outBoundWhy(from)
		if math.IsInf(x, 1) {
			return noBound, boundWhy{}
		}
		if i == 0 || x > b {
			b, why = x, xw
		}
	}
	return b, why
}

// outBoundWhy bounds the items one run of nd sends at any output, and
// says what sets the bound.
func (cb *countBounds) outBoundWhy(nd *n8nschema.Node) (float64, boundWhy) {
	if m, ok := cb.out[nd.Name]; ok {
		return m.b, m.why
	}
	cb.out[nd.Name] = bound{b: noBound}
	b, why := cb.sends(nd)
	if nd.AlwaysOutputData && b < 1 {
		b, why = 1, boundWhy{nd, byAlways} // one empty item when none goes on
	}
	cb.out[nd.Name] = bound{b, why}
	return b, why
}

// sends is outBoundWhy by the node's type.
func (cb *countBounds) sends(nd *n8nschema.Node) (float64, boundWhy) {
	p := nd.Params()
	switch {
	case nd.Disabled:
		// It passes its first input on (workflow-execute.js
		// handleDisabledNode).
		return cb.inBoundWhy(nd)
	case nd.Type == typeLimit:
		in, why := cb.inBoundWhy(nd)
		m := p.Get("maxItems")
		f, ok := m.Num()
		switch {
		case !m.Exists():
			f, ok = 1, true // the parameter's default (Limit.node.js L28)
		case !ok || m.Kind() != n8nschema.Number || f < 0:
			return in, why
		case !p.Get("keep").Exists() || literalIs(p.Get("keep"), "firstItems"):
			f = math.Floor(f) // items.slice(0, maxItems) (Limit.node.js L52–64)
		default:
			// items.slice(items.length - maxItems, items.length), what any
			// keep but firstItems runs, truncates its start toward 0.
			f = math.Ceil(f)
		}
		if f < in {
			return f, boundWhy{nd, byLimit}
		}
		return in, why
	case n8nschema.IsBranch(nd.Type):
		// Each output holds some of the items given, unchanged (IfV2,
		// FilterV2, SwitchV3 execute: an item goes to the outputs its
		// test picks, each at most once).
		return cb.inBoundWhy(nd)
	case nd.Type == n8nschema.TypeSet:
		// One item per item given (SetV2.node.js execute); duplicateItem
		// copies it, on a manual run (L322–360).
		if d := p.Get("duplicateItem"); !d.Exists() || d.Kind() == n8nschema.Bool && !d.True() {
			return cb.inBoundWhy(nd)
		}
	case nd.Type == n8nschema.TypeCode:
		// One item per item given in runOnceForEachItem mode (an array
		// fails: result-validation.js validateRunCodeEachItem); in
		// runOnceForAllItems JavaScript, the length of the list the code
		// maps or pushes once per element of (mappedList, pushedList).
		each, ok := codeEachItem(nd)
		if each {
			return cb.inBoundWhy(nd)
		}
		if !ok || !codeIsJS(nd) {
			break
		}
		code := p.Get("jsCode").Str()
		list, ok := mappedList(code)
		if !ok {
			list, ok = pushedList(code)
		}
		if name, own, isList := listOf(list); ok && own {
			return cb.inBoundWhy(nd)
		} else if ok && isList {
			if x := cb.w.Node(name); x != nil && x != nd {
				return cb.outBoundWhy(x)
			}
		}
	case nd.Type == "n8n-nodes-base.gmail":
		// A thread's get sends one item per item given, unless
		// returnOnlyMessages splits it into its messages
		// (Google/Gmail/v2/GmailV2.node.js L504–526).
		if nd.TypeVersion >= 2 && literalIs(p.Get("resource"), "thread") && literalIs(p.Get("operation"), "get") {
			if r := p.Get("options.returnOnlyMessages"); !r.Exists() || r.Kind() == n8nschema.Bool && !r.True() {
				return cb.inBoundWhy(nd)
			}
		}
	}
	return noBound, boundWhy{}
}

// literalIs reports v is the literal string s.
func literalIs(v n8nschema.Value, s string) bool {
	return v.Kind() == n8nschema.String && !v.IsExpr() && v.Str() == s
}

// codeIsJS reports a Code node that runs JavaScript.
func codeIsJS(nd *n8nschema.Node) bool {
	l := nd.Params().Get("language")
	return !l.Exists() || literalIs(l, "javaScript")
}

// codeEachItem reads a Code node's mode: runOnceForEachItem (each),
// runOnceForAllItems (the default), or neither (!ok).
func codeEachItem(nd *n8nschema.Node) (each, ok bool) {
	m := nd.Params().Get("mode")
	if !m.Exists() || literalIs(m, "runOnceForAllItems") {
		return false, true
	}
	each = literalIs(m, "runOnceForEachItem")
	return each, each
}

// The code readers below (mappedList, pushedList, countFields) judge a
// Code node's code only up to maxReadCode bytes, and countFields reads at
// most maxCountKeys object keys in the map's callback: a longer code is
// not judged (no bound, no count field, the narrow answer), so that a
// hostile file of one huge Code node is read in bounded time. The
// longest code of the corpora a bound is read from is under 4 KB. They
// scan the code by hand: no regexp is built from the code's own text.
const (
	maxReadCode  = 16 << 10
	maxCountKeys = 48
)

var (
	// listRE is a list whose length is read: the node's own input's
	// items, or another node's ($('X').all(), X in the submatches).
	listRE     = lazyregexp.New(`^(?:\$input\.all\(\s*\)|items|\$\(\s*(?:'([^'\\]+)'|"([^"\\]+)")\s*\)\.all\(\s*\))$`)
	jsIdentRE  = lazyregexp.New(`^[A-Za-z_$][\w$]*$`)
	controlRE  = lazyregexp.New(`\b(?:if|switch|for|while)\b`)
	countKeyRE = lazyregexp.New(`(?:^|[{,\s])([A-Za-z_$][\w$]*)\s*:\s*([A-Za-z_$][\w$]*(?:\(\s*\))?(?:\s*\.\s*[A-Za-z_$][\w$]*(?:\(\s*\))?)*)\s*[,}\n]`)
	forEachRE  = lazyregexp.New(`(\$input\.all\(\s*\)|\$\(\s*(?:'[^'\\]+'|"[^"\\]+")\s*\)\.all\(\s*\)|[A-Za-z_$][\w$]*)\s*\.\s*forEach\s*\(`)
	numberRE   = lazyregexp.New(`-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`)
)

// listOf reads a list listRE matches: own for the node's own input, else
// the name of the node whose list it is.
func listOf(s string) (name string, own, ok bool) {
	m := listRE.FindStringSubmatch(s)
	if m == nil {
		return "", false, false
	}
	return m[1] + m[2], m[1]+m[2] == "", true
}

// mapCall reads code whose one return from the node
// (n8nschema.TopLevelReturns) is `return L.map(…)`, the whole statement:
// L as written, and the offsets of the map's "(" and ")".
func mapCall(code string) (list string, open, end int, ok bool) {
	if len(code) > maxReadCode {
		return "", 0, 0, false // not judged
	}
	rets := n8nschema.TopLevelReturns(code)
	if len(rets) != 1 {
		return "", 0, 0, false
	}
	i := strings.Index(code[rets[0]:], ".map(")
	if i < 0 {
		return "", 0, 0, false
	}
	open = rets[0] + i + len(".map")
	end = closeParen(code, open)
	if end < 0 || !blank(strings.TrimPrefix(strings.TrimSpace(code[end+1:]), ";")) {
		return "", 0, 0, false
	}
	return strings.TrimSpace(code[rets[0] : rets[0]+i]), open, end, true
}

// mappedList is the list L of mapCall, resolved (resolveList):
// "$input.all()", "items", "$('X').all()".
func mappedList(code string) (string, bool) {
	list, _, _, ok := mapCall(code)
	if !ok {
		return "", false
	}
	return resolveList(code, list)
}

// resolveList is list as written, or the list a const it names holds
// when nothing grows it in place (push, unshift, splice, fill,
// copyWithin, a length set).
func resolveList(code, list string) (string, bool) {
	if _, _, ok := listOf(list); ok {
		return list, true
	}
	if !jsIdentRE.MatchString(list) {
		return "", false
	}
	v, ok := constValue(code, list)
	if _, _, isList := listOf(v); !ok || !isList {
		return "", false
	}
	for _, i := range nameOffsets(code, list) {
		k := tokenAt(code, i+len(list), ".")
		if !wordBoundary(code, i) || k < 0 {
			continue
		}
		for _, m := range []string{"push", "unshift", "splice", "fill", "copyWithin"} {
			if tokenAt(code, k, m) >= 0 {
				return "", false
			}
		}
		if k = tokenAt(code, tokenAt(code, k, "length"), "="); k >= 0 && k < len(code) && code[k] != '=' {
			return "", false
		}
	}
	return v, true
}

// pushedList reads a Code node's code whose only return from the node is
// `return R;`, R an array the code declares empty once (`let R = [];`)
// and fills with one R.push(item) of one argument, a statement of the
// body of the callback of a top-level `L.forEach(… => { … })`, L a list
// resolveList reads: one item per element of L at most (a return before
// the push skips it). R named anywhere else, a second push or a push in a
// block of the callback (a loop, a test) is not read.
func pushedList(code string) (string, bool) {
	if len(code) > maxReadCode {
		return "", false // not judged
	}
	rets := n8nschema.TopLevelReturns(code)
	if len(rets) != 1 {
		return "", false
	}
	r := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stripComments(code[rets[0]:])), ";"))
	if !jsIdentRE.MatchString(r) {
		return "", false
	}
	// R's uses: the declaration, the push, the return.
	uses, empty, rStart, pushOpen := 0, false, -1, -1
	for _, i := range nameOffsets(code, r) {
		if !nameStart(code, i) || !wordBoundary(code, i+len(r)) {
			continue
		}
		uses++
		end := i + len(r)
		if declAt(code, i) != "" && tokenAt(code, tokenAt(code, tokenAt(code, end, "="), "["), "]") >= 0 {
			empty = true
		}
		if k := tokenAt(code, tokenAt(code, tokenAt(code, end, "."), "push"), "("); pushOpen < 0 && k >= 0 {
			rStart, pushOpen = i, k-1
		}
	}
	if uses != 3 || !empty || pushOpen < 0 {
		return "", false
	}
	pushClose := closeParen(code, pushOpen)
	if pushClose < 0 {
		return "", false
	}
	arg := strings.TrimSpace(code[pushOpen+1 : pushClose])
	if arg == "" || strings.HasPrefix(arg, "...") || topLevelComma(arg) {
		return "", false
	}
	// The forEach whose callback holds the push. The matches come in
	// order: the nesting is carried from one to the next.
	var nest nester
	for _, m := range forEachRE.FindAllStringSubmatchIndex(code, -1) {
		open := m[1] - 1
		if pushOpen < open {
			break // this forEach and the ones after it start after the push
		}
		depth := nest.at(code, m[0])
		if end := closeParen(code, open); end < 0 || pushOpen > end {
			continue
		}
		if depth != 0 {
			return "", false // inside a block or a call
		}
		body := strings.Index(code[open:pushOpen], "=>")
		if body < 0 {
			return "", false
		}
		brace := len(code) - len(strings.TrimLeft(code[open+body+2:], " \t\n\r"))
		var n nester
		if brace >= len(code) || code[brace] != '{' || n.at(code[brace:], pushOpen-brace) != 1 {
			return "", false
		}
		// The push starts its own statement: nothing between it and the
		// last ; { or } before it (a for, while or else with no braces
		// would repeat or skip it).
		before := code[brace:rStart]
		if !blank(before[strings.LastIndexAny(before, ";{}")+1:]) {
			return "", false
		}
		return resolveList(code, strings.Join(strings.Fields(code[m[2]:m[3]]), ""))
	}
	return "", false
}

// countFields are the item fields a Code node sets to the count of its
// own input, on every item it sends: runOnceForAllItems JavaScript whose
// return maps its own input's items (mapCall) to objects with a key
// `field: N` of the json: object the map's callback returns, where N is
// the length of its own input's items (isOwnCount); each key written
// once in the code and no spread after it (a spread after it could set
// it again), and no test in the callback (?:, &&, ||, if, switch, a loop,
// two returns) that could build some items without it.
func countFields(nd *n8nschema.Node) []string {
	if nd.Type != n8nschema.TypeCode || nd.Disabled || !codeIsJS(nd) {
		return nil
	}
	code := nd.Params().Get("jsCode").Str()
	if each, ok := codeEachItem(nd); !ok || each || !strings.Contains(code, "length") {
		return nil
	}
	list, open, end, ok := mapCall(code)
	if !ok {
		return nil
	}
	if l, ok := resolveList(code, list); !ok {
		return nil
	} else if _, own, _ := listOf(l); !own {
		return nil
	}
	cbText := stripComments(code[open:end])
	if strings.Contains(cbText, "?") || strings.Contains(cbText, "&&") || strings.Contains(cbText, "||") ||
		controlRE.MatchString(cbText) || strings.Count(cbText, "return") > 1 {
		return nil
	}
	keys := countKeyRE.FindAllStringSubmatchIndex(code, -1)
	if n := slices.IndexFunc(keys, func(m []int) bool { return m[2] >= open }); n >= 0 && len(keys)-n > maxCountKeys {
		return nil // too many keys to judge (maxCountKeys)
	}
	lastSpread := strings.LastIndex(code, "...")
	var fields []string
	var nest nester // the keys come in order
	for _, m := range keys {
		key, val := code[m[2]:m[3]], code[m[4]:m[5]]
		if m[2] >= open && m[3] <= end && jsonKeyAt(code[open:], m[2]-open, &nest) &&
			isOwnCount(code, val) && keyCount(code, key) == 1 && lastSpread < m[1] {
			fields = append(fields, key)
		}
	}
	return fields
}

// isOwnCount reports an expression of the code that is the length of its
// own input's items: L.length, L $input.all(), items or a const holding
// one of these (resolveList), or a const holding that length.
func isOwnCount(code, val string) bool {
	val = strings.Join(strings.Fields(val), "")
	if jsIdentRE.MatchString(val) {
		v, _ := constValue(code, val)
		val = strings.Join(strings.Fields(v), "")
	}
	l, ok := strings.CutSuffix(val, ".length")
	if ok {
		l, ok = resolveList(code, l)
	}
	_, own, _ := listOf(l)
	return ok && own
}

// jsonKeyAt reports a key at offset off of s, the map's callback from its
// "(", that is a key of the object the callback returns as the item's
// json: the innermost bracket open at off is a { that follows "json:", in
// an object that is the callback's expression body (`=> ({ json: { … } })`)
// or follows the one return of its block (`=> { return { json: { … } }; }`,
// a function's body alike). A json: object written anywhere else (a value
// the callback logs, then drops) is not what the map returns. nest reads
// s forward, the offsets asked in order.
func jsonKeyAt(s string, off int, nest *nester) bool {
	nest.at(s, off)
	st := nest.open // the map's "(", the callback's body, the item, its json
	if len(st) != 4 || st[0] != 0 || s[st[3]] != '{' || s[st[2]] != '{' {
		return false
	}
	before, ok := strings.CutSuffix(strings.TrimSpace(s[:st[3]]), ":")
	before = strings.TrimSpace(before)
	// json itself, not a longer name that ends so (myjson).
	if !ok || !strings.HasSuffix(before, "json") || len(before) > 4 && jsIdentRE.MatchString(before[len(before)-5:len(before)-4]) {
		return false
	}
	// The item (st[2]) holds json: as its own key; the callback returns it.
	body := strings.TrimSpace(s[:st[1]])
	switch s[st[1]] {
	case '(': // => ({ … }): the object is the whole parenthesized body.
		return strings.HasSuffix(body, "=>") && strings.TrimSpace(s[st[1]+1:st[2]]) == ""
	case '{': // => { return { … } } or function (…) { return { … } }.
		ret, ok := strings.CutSuffix(strings.TrimSpace(s[:st[2]]), "return")
		return (strings.HasSuffix(body, "=>") || strings.HasSuffix(body, ")")) && ok && ret != "" && !isWordByte(ret[len(ret)-1])
	}
	return false
}

// nameOffsets are the offsets where name is written in s (strings.Index,
// each in turn).
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
// white space, else -1 (-1 for j < 0 too, so that calls chain).
func tokenAt(s string, j int, tok string) int {
	if j < 0 {
		return -1
	}
	if j = skipSpace(s, j); strings.HasPrefix(s[j:], tok) {
		return j + len(tok)
	}
	return -1
}

// declAt is the keyword (const, let, var, a whole word) that declares
// the name at offset i of code after white space, or "".
func declAt(code string, i int) string {
	before := strings.TrimRight(code[:i], " \t\n\f\r")
	for _, kw := range []string{"const", "let", "var"} {
		if len(before) < i && strings.HasSuffix(before, kw) && wordBoundary(code, len(before)-len(kw)) {
			return kw
		}
	}
	return ""
}

// constValue is the expression a `const name = …;` declares (to the
// first ; or line end), when the code declares name once and that way.
func constValue(code, name string) (string, bool) {
	n, kind, val := 0, "", ""
	for _, i := range nameOffsets(code, name) {
		kw, j := declAt(code, i), tokenAt(code, i+len(name), "=")
		if kw == "" || j < 0 {
			continue
		}
		j = skipSpace(code, j)
		if e := strings.IndexAny(code[j:], ";\n"); e != 0 {
			if e < 0 {
				e = len(code) - j
			}
			n, kind, val = n+1, kw, code[j:j+e]
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

// skipLiteral is the offset of the last byte of the string, template
// literal or comment that opens at i of JavaScript code s (len(s) for one
// left open), or i when none does: the scanners step over them.
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
		return skipComment(s, i)
	}
	return i
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

// nester reads the brackets ({, (, [) open at an offset of s, strings,
// template literals and comments skipped: depth counts them (a close
// with none open goes below 0), open holds the offsets of those open.
// The offsets asked do not go back, so it reads s once in all.
type nester struct {
	i, depth int
	open     []int
}

func (n *nester) at(s string, off int) int {
	for ; n.i < off && n.i < len(s); n.i++ {
		switch c := s[n.i]; c {
		case '(', '{', '[':
			n.depth++
			n.open = append(n.open, n.i)
		case ')', '}', ']':
			n.depth--
			if len(n.open) > 0 {
				n.open = n.open[:len(n.open)-1]
			}
		case '"', '\'', '`', '/':
			n.i = skipLiteral(s, n.i)
		}
	}
	return n.depth
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

// fieldBound is a count field's bound: the Code node that sets the field
// to the count of its own input, the bound on that count, and what sets
// the bound.
type fieldBound struct {
	b    float64
	code *n8nschema.Node
	why  boundWhy
}

// inFields are the count fields (countFields) every item given to nd
// holds, each with the largest bound of a parent's list: items reach nd
// from such a Code node directly or through tests and Limits, which pass
// items on unchanged, never through a node with alwaysOutputData (its
// empty item holds no field). The map returned is shared: callers do not
// change it.
func (cb *countBounds) inFields(nd *n8nschema.Node) map[string]fieldBound {
	if f, ok := cb.fields[nd.Name]; ok {
		return f
	}
	cb.fields[nd.Name] = nil
	var out map[string]fieldBound
	for i, c := range cb.in[nd.Name] {
		from := cb.w.Node(c.From)
		if from == nil || c.ToIndex != 0 {
			out = nil
			break
		}
		var fb map[string]fieldBound
		switch {
		case from.Disabled || from.Type == typeLimit || n8nschema.IsBranch(from.Type):
			fb = cb.inFields(from)
		case from.Type == n8nschema.TypeCode:
			fb = cb.codeFields(from)
		}
		if from.AlwaysOutputData {
			fb = nil
		}
		if i == 0 {
			out = maps.Clone(fb)
		}
		for k, b := range out {
			if x, ok := fb[k]; !ok {
				delete(out, k)
			} else if x.b > b.b {
				out[k] = x
			}
		}
	}
	cb.fields[nd.Name] = out
	return out
}

// codeFields are the count fields of a Code node's items, each bound by
// its own input's bound: none when that is unbounded.
func (cb *countBounds) codeFields(nd *n8nschema.Node) map[string]fieldBound {
	if f, ok := cb.code[nd.Name]; ok {
		return f
	}
	var out map[string]fieldBound
	if fs := countFields(nd); len(fs) > 0 {
		if b, why := cb.inBoundWhy(nd); !math.IsInf(b, 1) {
			out = map[string]fieldBound{}
			for _, f := range fs {
				out[f] = fieldBound{b, nd, why}
			}
		}
	}
	cb.code[nd.Name] = out
	return out
}

// fieldDead is what one count field decides of a test: the outputs dead
// at every count the field may hold.
type fieldDead struct {
	field string
	fieldBound
	dead []bool
}

// fieldsDead are, in the order of their names, the count fields every
// item given to an If, Filter or Switch holds (inFields) whose test of
// {{ $json.field }} leaves some output dead: the node read at each count
// from 1 to the bound the field may hold (boundDead), an output dead
// when it is dead at every one. The answer of a comparison moves only
// where the count crosses a number the node holds, so the counts beside
// each such number, 1, 2, 3 and the bound stand for all (countSamples),
// at most 64 of them.
func (cb *countBounds) fieldsDead(nd *n8nschema.Node) []fieldDead {
	if cb == nil || nd.Disabled || !n8nschema.IsBranch(nd.Type) || !strings.Contains(nd.Value.Raw(), "$json") {
		return nil
	}
	cb.mu.Lock()
	defer cb.mu.Unlock()
	fb := cb.inFields(nd)
	var breaks []float64
	if len(fb) > 0 {
		for _, s := range numberRE.FindAllString(nd.Value.Raw(), -1) {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				breaks = append(breaks, f)
			}
		}
	}
	var out []fieldDead
	for _, field := range slices.Sorted(maps.Keys(fb)) {
		b := fb[field].b
		samples := slices.DeleteFunc(countSamples(append(breaks, b)...), func(n float64) bool { return n > b })
		if len(samples) > 64 {
			continue
		}
		var d []bool
		for i, n := range samples {
			dn := boundDead(nd, fieldEnv{field: jsVal{kind: n8nschema.Number, f: n}})
			if dn == nil {
				d = nil
				break
			}
			if i == 0 {
				d = slices.Clone(dn)
			}
			for j := range d {
				d[j] = d[j] && j < len(dn) && dn[j]
			}
		}
		if slices.Contains(d, true) {
			out = append(out, fieldDead{field, fb[field], d})
		}
	}
	return out
}

// countBoundDead is literalDead for an If, Filter or Switch whose test
// reads a count field (fieldsDead): the outputs some field leaves dead.
func (cb *countBounds) countBoundDead(nd *n8nschema.Node) []bool {
	var dead []bool
	for _, fd := range cb.fieldsDead(nd) {
		dead = orDead(dead, fd.dead)
	}
	return dead
}

// CountCap says why a test of a count field answers the same for every
// item (Graph.DecidedGate): the field, the Code node that sets it to the
// count of its own input, the most that count can be, and what caps it.
type CountCap struct {
	Field string
	Code  *n8nschema.Node
	Bound float64
	// By is the node that caps the count: a Limit, a node set to
	// Execute Once, or one whose Always Output Data sends its one empty
	// item when none would go on.
	By *n8nschema.Node
	// How says how By caps it, in words, By named (`Limit "Limit
	// emails" keeps the first item (Max Items at its default, 1)`).
	How string
}

// countGate reads an enabled If or Filter whose test of a count field
// (fieldsDead) sends every item to one output: that output (0 true or
// kept, 1 false or discarded) and why.
func (cb *countBounds) countGate(nd *n8nschema.Node) (taken int, cc CountCap, ok bool) {
	if nd.Type != n8nschema.TypeIf && nd.Type != n8nschema.TypeFilter {
		return 0, CountCap{}, false
	}
	for _, fd := range cb.fieldsDead(nd) {
		if len(fd.dead) >= 2 && fd.dead[0] != fd.dead[1] && fd.why.node != nil {
			if fd.dead[0] {
				taken = 1
			}
			return taken, CountCap{Field: fd.field, Code: fd.code, Bound: fd.b, By: fd.why.node, How: boundWords(fd.why, fd.b)}, true
		}
	}
	return 0, CountCap{}, false
}

// boundWords says how the node of why caps a count at b: a Limit keeps
// items.slice(0, maxItems) (keep firstItems, the default) or the last
// maxItems (lastItems), maxItems 1 when unset (n8n-nodes-base/dist/nodes/
// Transform/Limit/Limit.node.js L23–46, L52–64); Execute Once runs the
// node on its first item (workflow-execute.js runNode); Always Output Data
// sends one empty item when none goes on.
func boundWords(why boundWhy, b float64) string {
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	name := strconv.Quote(why.node.Name)
	switch why.rule {
	case byOnce:
		return "node " + name + " runs once, on its first item (Execute Once)"
	case byAlways:
		return "node " + name + " sends one empty item when it has none to send (Always Output Data)"
	}
	p := why.node.Params()
	which := ""
	switch k := p.Get("keep"); {
	case !k.Exists(), literalIs(k, "firstItems"):
		which = "the first "
	case literalIs(k, "lastItems"):
		which = "the last "
	}
	set := "Max Items at its default, 1"
	if m := p.Get("maxItems"); m.Exists() {
		set = "Max Items " + num(b)
		if f, ok := m.Num(); ok {
			set = "Max Items " + num(f) // as the file writes it
		}
	}
	kept := which + num(b) + " items"
	if b == 1 && which == "" {
		kept = "1 item"
	} else if b == 1 {
		kept = which + "item"
	}
	return "Limit " + name + " keeps " + kept + " (" + set + ")"
}
