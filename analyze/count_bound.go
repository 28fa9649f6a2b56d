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

// countBounds bounds how many items one run of a node is given and sends,
// from a Limit node (Limit.node.js below) through nodes that send at most
// one item per item they are given, and reads the item fields a Code node
// sets to the count of its own input, which a later test may read. n8n
// runs a node once per list of items that reaches its input (a node with
// two parents once for each), so a run's count is at most the largest
// bound of a list that reaches it. What the model cannot decide is
// unbounded: a trigger, a node that may add items (a list or getAll
// operation, an HTTP Request, a Merge, Split Out), a Code node of another
// shape, a loop. Each memo is set before its node is read, so a loop
// meets the narrow answer (no bound, no field), and each node is read
// once however many ways reach it.
type countBounds struct {
	w      *n8nschema.Workflow
	in     map[string][]*n8nschema.Connection // main connections by target
	out    map[string]bound                   // outBoundWhy by node
	fields map[string]map[string]bound        // inFields by node
	code   map[string]map[string]bound        // codeFields by Code node
	mu     sync.Mutex                         // DecidedGate reads the memos after buildGraph
}

// bound is a bound on a count and what sets it; for a count field, the
// Code node that counts.
type bound struct {
	b    float64
	why  boundWhy
	code *n8nschema.Node
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
		fields: map[string]map[string]bound{}, code: map[string]map[string]bound{}}
	for i := range w.Connections {
		if c := &w.Connections[i]; c.FromType == ConnMain {
			cb.in[c.To] = append(cb.in[c.To], c)
		}
	}
	return cb
}

// inBoundWhy bounds the items of one run of nd: the largest bound of a
// parent's list, named by that parent's cause; 1 with executeOnce (the
// node keeps the first item, n8n-core/dist/execution-engine/
// workflow-execute.js runNode); none for a trigger or a second input.
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
	cb.out[nd.Name] = bound{b: b, why: why}
	return b, why
}

// sends is outBoundWhy by the node's type. One item per item given: a
// disabled node passes its first input on (workflow-execute.js
// handleDisabledNode); an If, Filter or Switch sends each item to the
// outputs its test picks, each at most once (IfV2, FilterV2, SwitchV3
// execute); Set, unless duplicateItem copies it (SetV2.node.js execute,
// L322–360); Gmail's thread get, unless returnOnlyMessages splits it into
// its messages (Google/Gmail/v2/GmailV2.node.js L504–526); a Code node in
// runOnceForEachItem mode (an array fails: result-validation.js
// validateRunCodeEachItem). A Limit keeps items.slice(0, maxItems), 1 when
// unset, or with any other keep the last maxItems, whose start
// (items.length - maxItems) truncates toward 0
// (n8n-nodes-base/dist/nodes/Transform/Limit/Limit.node.js L28, L52–64).
// JavaScript run once for all items sends one item per element of the
// list it maps or pushes from (mappedList, pushedList).
func (cb *countBounds) sends(nd *n8nschema.Node) (float64, boundWhy) {
	p := nd.Params()
	unsetOrFalse := func(v n8nschema.Value) bool { return !v.Exists() || v.Kind() == n8nschema.Bool && !v.True() }
	code, allJS := allItemsJS(nd)
	switch {
	case nd.Disabled, n8nschema.IsBranch(nd.Type),
		nd.Type == n8nschema.TypeCode && literalIs(p.Get("mode"), "runOnceForEachItem"),
		nd.Type == n8nschema.TypeSet && unsetOrFalse(p.Get("duplicateItem")),
		nd.Type == "n8n-nodes-base.gmail" && nd.TypeVersion >= 2 && literalIs(p.Get("resource"), "thread") &&
			literalIs(p.Get("operation"), "get") && unsetOrFalse(p.Get("options.returnOnlyMessages")):
		return cb.inBoundWhy(nd)
	case nd.Type == typeLimit:
		in, why := cb.inBoundWhy(nd)
		m, keep := p.Get("maxItems"), p.Get("keep")
		f, ok := m.Num()
		switch {
		case !m.Exists():
			f = 1
		case !ok || m.Kind() != n8nschema.Number || f < 0:
			f = noBound
		case !keep.Exists() || literalIs(keep, "firstItems"):
			f = math.Floor(f)
		default:
			f = math.Ceil(f)
		}
		if f < in {
			return f, boundWhy{nd, byLimit}
		}
		return in, why
	case allJS:
		list, ok := mappedList(code)
		if !ok {
			list, ok = pushedList(code)
		}
		if name, own, _ := listOf(list); own {
			return cb.inBoundWhy(nd)
		} else if x := cb.w.Node(name); ok && x != nil && x != nd {
			return cb.outBoundWhy(x)
		}
	}
	return noBound, boundWhy{}
}

