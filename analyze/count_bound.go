package analyze

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/ascii"
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
type countBounds struct {
	w    *n8nschema.Workflow
	in   map[string][]*n8nschema.Connection // main connections by target
	memo map[string]float64
	why  map[string]boundWhy // the node and rule that set memo's bound
	busy map[string]bool
	// fields memoizes fieldBounds by node (nil when a node holds no
	// count field), fbusy marks the nodes fieldBounds is reading (a loop
	// gets nil, the narrow answer), and counted memoizes countFields by
	// Code node: each node is read once however many ways reach it.
	fields  map[string]map[string]fieldBound
	fbusy   map[string]bool
	counted map[string][]string
	// mu guards the memos: DecidedGate reads the Graph's countBounds
	// again after buildGraph.
	mu sync.Mutex
}

// What sets a bound: a Limit's maxItems, executeOnce, or alwaysOutputData
// lifting a bound of 0 to its one empty item.
const (
	byLimit uint8 = iota + 1
	byOnce
	byAlways
)

// boundWhy is the node whose rule sets a finite bound, and that rule.
type boundWhy struct {
	node *n8nschema.Node
	rule uint8
}

// newCountBounds is nil for a workflow with no Limit node: no bound.
func newCountBounds(w *n8nschema.Workflow) *countBounds {
	if !slices.ContainsFunc(w.Nodes, func(nd *n8nschema.Node) bool { return nd.Type == typeLimit && !nd.Disabled }) {
		return nil
	}
	cb := &countBounds{w: w, in: map[string][]*n8nschema.Connection{}, memo: map[string]float64{}, why: map[string]boundWhy{}, busy: map[string]bool{},
		fields: map[string]map[string]fieldBound{}, fbusy: map[string]bool{}, counted: map[string][]string{}}
	for i := range w.Connections {
		c := &w.Connections[i]
		if c.FromType == ConnMain {
			cb.in[c.To] = append(cb.in[c.To], c)
		}
	}
	return cb
}

var noBound = math.Inf(1)

