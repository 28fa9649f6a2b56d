package analyze

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A gate on workflow static data that no run ever passes.
//
// A Code node's getWorkflowStaticData('global') is the workflow's one
// object kept between executions; 'node' is the node's own, kept under
// "node:" and its name (n8n-workflow/dist/cjs/workflow.js getStaticData).
// n8n creates it empty when the workflow's staticData has no such key,
// and it holds only what an execution's nodes wrote into it (saved after
// the execution: cli/dist/workflow-execute-additional-data.js
// hookFunctionsSave, saveStaticData). So a Code node that reads a key of
// it and throws (or returns no items) when the key is unset passes an
// item on only in a run after one where a node set that key. When every
// node that sets it runs only behind that gate itself, behind another
// such gate, or behind a node that fails on every item, no run ever sets
// it: the gate passes no item on (staticGates marks it in empty, whether
// its code throws or returns nothing: an If before it that tests a flag
// set from the same key sends it nothing, so it need not throw), and
// what lies only behind it never runs. What blocks the writers (a node
// failing on every item) carries the finding and counts those nodes.
//
// It is kept narrow where it cannot be decided: a key the export's
// staticData holds (or a staticData this reader cannot read) opens the
// gate; a write the reader cannot place (the object handed to a function,
// Object.assign, a key computed from item data) sets every key; a gate
// node that writes into its scope's data at all (any key) is no gate; a
// test that may not run on every pass (after a return or in a try, in a
// function, a callback or a block, or not the very next statement after
// the read) makes no gate.

// staticGate is a Code node that stops a run unless its static data holds
// a key.
type staticGate struct {
	scope string // "global", or "node:" and the node's name
	key   string // the literal key, "" when computed
	empty bool   // returns no items rather than throwing
}

// staticWrite is what one node writes into static data.
type staticWrite struct {
	scope string
	key   string // "" for a computed key, or a write that may set any key
}