// literalIs reports v is the literal string s.
func literalIs(v n8nschema.Value, s string) bool {
	return v.Kind() == n8nschema.String && !v.IsExpr() && v.Str() == s
}

// allItemsJS is the code of a Code node that runs JavaScript once for all
// items (both the defaults).
func allItemsJS(nd *n8nschema.Node) (string, bool) {
	p := nd.Params()
	m, l := p.Get("mode"), p.Get("language")
	return p.Get("jsCode").Str(), nd.Type == n8nschema.TypeCode && (!m.Exists() || literalIs(m, "runOnceForAllItems")) &&
		(!l.Exists() || literalIs(l, "javaScript"))
}

// The code readers (mappedList, pushedList, countFields) judge a Code
// node's code only up to maxReadCode bytes, and countFields reads at most
// maxCountKeys object keys in the map's callback: past them the code is
// not judged (the narrow answer), so a hostile file of one huge Code node
// is read in bounded time (the longest code of the corpora a bound is
// read from is under 4 KB). They scan the code by hand: no regexp is
// built from the code's own text.
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

// oneReturn is the offset after the one return from the node
// (n8nschema.TopLevelReturns) of code short enough to judge.
func oneReturn(code string) (int, bool) {
	if len(code) > maxReadCode {
		return 0, false
	}
	if rets := n8nschema.TopLevelReturns(code); len(rets) == 1 {
		return rets[0], true
	}
	return 0, false
}

// mapCall reads code that returns `L.map(…)`, the whole statement: L
// (resolveList), and the offsets of the map's "(" and ")".
func mapCall(code string) (list string, open, end int, ok bool) {
	ret, ok := oneReturn(code)
	if !ok {
		return "", 0, 0, false
	}
	i := strings.Index(code[ret:], ".map(")
	if i < 0 {
		return "", 0, 0, false
	}
	open = ret + i + len(".map")
	if end = closeParen(code, open); end < 0 || !blank(strings.TrimPrefix(strings.TrimSpace(code[end+1:]), ";")) {
		return "", 0, 0, false
	}
	list, ok = resolveList(code, strings.TrimSpace(code[ret:ret+i]))
	return list, open, end, ok
}

// mappedList is the list mapCall reads: "$input.all()", "items",
// "$('X').all()".
func mappedList(code string) (string, bool) {
	list, _, _, ok := mapCall(code)
	return list, ok
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
		if k := tokenAt(code, i+len(list), "."); wordBoundary(code, i) && k >= 0 {
			for _, m := range []string{"push", "unshift", "splice", "fill", "copyWithin"} {
				if tokenAt(code, k, m) >= 0 {
					return "", false
				}
			}
			if k = tokenAt(code, tokenAt(code, k, "length"), "="); k >= 0 && k < len(code) && code[k] != '=' {
				return "", false
			}
		}
	}
	return v, true
}