// inBoundWhy bounds the items of one run of nd, and says what sets the
// bound: the largest bound of a parent's list, 1 with executeOnce (the
// node keeps the first item, n8n-core/dist/execution-engine/
// workflow-execute.js runNode).
func (cb *countBounds) inBoundWhy(nd *n8nschema.Node) (float64, boundWhy) {
	if nd.ExecuteOnce && !nd.Disabled {
		return 1, boundWhy{nd, byOnce}
	}
	cs := cb.in[nd.Name]
	if len(cs) == 0 {
		return noBound, boundWhy{} // a trigger, or a node started some other way
	}
	b, why := 0.0, boundWhy{}
	for i, c := range cs {
		if c.ToIndex != 0 {
			return noBound, boundWhy{} // a second input: a Merge and its kin combine lists
		}
		from := cb.w.Node(c.From)
		if from == nil {
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
	if b, ok := cb.memo[nd.Name]; ok {
		return b, cb.why[nd.Name]
	}
	if cb.busy[nd.Name] {
		return noBound, boundWhy{} // a loop: the bound stops
	}
	cb.busy[nd.Name] = true
	b, why := cb.computeOut(nd)
	delete(cb.busy, nd.Name)
	if nd.AlwaysOutputData && b < 1 {
		b, why = 1, boundWhy{nd, byAlways} // one empty item when none goes on
	}
	cb.memo[nd.Name], cb.why[nd.Name] = b, why
	return b, why
}

func (cb *countBounds) computeOut(nd *n8nschema.Node) (float64, boundWhy) {
	if nd.Disabled {
		// A disabled node passes its first input on (workflow-execute.js
		// handleDisabledNode).
		return cb.inBoundWhy(nd)
	}
	p := nd.Params()
	switch nd.Type {
	case typeLimit:
		in, why := cb.inBoundWhy(nd)
		m := p.Get("maxItems")
		if !m.Exists() {
			if in > 1 {
				return 1, boundWhy{nd, byLimit} // the parameter's default (Limit.node.js L28)
			}
			return in, why
		}
		if f, ok := m.Num(); ok && m.Kind() == n8nschema.Number && f >= 0 {
			// items.slice(0, maxItems) keeps floor(maxItems) items;
			// items.slice(items.length - maxItems, items.length), what
			// any keep but firstItems runs, truncates its start toward
			// 0 and so keeps ceil(maxItems) (Limit.node.js L52–64).
			if k := p.Get("keep"); !k.Exists() || literalIs(k, "firstItems") {
				f = math.Floor(f)
			} else {
				f = math.Ceil(f)
			}
			if f < in {
				return f, boundWhy{nd, byLimit}
			}
		}
		return in, why
	case n8nschema.TypeIf, n8nschema.TypeFilter, n8nschema.TypeSwitch:
		// Each output holds some of the items given, unchanged (IfV2,
		// FilterV2, SwitchV3 execute: an item goes to the outputs its
		// test picks, each at most once).
		return cb.inBoundWhy(nd)
	case n8nschema.TypeSet:
		// One item per item given (SetV2.node.js execute); duplicateItem
		// copies it, on a manual run (L322–360).
		if d := p.Get("duplicateItem"); d.Exists() && (d.Kind() != n8nschema.Bool || d.True()) {
			return noBound, boundWhy{}
		}
		return cb.inBoundWhy(nd)
	case n8nschema.TypeCode:
		return cb.codeOut(nd)
	case "n8n-nodes-base.gmail":
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

// codeEachItem reports a Code node in runOnceForEachItem mode: each item
// given returns one item or fails (result-validation.js
// validateRunCodeEachItem throws on an array).
func codeEachItem(nd *n8nschema.Node) (each, ok bool) {
	m := nd.Params().Get("mode")
	switch {
	case !m.Exists(), literalIs(m, "runOnceForAllItems"):
		return false, true
	case literalIs(m, "runOnceForEachItem"):
		return true, true
	}
	return false, false
}

// The shapes of a Code node's list that are read: its own input's items,
// or another node's.
var (
	ownListRE   = lazyregexp.New(`^(?:\$input\.all\(\s*\)|items)$`)
	otherListRE = lazyregexp.New(`^\$\(\s*(?:'([^'\\]+)'|"([^"\\]+)")\s*\)\.all\(\s*\)$`)
	jsIdentRE   = lazyregexp.New(`^[A-Za-z_$][\w$]*$`)
)

// codeOut bounds a Code node's items: one per item given in
// runOnceForEachItem mode; in runOnceForAllItems mode, JavaScript whose
// one return is a list's .map(...) (its own input's, or another node's
// $('X').all(), each the list's length).
func (cb *countBounds) codeOut(nd *n8nschema.Node) (float64, boundWhy) {
	each, ok := codeEachItem(nd)
	if !ok {
		return noBound, boundWhy{}
	}
	if each {
		return cb.inBoundWhy(nd)
	}
	if !codeIsJS(nd) {
		return noBound, boundWhy{}
	}
	code := nd.Params().Get("jsCode").Str()
	list, ok := mappedList(code)
	if !ok {
		list, ok = pushedList(code)
	}
	if !ok {
		return noBound, boundWhy{}
	}
	return cb.listBound(nd, list)
}

// listBound bounds the length of a list mappedList names.
func (cb *countBounds) listBound(nd *n8nschema.Node, list string) (float64, boundWhy) {
	if ownListRE.MatchString(list) {
		return cb.inBoundWhy(nd)
	}
	if m := otherListRE.FindStringSubmatch(list); m != nil {
		name := m[1] + m[2]
		if x := cb.w.Node(name); x != nil && x != nd {
			return cb.outBoundWhy(x)
		}
	}
	return noBound, boundWhy{}
}

// mappedList reads a Code node's code whose only return from the node
// (n8nschema.TopLevelReturns) is `return L.map(...)`, the whole statement,
// with L its own input's items ($input.all(), items), another node's
// ($('X').all()), or a const holding one of these that nothing changes:
// the list L as written ("$input.all()", "$('X').all()").
func mappedList(code string) (string, bool) {
	if len(code) > maxReadCode {
		return "", false // not judged
	}
	rets := n8nschema.TopLevelReturns(code)
	if len(rets) != 1 {
		return "", false
	}
	rest := strings.TrimSpace(code[rets[0]:])
	i := strings.Index(rest, ".map(")
	if i < 0 {
		return "", false
	}
	list := strings.TrimSpace(rest[:i])
	end := closeParen(rest, i+len(".map"))
	if end < 0 {
		return "", false
	}
	tail := strings.TrimSpace(rest[end+1:])
	tail = strings.TrimPrefix(tail, ";")
	if strings.TrimSpace(stripComments(tail)) != "" {
		return "", false
	}
	return resolveList(code, list)
}

// resolveList is list as written, or the value of the const it names.
func resolveList(code, list string) (string, bool) {
	if ownListRE.MatchString(list) || otherListRE.MatchString(list) {
		return list, true
	}
	if !jsIdentRE.MatchString(list) {
		return "", false
	}
	v, ok := constValue(code, list)
	if !ok || !(ownListRE.MatchString(v) || otherListRE.MatchString(v)) {
		return "", false
	}
	// Nothing may add to it: a method that grows an array in place.
	if grown(code, list) {
		return "", false
	}
	return v, true
}

// The code readers below (mappedList, pushedList, countFields) judge a
// Code node's code only up to maxReadCode bytes, and countFields reads at
// most maxCountKeys object keys in the map's callback: a longer code is
// not judged (no bound, no count field, the narrow answer), so that a
// hostile file of one huge Code node is read in bounded time. The
// longest code of the corpora a bound is read from is under 4 KB.
const (
	maxReadCode  = 16 << 10
	maxCountKeys = 48
)

// nameAt reports name at offset i of s as a whole name: not after a
// name's byte ($ included) or, with noDot, a "." (a property of another
// value).
func nameAt(s string, i int, noDot bool) bool {
	if i == 0 {
		return true
	}
	c := s[i-1]
	return !(isWordByte(c) || noDot && c == '.')
}

// nameOffsets are the offsets where name is written in s (strings.Index,
// each in turn): no regexp is built from the code's own text.
func nameOffsets(s, name string) []int {
	var out []int
	if name == "" {
		return nil
	}
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return out
		}
		out = append(out, i+j)
		i += j + len(name)
	}
}

// grown reports a method call that grows the array named list in place
// (\blist\s*\.\s*(?:push|unshift|splice|fill|copyWithin|length\s*=[^=])).
func grown(code, list string) bool {
	for _, i := range nameOffsets(code, list) {
		if !wordBoundary(code, i) {
			continue
		}
		j := skipSpace(code, i+len(list))
		if j >= len(code) || code[j] != '.' {
			continue
		}
		rest := code[skipSpace(code, j+1):]
		for _, m := range []string{"push", "unshift", "splice", "fill", "copyWithin"} {
			if strings.HasPrefix(rest, m) {
				return true
			}
		}
		if r, ok := strings.CutPrefix(rest, "length"); ok {
			k := skipSpace(r, 0)
			if k+1 < len(r) && r[k] == '=' && r[k+1] != '=' {
				return true
			}
		}
	}
	return false
}

// declAt reads a declaration of the name at offset i of code:
// `(const|let|var)\s+name`, the keyword a whole word; its keyword.
func declAt(code string, i int) (string, bool) {
	j := i
	for j > 0 && ascii.IsSpace(code[j-1]) {
		j--
	}
	if j == i {
		return "", false
	}
	for _, kw := range []string{"const", "let", "var"} {
		if strings.HasSuffix(code[:j], kw) && wordBoundary(code, j-len(kw)) {
			return kw, true
		}
	}
	return "", false
}

// constValue is the expression a `const name = …;` declares, when the
// code declares name once and that way.
func constValue(code, name string) (string, bool) {
	// `\b(const|let|var)\s+name\s*=\s*([^;\n]+)`, read by hand.
	n, kind, val := 0, "", ""
	for _, i := range nameOffsets(code, name) {
		kw, ok := declAt(code, i)
		if !ok {
			continue
		}
		j := skipSpace(code, i+len(name))
		if j >= len(code) || code[j] != '=' {
			continue
		}
		j = skipSpace(code, j+1)
		e := j
		for e < len(code) && code[e] != ';' && code[e] != '\n' {
			e++
		}
		if e == j {
			continue
		}
		n, kind, val = n+1, kw, code[j:e]
	}
	if n != 1 || kind != "const" {
		return "", false
	}
	return strings.TrimSpace(val), true
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
			depth--
			if depth == 0 {
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
// left open), or i when none does: the scanners below step over them.
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

// countFields are the item fields a Code node sets to the count of its
// own input, on every item it sends: runOnceForAllItems JavaScript whose
// return maps its own input's items (mappedList) to objects with a key
// `field: N` in the map's callback, where N is $input.all().length,
// items.length, the .length of a const holding one of these, or a const
// holding that length; each key written once in the code and no spread
// after it (a spread after it could set it again), and no test in the
// callback (?:, &&, ||, if, switch, a loop, two returns) that could build
// some items without it.
func countFields(nd *n8nschema.Node) []string {
	if nd.Type != n8nschema.TypeCode || nd.Disabled || !codeIsJS(nd) {
		return nil
	}
	if each, ok := codeEachItem(nd); !ok || each {
		return nil
	}
	code := nd.Params().Get("jsCode").Str()
	if len(code) > maxReadCode || !strings.Contains(code, "length") {
		return nil
	}
	list, ok := mappedList(code)
	if !ok || !ownListRE.MatchString(list) {
		return nil
	}
	// The map's callback, which must build every item the same way: no
	// test in it that could leave the key out of some.
	ret := n8nschema.TopLevelReturns(code)[0]
	open := ret + strings.Index(code[ret:], ".map(") + len(".map")
	end := closeParen(code, open)
	cbText := stripComments(code[open:end])
	if strings.ContainsAny(cbText, "?") || strings.Contains(cbText, "&&") || strings.Contains(cbText, "||") ||
		controlRE.MatchString(cbText) || strings.Count(cbText, "return") > 1 {
		return nil
	}
	keys := countKeyRE.FindAllStringSubmatchIndex(code, -1)
	if n := slices.IndexFunc(keys, func(m []int) bool { return m[2] >= open }); n >= 0 && len(keys)-n > maxCountKeys {
		return nil // too many keys to judge (maxCountKeys)
	}
	lastSpread := strings.LastIndex(code, "...")
	var fields []string
	for _, m := range keys {
		key, val := code[m[2]:m[3]], code[m[4]:m[5]]
		if m[2] < open || m[3] > end || !jsonKeyAt(code[open:], m[2]-open) {
			continue // not a key of the items the map builds
		}
		if !isOwnCount(code, val) {
			continue
		}
		if keyCount(code, key) != 1 {
			continue
		}
		if lastSpread >= m[1] {
			continue // a spread after it
		}
		fields = append(fields, key)
	}
	return fields
}

// controlRE is a statement that tests or loops.
var controlRE = lazyregexp.New(`\b(?:if|switch|for|while)\b`)

// keyCount is how many times code writes key as an object key
// (`(?:^|[^\w$.])key\s*:`, matches that do not overlap).
func keyCount(code, key string) int {
	n, end := 0, 0
	for _, i := range nameOffsets(code, key) {
		if !nameAt(code, i, true) || i > 0 && i-1 < end {
			continue
		}
		j := skipSpace(code, i+len(key))
		if j < len(code) && code[j] == ':' {
			n, end = n+1, j+1
		}
	}
	return n
}

// countKeyRE is an object key and the simple value after it.
var countKeyRE = lazyregexp.New(`(?:^|[{,\s])([A-Za-z_$][\w$]*)\s*:\s*([A-Za-z_$][\w$]*(?:\(\s*\))?(?:\s*\.\s*[A-Za-z_$][\w$]*(?:\(\s*\))?)*)\s*[,}\n]`)

// isOwnCount reports an expression of the code that is the length of its
// own input's items.
func isOwnCount(code, val string) bool {
	val = strings.Join(strings.Fields(val), "")
	if l, ok := strings.CutSuffix(val, ".length"); ok {
		r, ok := resolveList(code, l)
		return ok && ownListRE.MatchString(r)
	}
	if !jsIdentRE.MatchString(val) {
		return false
	}
	v, ok := constValue(code, val)
	if !ok {
		return false
	}
	l, ok := strings.CutSuffix(strings.Join(strings.Fields(v), ""), ".length")
	if !ok {
		return false
	}
	r, ok := resolveList(code, l)
	return ok && ownListRE.MatchString(r)
}

// fieldBound is a count field's bound: the Code node that sets the field
// to the count of its own input, the bound on that count, and what sets
// the bound.
type fieldBound struct {
	b    float64
	code *n8nschema.Node
	why  boundWhy
}

// fieldBounds are the count fields (countFields) every item given to nd
// holds, each with a bound on its value: the bound of the Code node's own
// input. Items reach nd from such a Code node directly or through tests
// and Limits, which pass items on unchanged. The answer is memoized by
// node, and a parent that reaches nd by several connections (both outputs
// of an If) is read once, so a chain of tests is read in linear time. The
// map returned is shared: callers do not change it.
func (cb *countBounds) fieldBounds(nd *n8nschema.Node) map[string]fieldBound {
	if out, ok := cb.fields[nd.Name]; ok {
		return out
	}
	cs := cb.in[nd.Name]
	if len(cs) == 0 || cb.fbusy[nd.Name] {
		return nil
	}
	cb.fbusy[nd.Name] = true
	out := cb.readFieldBounds(cs)
	delete(cb.fbusy, nd.Name)
	cb.fields[nd.Name] = out
	return out
}

// readFieldBounds is fieldBounds for the connections cs into one node: the
// fields every parent's items hold, each at the largest bound.
func (cb *countBounds) readFieldBounds(cs []*n8nschema.Connection) map[string]fieldBound {
	var out map[string]fieldBound
	read := make(map[string]bool, len(cs))
	for i, c := range cs {
		from := cb.w.Node(c.From)
		if from == nil || c.ToIndex != 0 {
			return nil
		}
		if read[c.From] {
			continue // the same parent again: the same fields
		}
		read[c.From] = true
		var fb map[string]fieldBound
		switch {
		case from.Disabled || from.Type == typeLimit || from.Type == n8nschema.TypeIf || from.Type == n8nschema.TypeFilter || from.Type == n8nschema.TypeSwitch:
			fb = cb.fieldBounds(from)
		case from.Type == n8nschema.TypeCode:
			if fs := cb.countFieldsOf(from); len(fs) > 0 {
				if b, why := cb.inBoundWhy(from); !math.IsInf(b, 1) {
					fb = map[string]fieldBound{}
					for _, f := range fs {
						fb[f] = fieldBound{b, from, why}
					}
				}
			}
		}
		if from.AlwaysOutputData {
			fb = nil // its empty item holds no field
		}
		if i == 0 {
			out = maps.Clone(fb)
			continue
		}
		for k, b := range out {
			if x, ok := fb[k]; !ok {
				delete(out, k)
			} else if x.b > b.b {
				out[k] = x
			}
		}
	}
	return out
}

// countFieldsOf is countFields of a Code node, memoized.
func (cb *countBounds) countFieldsOf(nd *n8nschema.Node) []string {
	if fs, ok := cb.counted[nd.Name]; ok {
		return fs
	}
	fs := countFields(nd)
	cb.counted[nd.Name] = fs
	return fs
}

// numberRE is a number in a node's JSON text.
var numberRE = lazyregexp.New(`-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`)

// maxBoundSamples bounds the counts a bounded test is read at.
const maxBoundSamples = 64

// countBoundDead is literalDead for an If, Filter or Switch whose test
// reads {{ $json.field }}, a count field of every item it is given
// (fieldBounds): the node read at each count from 1 to the bound it may
// hold (boundDead), an output dead when it is dead at every one. The
// answer of a comparison moves only where the count crosses a number the
// node holds, so the counts beside each such number, 1, 2, 3 and the
// bound stand for all.
func (cb *countBounds) countBoundDead(nd *n8nschema.Node) []bool {
	if cb == nil {
		return nil
	}
	cb.mu.Lock()
	defer cb.mu.Unlock()
	var dead []bool
	for _, fd := range cb.countFieldsDead(nd) {
		dead = orDead(dead, fd.dead)
	}
	return dead
}

// fieldDead is what one count field decides of a test: the outputs dead
// at every count the field may hold.
type fieldDead struct {
	field string
	fieldBound
	dead []bool
}

// countFieldsDead are, by field name, the count fields of countBoundDead
// that leave some output of nd dead.
func (cb *countBounds) countFieldsDead(nd *n8nschema.Node) []fieldDead {
	if cb == nil || nd.Disabled || !n8nschema.IsBranch(nd.Type) {
		return nil
	}
	raw := nd.Value.Raw()
	if !strings.Contains(raw, "$json") {
		return nil
	}
	fb := cb.fieldBounds(nd)
	if len(fb) == 0 {
		return nil
	}
	var breaks []float64
	for _, s := range numberRE.FindAllString(raw, -1) {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			breaks = append(breaks, f)
		}
	}
	var out []fieldDead
	for _, field := range slices.Sorted(maps.Keys(fb)) {
		b := fb[field].b
		samples := countSamples(append(breaks, b)...)
		if samples == nil {
			continue
		}
		samples = slices.DeleteFunc(samples, func(n float64) bool { return n > b })
		if len(samples) > maxBoundSamples {
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
				continue
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
// (countFieldsDead) sends every item to one output: that output (0 true
// or kept, 1 false or discarded) and why.
func (cb *countBounds) countGate(nd *n8nschema.Node) (taken int, cc CountCap, ok bool) {
	if cb == nil || nd.Type != n8nschema.TypeIf && nd.Type != n8nschema.TypeFilter {
		return 0, CountCap{}, false
	}
	cb.mu.Lock()
	defer cb.mu.Unlock()
	for _, fd := range cb.countFieldsDead(nd) {
		if len(fd.dead) < 2 || fd.dead[0] == fd.dead[1] || fd.why.node == nil {
			continue
		}
		taken = 0
		if fd.dead[0] {
			taken = 1
		}
		return taken, CountCap{Field: fd.field, Code: fd.code, Bound: fd.b, By: fd.why.node, How: boundWords(fd.why, fd.b)}, true
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
	n := strconv.FormatFloat(b, 'f', -1, 64)
	name := strconv.Quote(why.node.Name)
	switch why.rule {
	case byLimit:
		p := why.node.Params()
		which := "the first "
		switch k := p.Get("keep"); {
		case !k.Exists(), literalIs(k, "firstItems"):
		case literalIs(k, "lastItems"):
			which = "the last "
		default:
			which = ""
		}
		set := "Max Items " + n
		if m, ok := p.Get("maxItems").Num(); ok {
			set = "Max Items " + strconv.FormatFloat(m, 'f', -1, 64) // as the file writes it
		}
		if !p.Get("maxItems").Exists() {
			set = "Max Items at its default, 1"
		}
		kept := which + n + " items"
		if b == 1 {
			kept = which + "item"
			if which == "" {
				kept = "1 item"
			}
		}
		return "Limit " + name + " keeps " + kept + " (" + set + ")"
	case byOnce:
		return "node " + name + " runs once, on its first item (Execute Once)"
	}
	return "node " + name + " sends one empty item when it has none to send (Always Output Data)"
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
	rest := strings.TrimSpace(stripComments(code[rets[0]:]))
	rest = strings.TrimSpace(strings.TrimSuffix(rest, ";"))
	if !jsIdentRE.MatchString(rest) {
		return "", false
	}
	r := rest
	// R's uses, its empty declaration and its push, read by hand
	// (`(?:^|[^\w$.])R\b`, `\b(?:let|const|var)\s+R\s*=\s*\[\s*\]`,
	// `(?:^|[^\w$.])R\s*\.\s*push\s*\(`).
	uses, empty, rStart, pushOpen := 0, false, -1, -1
	for _, i := range nameOffsets(code, r) {
		if !nameAt(code, i, true) || !wordBoundary(code, i+len(r)) {
			continue
		}
		uses++
		j := skipSpace(code, i+len(r))
		if _, ok := declAt(code, i); ok && j < len(code) && code[j] == '=' {
			k := skipSpace(code, j+1)
			if k < len(code) && code[k] == '[' {
				if k = skipSpace(code, k+1); k < len(code) && code[k] == ']' {
					empty = true
				}
			}
		}
		if pushOpen < 0 && j < len(code) && code[j] == '.' {
			k := skipSpace(code, j+1)
			if strings.HasPrefix(code[k:], "push") {
				if k = skipSpace(code, k+len("push")); k < len(code) && code[k] == '(' {
					rStart, pushOpen = i, k
				}
			}
		}
	}
	if uses != 3 {
		return "", false // the declaration, the push, the return
	}
	if !empty || pushOpen < 0 {
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
		end := closeParen(code, open)
		if end < 0 || pushOpen > end {
			continue
		}
		if depth != 0 {
			return "", false // inside a block or a call
		}
		body := strings.Index(code[open:pushOpen], "=>")
		if body < 0 {
			return "", false
		}
		brace := open + body + 2
		for brace < len(code) && (code[brace] == ' ' || code[brace] == '\t' || code[brace] == '\n' || code[brace] == '\r') {
			brace++
		}
		if brace >= len(code) || code[brace] != '{' || nestingAt(code[brace:], pushOpen-brace) != 1 {
			return "", false
		}
		// The push starts its own statement: nothing between it and the
		// last ; { or } before it (a for, while or else with no braces
		// would repeat or skip it).
		before := code[brace:rStart]
		if strings.TrimSpace(stripComments(before[strings.LastIndexAny(before, ";{}")+1:])) != "" {
			return "", false
		}
		list := strings.TrimSpace(code[m[2]:m[3]])
		return resolveList(code, strings.Join(strings.Fields(list), ""))
	}
	return "", false
}

// forEachRE is a list's .forEach( call.
var forEachRE = lazyregexp.New(`(\$input\.all\(\s*\)|\$\(\s*(?:'[^'\\]+'|"[^"\\]+")\s*\)\.all\(\s*\)|[A-Za-z_$][\w$]*)\s*\.\s*forEach\s*\(`)

// nestingAt is how many brackets ({, (, [) are open at offset off of s,
// strings, template literals and comments skipped.
func nestingAt(s string, off int) int {
	var n nester
	return n.at(s, off)
}

// nester is nestingAt read forward: at(s, off) for offsets that do not
// go back reads s once in all.
type nester struct{ i, depth int }

// at is nestingAt(s, off), off at or after the last offset asked.
func (n *nester) at(s string, off int) int {
	for ; n.i < off && n.i < len(s); n.i++ {
		switch c := s[n.i]; c {
		case '(', '{', '[':
			n.depth++
		case ')', '}', ']':
			n.depth--
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

// jsonKeyAt reports a key at offset off of s, the map's callback from its
// "(", that is a key of the object the callback returns as the item's
// json: the innermost bracket open at off is a { that follows "json:", in
// an object that is the callback's expression body (`=> ({ json: { … } })`)
// or follows the one return of its block (`=> { return { json: { … } }; }`,
// a function's body alike). A json: object written anywhere else (a value
// the callback logs, then drops) is not what the map returns.
func jsonKeyAt(s string, off int) bool {
	var stack []int
	for i := 0; i < off && i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '{', '[':
			stack = append(stack, i)
		case ')', '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case '"', '\'', '`', '/':
			i = skipLiteral(s, i)
		}
	}
	// The map's "(", the callback's body, the item, its json.
	if len(stack) != 4 || stack[0] != 0 || s[stack[3]] != '{' || s[stack[2]] != '{' {
		return false
	}
	before := strings.TrimSpace(s[:stack[3]])
	before, ok := strings.CutSuffix(before, ":")
	before = strings.TrimSpace(before)
	if !ok || !strings.HasSuffix(before, "json") {
		return false
	}
	// json itself, not a longer name that ends so (myjson).
	if len(before) > 4 && jsIdentRE.MatchString(before[len(before)-5:len(before)-4]) {
		return false
	}
	// The item (stack[2]) holds json: as its own key; the callback
	// returns it.
	body := strings.TrimSpace(s[:stack[1]])
	switch s[stack[1]] {
	case '(':
		// => ({ … }): the object is the whole parenthesized body.
		return strings.HasSuffix(body, "=>") && strings.TrimSpace(s[stack[1]+1:stack[2]]) == ""
	case '{':
		// => { return { … } } or function (…) { return { … } }.
		if !strings.HasSuffix(body, "=>") && !strings.HasSuffix(body, ")") {
			return false
		}
		ret, ok := strings.CutSuffix(strings.TrimSpace(s[:stack[2]]), "return")
		return ok && ret != "" && !isWordByte(ret[len(ret)-1])
	}
	return false
}