var (
	staticDeclRE = lazyregexp.New(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:this\s*\.\s*|\$)getWorkflowStaticData\s*\(\s*['"](global|node)['"]\s*\)`)
	// staticAnyRE is any call, for the code that reads static data
	// another way (kept as a write of every key: narrow).
	staticAnyRE = lazyregexp.New(`getWorkflowStaticData\s*\(`)
)

// staticDecls returns the declarations staticDeclRE finds in code, as
// FindAllStringSubmatchIndex does, and whether every call staticAnyRE
// finds is one of at most four. Each declaration holds one call, and
// from its keyword to the call it is words, white space, "=", "." and
// "$" alone (declByte): so each call's declaration is searched for in
// the run of those bytes before the call, to the call's ")". The
// pattern has no literal to skip to: over the whole code it was tried
// at every byte.
func staticDecls(code string) (decls [][]int, each bool) {
	calls := staticAnyRE.FindAllStringIndex(code, -1)
	if len(calls) > 4 {
		return nil, false
	}
	for _, c := range calls {
		from := c[0]
		for from > 0 && declByte(code[from-1]) {
			from--
		}
		to := strings.IndexByte(code[c[1]:], ')') // the call's: none comes before it in a declaration
		if to < 0 {
			return nil, false
		}
		// A match that starts after the call is a later call's.
		m := staticDeclRE.FindStringSubmatchIndex(code[from : c[1]+to+1])
		if m == nil || from+m[0] > c[0] {
			return nil, false
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += from
			}
		}
		decls = append(decls, m)
	}
	return decls, true
}

// declByte reports a byte staticDeclRE's text before the call holds: a
// word's, white space (\s), "=", "." or "$".
func declByte(c byte) bool {
	return ascii.IsWord(c) || c == '$' || c == '=' || c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// staticCode is a JavaScript Code, Function or Function Item node's code.
func staticCode(nd *n8nschema.Node) (string, bool) {
	if c, ok := jsCode(nd); ok {
		return c, true
	}
	if nd.Type != "n8n-nodes-base.function" && nd.Type != "n8n-nodes-base.functionItem" {
		return "", false
	}
	c, ok := nd.Param("functionCode")
	if !ok || c.Kind() != n8nschema.String || c.IsExpr() {
		return "", false
	}
	return c.Str(), true
}

// keyOf reads a key expression: a quoted literal, or "" (computed).
func keyOf(expr string) string {
	expr = strings.TrimSpace(expr)
	if len(expr) >= 2 && (expr[0] == '\'' || expr[0] == '"') && expr[len(expr)-1] == expr[0] &&
		!strings.ContainsAny(expr[1:len(expr)-1], `'"\`+"`") {
		return expr[1 : len(expr)-1]
	}
	return ""
}

// maxStaticCode bounds the code staticUses reads: longer code (a real
// Code node that keeps state is a few KB) writes anything, in both
// scopes (narrow: it opens every gate and is none).
const maxStaticCode = 128 << 10

// staticUses reads a node's code: the gate it is, if any, and what it
// writes. ok is false for a node that does not touch static data. It
// reads the code in one pass per declaration of the object (at most
// four), so its work grows with the code's length.
func staticUses(nd *n8nschema.Node) (gate *staticGate, writes []staticWrite, ok bool) {
	code, isCode := staticCode(nd)
	if !isCode || ascii.Index(code, "getWorkflowStaticData", 6) < 0 { // from its k
		return nil, nil, false
	}
	anything := []staticWrite{{"global", ""}, {"node:" + nd.Name, ""}}
	if len(code) > maxStaticCode {
		return nil, anything, true
	}
	decls, each := staticDecls(code)
	if !each {
		// Read some other way (or so often that following each name
		// through the code would cost its length that many times):
		// writes anything, in both scopes.
		return nil, anything, true
	}
	// The first return or try: a read after it may be passed by.
	firstStop := len(code)
	if loc := returnTryRE.FindStringIndex(code); loc != nil {
		firstStop = loc[0]
	}
	declEnd := func(i int) bool { // a declaration's closing ) at i
		for _, d := range decls {
			if d[1]-1 == i {
				return true
			}
		}
		return false
	}
	for _, d := range decls {
		name, scope := code[d[2]:d[3]], code[d[4]:d[5]]
		if scope == "node" {
			scope = "node:" + nd.Name
		}
		braces := nester{braces: true}
		var close nextClose
		// Every use of the object after its declaration (the name, not
		// a member of something else nor part of a longer name): a
		// member read (obj[k], obj.k) and what follows it.
		for p := d[1]; p < len(code); {
			j := strings.Index(code[p:], name)
			if j < 0 {
				break
			}
			at := p + j
			end := at + len(name)
			p = end
			if at > d[1] && (isWordByte(code[at-1]) || code[at-1] == '.') || end < len(code) && isWordByte(code[end]) {
				continue
			}
			key, member := "", false
			q := end
			for q < len(code) && ascii.IsSpace(code[q]) {
				q++
			}
			switch {
			case q < len(code) && code[q] == '[':
				if c := close.from(code, q+1); c < len(code) && code[c] == ']' {
					key, member, q = keyOf(code[q+1:c]), true, c+1
				}
			case q < len(code) && code[q] == '.':
				r := q + 1
				for r < len(code) && ascii.IsSpace(code[r]) {
					r++
				}
				if r < len(code) && isWordByte(code[r]) && !('0' <= code[r] && code[r] <= '9') {
					s := r
					for r < len(code) && isWordByte(code[r]) {
						r++
					}
					key, member, q = code[s:r], true, r
				}
			}
			if !member { // the object itself, handed on
				writes = append(writes, staticWrite{scope, ""})
				continue
			}
			p = q
			after := strings.TrimLeft(code[q:], " \t")
			before := strings.TrimRight(code[d[1]:at], " \t")
			switch {
			case strings.HasSuffix(before, "delete"):
				// unsets: sets nothing
			case assigns(after):
				writes = append(writes, staticWrite{scope, key})
			case strings.HasPrefix(after, "."), strings.HasPrefix(after, "["):
				// A member of the value: obj[k].push(x), obj[k].n = 1 change
				// a value that is there; a key read so is kept as a write
				// of it (narrow).
				writes = append(writes, staticWrite{scope, key})
			default:
				// A gate only at the top level of the code (not in a
				// function, a callback or a block that may not run), with
				// no return or try before it. This is not sureAt's question
				// (code_missing_ref.go): a gate's throw must stop every
				// run, so a return or try anywhere before (in a helper
				// function too) and a for...of's block, which sureAt lets
				// pass, rule it out; both read brackets with the shared
				// nester (regex literals skipped).
				if gate != nil || at >= firstStop || braces.at(code, at) != 0 {
					break
				}
				// The value read whole and tested by the very next
				// statement (const v = obj[k]; if (!v) throw), or tested
				// where it is read (if (!obj[k]) throw).
				if v, ok := declaredAs(before); ok && (after == "" || after[0] == ';' || after[0] == '\n' || after[0] == '\r') {
					if g, ok := stopsUnset(after, v); ok {
						gate = &staticGate{scope: scope, key: key, empty: g}
					}
				} else if strings.HasSuffix(before, "!") && ifOpen(strings.TrimSuffix(before, "!")) &&
					statementStart(code, d[1]+len(ifHead(strings.TrimSuffix(before, "!"))), declEnd) {
					if g, ok := stopsAfterTest(after); ok {
						gate = &staticGate{scope: scope, key: key, empty: g}
					}
				}
			}
		}
	}
	if gate != nil {
		for _, w := range writes {
			if w.scope == gate.scope {
				return nil, writes, true // it writes its scope's data: no gate
			}
		}
	}
	return gate, writes, true
}

// nextClose finds the ] or newline that ends a bracketed key, from a
// position on; the offsets asked grow, so it scans each byte once.
type nextClose struct{ from0, at int }

func (n *nextClose) from(s string, i int) int {
	if i >= n.from0 && i <= n.at && n.at > 0 {
		return n.at
	}
	j := strings.IndexAny(s[i:], "]\n")
	n.from0, n.at = i, len(s)
	if j >= 0 {
		n.at = i + j
	}
	return n.at
}

// ifHead is text without its closing "if (": what comes before the if.
func ifHead(text string) string {
	text = strings.TrimRight(text, " \t")
	text = strings.TrimRight(strings.TrimSuffix(text, "("), " \t")
	return strings.TrimSuffix(text, "if")
}

// statementStart reports an if at offset i of code that starts a
// statement run on every pass: not the body of an if, else, while or for
// without braces. What precedes it is the code's start, a ;, a } or { or
// the end of a statement; a ) only where it closes a declaration of the
// static data (declEnd), since if (x) if (!obj.k) throw is conditional.
func statementStart(code string, i int, declEnd func(int) bool) bool {
	j := i
	for j > 0 && ascii.IsSpace(code[j-1]) && i-j < 256 {
		j--
	}
	if j == 0 {
		return true
	}
	switch c := code[j-1]; {
	case ascii.IsSpace(c): // more blank than read back
		return false
	case c == ')':
		return declEnd(j - 1)
	case c == ':': // a label or a case
		return false
	case isWordByte(c):
		k := j
		for k > 0 && isWordByte(code[k-1]) && j-k < 8 {
			k--
		}
		w := code[k:j]
		return w != "else" && w != "do"
	}
	return true
}

// assigns reports an assignment to what precedes text: =, +=, ||=, ++ and
// the like, not a comparison.
func assigns(text string) bool {
	if strings.HasPrefix(text, "++") || strings.HasPrefix(text, "--") {
		return true
	}
	for _, op := range []string{"||=", "&&=", "??=", "+=", "-=", "*=", "/=", "|=", "&="} {
		if strings.HasPrefix(text, op) {
			return true
		}
	}
	return strings.HasPrefix(text, "=") && !strings.HasPrefix(text, "==") && !strings.HasPrefix(text, "=>")
}

// declaredAs reports the variable a declaration ending text gives the
// value that follows: const v =, let v =, var v = (read back by hand,
// a bounded stretch).
func declaredAs(text string) (string, bool) {
	i := len(text)
	back := func() {
		for n := 0; i > 0 && ascii.IsSpace(text[i-1]) && n < 256; n++ {
			i--
		}
	}
	back()
	if i == 0 || text[i-1] != '=' {
		return "", false
	}
	i--
	back()
	end := i
	for i > 0 && isWordByte(text[i-1]) && end-i < 256 {
		i--
	}
	v := text[i:end]
	if v == "" || '0' <= v[0] && v[0] <= '9' || i == 0 || !ascii.IsSpace(text[i-1]) {
		return "", false
	}
	back()
	for _, kw := range []string{"const", "let", "var"} {
		if strings.HasSuffix(text[:i], kw) && (i == len(kw) || !isWordByte(text[i-len(kw)-1])) {
			return v, true
		}
	}
	return "", false
}

// stopRE is what stops the code: a throw, or a return of no items
// (true in the second result).
var stopRE = lazyregexp.New(`^\s*\{?\s*(throw\b|return\s*(?:\[\s*\]\s*)?;|return\s*\[\s*\]\s*(?:\}|$))`)

// returnTryRE is a return or a try (whose catch would take the throw):
// a gate's test after one may be passed by.
var returnTryRE = lazyregexp.New(`\b(?:return|try)\b`)

// ifOpen reports text that ends in an if's opening: "if (".
func ifOpen(text string) bool {
	text = strings.TrimRight(text, " \t")
	if !strings.HasSuffix(text, "(") {
		return false
	}
	text = strings.TrimRight(strings.TrimSuffix(text, "("), " \t")
	return strings.HasSuffix(text, "if") && (len(text) == 2 || !isWordByte(text[len(text)-3]))
}

// stopsUnset reports code after a declaration's value whose very next
// statement tests the variable v for an unset value (if (!v)) and stops
// when so; code between the read and the test could pass an item on.
func stopsUnset(code, v string) (empty, ok bool) {
	i := 0
	if i < len(code) && code[i] == ';' {
		i++
	}
	for i < len(code) {
		if ascii.IsSpace(code[i]) {
			i++
		} else if j := skipComment(code, i); j != i {
			i = j + 1
		} else {
			break
		}
	}
	for _, w := range []string{"if", "(", "!", v, ")"} {
		for i < len(code) && ascii.IsSpace(code[i]) {
			i++
		}
		if !strings.HasPrefix(code[i:], w) {
			return false, false
		}
		i += len(w)
		if w == "if" && i < len(code) && isWordByte(code[i]) {
			return false, false
		}
	}
	return stopsAfterTest(code[i:])
}

// stopsAfterTest reads what follows an if's test: a throw, or a return
// of no items.
func stopsAfterTest(text string) (empty, ok bool) {
	text = strings.TrimPrefix(strings.TrimLeft(text, " \t"), ")")
	m := stopRE.FindStringSubmatch(text)
	if m == nil {
		return false, false
	}
	return !strings.HasPrefix(m[1], "throw"), true
}

// exportedStatic reads the export's staticData once and reports, for a
// scope and key, whether it may hold it: a key it holds, or data this
// reader cannot read.
func exportedStatic(w *n8nschema.Workflow) func(scope, key string) bool {
	no := func(string, string) bool { return false }
	yes := func(string, string) bool { return true }
	sd := w.Value.Get("staticData")
	switch sd.Kind() {
	case n8nschema.Null, n8nschema.Missing:
		return no
	case n8nschema.Object:
		// Per scope: nil when unset or null, the keys of an object, or
		// unread (any other value: it may hold anything).
		held := map[string]map[string]bool{}
		unread := map[string]bool{}
		sd.Each(func(k string, v n8nschema.Value) bool {
			if _, seen := held[k]; seen || unread[k] {
				return true // the first of a repeated key, as Get reads it
			}
			switch v.Kind() {
			case n8nschema.Null:
				held[k] = nil
			case n8nschema.Object:
				keys := map[string]bool{}
				v.Each(func(key string, _ n8nschema.Value) bool {
					keys[key] = true
					return true
				})
				held[k] = keys
			default:
				unread[k] = true
			}
			return true
		})
		return func(scope, key string) bool {
			if unread[scope] {
				return true
			}
			keys := held[scope]
			return len(keys) > 0 && (key == "" || keys[key])
		}
	case n8nschema.String:
		t := strings.TrimSpace(sd.Str())
		if t != "" && t != "{}" && t != "null" {
			return yes
		}
		return no
	}
	return yes
}

// maxStaticGates bounds the gates and writers staticGates weighs; a real
// workflow has one or two.
const maxStaticGates = 32

// staticGates marks the gates on static data that no run passes (see the
// top of this file), after failing has marked the rest: every gate is
// taken as shut, and one whose key a node the runs reach past the shut
// gates and the failing nodes sets is opened, until none opens.
func (g *Graph) staticGates(mark func(*[]bool, int)) {
	type cand struct {
		i int
		staticGate
	}
	var gates []cand
	var writers []int
	writes := map[int][]staticWrite{}
	for i, nd := range g.Nodes {
		if nd.Disabled {
			continue
		}
		gate, w, ok := staticUses(nd)
		if !ok {
			continue
		}
		if len(w) > 0 {
			writes[i] = w
			writers = append(writers, i)
		}
		if gate == nil || nd.ContinuesOnFail() || nd.AlwaysOutputData && gate.empty ||
			g.fails != nil && g.fails[i] || g.empty != nil && g.empty[i] {
			continue
		}
		gates = append(gates, cand{i, *gate})
	}
	// Each round of the loop below walks the graph and opens at least one
	// gate: past maxStaticGates gates (or writers) the work would grow with
	// their product, so such a workflow keeps every gate open (narrow).
	// The cap comes before the export's staticData is read (once).
	if len(gates) == 0 || len(gates) > maxStaticGates || len(writers) > maxStaticGates {
		return
	}
	held := exportedStatic(g.Workflow)
	gates = slices.DeleteFunc(gates, func(c cand) bool { return held(c.scope, c.key) })
	if len(gates) == 0 {
		return
	}
	shut := make([]bool, len(gates))
	for k := range shut {
		shut[k] = true
	}
	var starts []*n8nschema.Node
	for _, i := range g.starts(nil) {
		starts = append(starts, g.Nodes[i])
	}
	set := func(on bool) {
		if g.empty == nil {
			g.empty = make([]bool, len(g.Nodes))
		}
		for k, c := range gates {
			g.empty[c.i] = on && shut[k]
		}
	}
	for {
		set(true)
		live := g.walkFrom(false, true, starts)
		opened := false
		for k, c := range gates {
			if !shut[k] {
				continue
			}
			for _, w := range writers {
				if w == c.i || !live.Has(g.Nodes[w]) || g.runFails(w) {
					continue
				}
				for _, x := range writes[w] {
					if x.scope == c.scope && (x.key == "" || c.key == "" || x.key == c.key) {
						shut[k], opened = false, true
					}
				}
			}
		}
		if !opened {
			break
		}
		set(false)
	}
	// A shut gate passes no item on, whether its code throws or returns
	// none: it is marked as giving nothing (empty), not as failing. An If
	// before it that tests the same key (a flag the code sets from it)
	// sends it nothing, so it never throws; what fails is what keeps the
	// writers from running, whose own finding counts what lies behind.
	for k, c := range gates {
		if shut[k] {
			mark(&g.empty, c.i)
		}
	}
}
