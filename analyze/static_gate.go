package analyze

import (
	"regexp"
	"strings"

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
// node that writes the key itself is no gate.

// staticGate is a Code node that stops a run unless its static data holds
// a key.
type staticGate struct {
	scope string // "global", or "node:" and the node's name
	key   string // the literal key, "" when computed
	shown string // the key as the code writes it
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

// staticUses reads a node's code: the gate it is, if any, and what it
// writes. ok is false for a node that does not touch static data.
func staticUses(nd *n8nschema.Node) (gate *staticGate, writes []staticWrite, ok bool) {
	code, isCode := staticCode(nd)
	if !isCode || !strings.Contains(code, "getWorkflowStaticData") {
		return nil, nil, false
	}
	decls := staticDeclRE.FindAllStringSubmatchIndex(code, -1)
	if len(decls) != len(staticAnyRE.FindAllStringIndex(code, -1)) || len(decls) > 4 {
		// Read some other way (or so often that following each name
		// through the code would cost its length that many times):
		// writes anything, in both scopes.
		return nil, []staticWrite{{"global", ""}, {"node:" + nd.Name, ""}}, true
	}
	for _, d := range decls {
		name, scope := code[d[2]:d[3]], code[d[4]:d[5]]
		if scope == "node" {
			scope = "node:" + nd.Name
		}
		q := regexp.QuoteMeta(name)
		// Every use of the object after its declaration: a member read
		// (obj[k], obj.k) and what follows it.
		use := regexp.MustCompile(`(?:^|[^\w$.])` + q + `\b(\s*(?:\[([^\]\n]*)\]|\.\s*([A-Za-z_$][\w$]*)))?`)
		rest := code[d[1]:]
		for _, m := range use.FindAllStringSubmatchIndex(rest, -1) {
			if m[2] < 0 { // the object itself, handed on
				writes = append(writes, staticWrite{scope, ""})
				continue
			}
			key := ""
			if m[4] >= 0 {
				key = keyOf(rest[m[4]:m[5]])
			} else {
				key = rest[m[6]:m[7]]
			}
			after := strings.TrimLeft(rest[m[1]:], " \t")
			before := strings.TrimRight(rest[:m[0]+1], " \t")
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
				shown := name + strings.TrimSpace(rest[m[2]:m[3]])
				if gate != nil || !nothingBefore(code[:d[1]+m[0]]) {
					break
				}
				// The value read whole (const v = obj[k]; then if (!v)
				// throw), or tested where it is read (if (!obj[k]) throw).
				if v, ok := declaredAs(rest[:m[0]+1]); ok && (after == "" || after[0] == ';' || after[0] == '\n' || after[0] == '\r') {
					if g, ok := stopsUnset(rest[m[1]:], regexp.QuoteMeta(v)); ok {
						gate = &staticGate{scope: scope, key: key, shown: shown, empty: g}
					}
				} else if strings.HasSuffix(before, "!") && ifOpen(strings.TrimSuffix(before, "!")) {
					if g, ok := stopsAfterTest(after); ok {
						gate = &staticGate{scope: scope, key: key, shown: shown, empty: g}
					}
				}
			}
		}
	}
	if gate != nil {
		for _, w := range writes {
			if w.scope == gate.scope {
				return nil, writes, true // it writes what it tests: no gate
			}
		}
	}
	return gate, writes, true
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

var declTailRE = lazyregexp.New(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*$`)

// declaredAs reports the variable a declaration ending text gives the
// value that follows.
func declaredAs(text string) (string, bool) {
	m := declTailRE.FindStringSubmatch(strings.TrimRight(text[:len(text)-1], " \t"))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// stopRE is what stops the code: a throw, or a return of no items
// (true in the second result).
var stopRE = lazyregexp.New(`^\s*\{?\s*(throw\b|return\s*(?:\[\s*\]\s*)?;|return\s*\[\s*\]\s*(?:\}|$))`)

// nothingBefore reports code before a gate's test that cannot pass an
// item on without it: no return, no try (whose catch would take the
// throw).
func nothingBefore(code string) bool {
	return !returnTryRE.MatchString(code)
}

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

// stopsUnset reports code that tests the variable v for an unset value
// (if (!v)) and stops when so.
func stopsUnset(code, v string) (empty, ok bool) {
	re := regexp.MustCompile(`\bif\s*\(\s*!\s*` + v + `\s*\)`)
	loc := re.FindStringIndex(code)
	if loc == nil {
		return false, false
	}
	return stopsAfterTest(code[loc[1]:])
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

// exportedStatic reports whether the export's staticData may hold key in
// scope: a key it holds, or data this reader cannot read.
func exportedStatic(w *n8nschema.Workflow, scope, key string) bool {
	sd := w.Value.Get("staticData")
	switch sd.Kind() {
	case n8nschema.Null, n8nschema.Missing:
		return false
	case n8nschema.Object:
		var s n8nschema.Value
		sd.Each(func(k string, v n8nschema.Value) bool {
			if k == scope {
				s = v
				return false
			}
			return true
		})
		if !s.Exists() || s.Kind() == n8nschema.Null {
			return false
		}
		if s.Kind() != n8nschema.Object {
			return true
		}
		held := false
		s.Each(func(k string, _ n8nschema.Value) bool {
			held = key == "" || k == key
			return !held
		})
		return held
	case n8nschema.String:
		t := strings.TrimSpace(sd.Str())
		return t != "" && t != "{}" && t != "null"
	}
	return true
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
		if gate == nil || nd.ContinuesOnFail() || nd.ContinueOnFail || nd.AlwaysOutputData && gate.empty ||
			g.fails != nil && g.fails[i] || g.empty != nil && g.empty[i] || exportedStatic(g.Workflow, gate.scope, gate.key) {
			continue
		}
		gates = append(gates, cand{i, *gate})
	}
	// Each round of the loop below walks the graph and opens at least one
	// gate: past maxStaticGates gates (or writers) the work would grow with
	// their product, so such a workflow keeps every gate open (narrow).
	if len(gates) == 0 || len(gates) > maxStaticGates || len(writers) > maxStaticGates {
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
				if w == c.i || !live[g.Nodes[w]] || g.runFails(w) {
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