// pushedList reads code that returns `R;`, R an array the code declares
// empty once (`let R = [];`) and fills with one R.push(item) of one
// argument, a statement of the body of the callback of a top-level
// `L.forEach(… => { … })`, L a list resolveList reads: one item per
// element of L at most (a return before the push skips it). R named
// anywhere else, a second push or a push in a block of the callback (a
// loop, a test) is not read.
func pushedList(code string) (string, bool) {
	ret, ok := oneReturn(code)
	if !ok {
		return "", false
	}
	r := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stripComments(code[ret:])), ";"))
	if !jsIdentRE.MatchString(r) {
		return "", false
	}
	// R's uses: the declaration, the push, the return.
	uses, empty, rStart, pushOpen := 0, false, -1, -1
	for _, i := range nameOffsets(code, r) {
		if end := i + len(r); nameStart(code, i) && wordBoundary(code, end) {
			uses++
			empty = empty || declAt(code, i) != "" && tokenAt(code, tokenAt(code, tokenAt(code, end, "="), "["), "]") >= 0
			if k := tokenAt(code, tokenAt(code, tokenAt(code, end, "."), "push"), "("); pushOpen < 0 && k >= 0 {
				rStart, pushOpen = i, k-1
			}
		}
	}
	if uses != 3 || !empty || pushOpen < 0 {
		return "", false
	}
	pushClose := closeParen(code, pushOpen)
	if pushClose < 0 {
		return "", false
	}
	if arg := strings.TrimSpace(code[pushOpen+1 : pushClose]); arg == "" || strings.HasPrefix(arg, "...") || topLevelComma(arg) {
		return "", false
	}
	// The first forEach whose call holds the push, read with the nesting
	// at its start (the matches come in order).
	var nest nester
	for _, m := range forEachRE.FindAllStringSubmatchIndex(code, -1) {
		open := m[1] - 1
		if pushOpen < open {
			break
		}
		depth := nest.at(code, m[0])
		if end := closeParen(code, open); end < 0 || pushOpen > end {
			continue
		}
		// At the top level, its callback's block holding the push as a
		// statement of its own: nothing between it and the last ; { or }
		// before it (a for, while or else with no braces would repeat or
		// skip it).
		body := strings.Index(code[open:pushOpen], "=>")
		brace := len(code) - len(strings.TrimLeft(code[open+body+2:], " \t\n\r"))
		var inBody nester
		if depth != 0 || body < 0 || brace >= len(code) || code[brace] != '{' || inBody.at(code[brace:], pushOpen-brace) != 1 {
			return "", false
		}
		if before := code[brace:rStart]; !blank(before[strings.LastIndexAny(before, ";{}")+1:]) {
			return "", false
		}
		return resolveList(code, strings.Join(strings.Fields(code[m[2]:m[3]]), ""))
	}
	return "", false
}

// countFields are the item fields a Code node sets to the count of its
// own input on every item it sends: JavaScript run once for all items
// that maps its own input's items (mapCall) to objects with a key
// `field: N` of the json: object the map's callback returns (jsonKeyAt),
// N the length of its own input's items (isOwnCount); each key written
// once in the code and no spread after it (which could set it again),
// and no test in the callback (?:, &&, ||, if, switch, a loop, two
// returns) that could build some items without it.
func countFields(nd *n8nschema.Node) []string {
	code, ok := allItemsJS(nd)
	if !ok || nd.Disabled || !strings.Contains(code, "length") {
		return nil
	}
	list, open, end, ok := mapCall(code)
	if !ok || !isOwnList(list) {
		return nil
	}
	cbText := stripComments(code[open:end])
	if strings.Contains(cbText, "?") || strings.Contains(cbText, "&&") || strings.Contains(cbText, "||") ||
		controlRE.MatchString(cbText) || strings.Count(cbText, "return") > 1 {
		return nil
	}
	keys := countKeyRE.FindAllStringSubmatchIndex(code, -1)
	if n := slices.IndexFunc(keys, func(m []int) bool { return m[2] >= open }); n >= 0 && len(keys)-n > maxCountKeys {
		return nil
	}
	lastSpread := strings.LastIndex(code, "...")
	var fields []string
	var nest nester // the keys come in order
	for _, m := range keys {
		if key := code[m[2]:m[3]]; m[2] >= open && m[3] <= end && jsonKeyAt(code[open:], m[2]-open, &nest) &&
			isOwnCount(code, code[m[4]:m[5]]) && keyCount(code, key) == 1 && lastSpread < m[1] {
			fields = append(fields, key)
		}
	}
	return fields
}

// isOwnList reports a list listOf reads as the node's own input.
func isOwnList(s string) bool {
	_, own, _ := listOf(s)
	return own
}

// isOwnCount reports an expression of the code that is the length of its
// own input's items (L.length, L a list resolveList reads), or a const
// holding that length.
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
	return ok && isOwnList(l)
}

// jsonKeyAt reports a key at offset off of s, the map's callback from its
// "(", of the object the callback returns as the item's json: the
// innermost bracket open at off is a { after "json:", in an object that
// is the callback's expression body (`=> ({ json: { … } })`) or follows
// the one return of its block (`=> { return { json: { … } }; }`, a
// function's body alike); not a json: object the callback builds and
// drops. nest reads s forward: the offsets asked do not go back.
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
	body := strings.TrimSpace(s[:st[1]])
	switch s[st[1]] {
	case '(':
		return strings.HasSuffix(body, "=>") && strings.TrimSpace(s[st[1]+1:st[2]]) == ""
	case '{':
		ret, ok := strings.CutSuffix(strings.TrimSpace(s[:st[2]]), "return")
		return (strings.HasSuffix(body, "=>") || strings.HasSuffix(body, ")")) && ok && ret != "" && !isWordByte(ret[len(ret)-1])
	}
	return false
}

// inFields are the count fields (countFields) every item given to nd
// holds, each at the largest bound of a parent's list: from such a Code
// node (codeFields) directly or through tests and Limits, which pass items
// on unchanged, never through a node with alwaysOutputData (its empty
// item holds no field). The map returned is shared: callers do not change
// it.
func (cb *countBounds) inFields(nd *n8nschema.Node) map[string]bound {
	if f, ok := cb.fields[nd.Name]; ok {
		return f
	}
	cb.fields[nd.Name] = nil
	var out map[string]bound
	for i, c := range cb.in[nd.Name] {
		from := cb.w.Node(c.From)
		if from == nil || c.ToIndex != 0 {
			out = nil
			break
		}
		var fb map[string]bound
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

// codeFields are the count fields of a Code node's items, each at the
// bound of its input; none when that is unbounded.
func (cb *countBounds) codeFields(nd *n8nschema.Node) map[string]bound {
	if f, ok := cb.code[nd.Name]; ok {
		return f
	}
	var out map[string]bound
	if fs := countFields(nd); len(fs) > 0 {
		if b, why := cb.inBoundWhy(nd); !math.IsInf(b, 1) {
			out = map[string]bound{}
			for _, f := range fs {
				out[f] = bound{b, why, nd}
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
	bound
	dead []bool
}

// fieldsDead are, in the order of their names, the count fields every
// item given to an If, Filter or Switch holds (inFields) whose test of
// {{ $json.field }} leaves some output dead: the node read at each count
// from 1 to the field's bound (boundDead), an output dead when it is dead
// at every one. The answer of a comparison moves only where the count
// crosses a number the node holds, so the counts beside each such number,
// 1, 2, 3 and the bound stand for all (countSamples), at most 64 of them.
func (cb *countBounds) fieldsDead(nd *n8nschema.Node) []fieldDead {
	if cb == nil || nd.Disabled || !n8nschema.IsBranch(nd.Type) || !strings.Contains(nd.Value.Raw(), "$json") {
		return nil
	}
	cb.mu.Lock()
	defer cb.mu.Unlock()
	fb := cb.inFields(nd)
	if len(fb) == 0 {
		return nil
	}
	var breaks []float64
	for _, s := range numberRE.FindAllString(nd.Value.Raw(), -1) {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			breaks = append(breaks, f)
		}
	}
	var out []fieldDead
	for _, field := range slices.Sorted(maps.Keys(fb)) {
		b := fb[field].b
		samples := slices.DeleteFunc(countSamples(append(breaks, b)...), func(n float64) bool { return n > b })
		if len(samples) > 64 {
			continue
		}
		var d []bool // the outputs dead at every count so far
		for i, n := range samples {
			dn := boundDead(nd, fieldEnv{field: jsVal{kind: n8nschema.Number, f: n}})
			if dn == nil {
				d = nil // undecided at this count
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

// boundWords says how the node of why caps a count at b (sends,
// inBoundWhy, outBoundWhy); a Limit's Max Items as the file writes it,
// its keep and maxItems defaults from Limit.node.js L23–46.
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
			set = "Max Items " + num(f)
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
