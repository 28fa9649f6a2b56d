package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A code node that gathers several sources on one input tells their items
// apart by a marker field a Set node of each source's path writes
// (source: "smartBins") and looks each one up by it:
// items.find(i => i.json.source === 'smartBins'). When that source is
// wired into an input the node lacks (Edge.NoInput), its items never
// arrive and the look-up finds nothing on every run; code that then throws
// ("Missing input data") or reads the missing item's json fails the run
// each time it runs.

// markerFindRE matches a look-up of one input item by a literal marker
// field, kept in a variable: const x = items.find(i => i.json.f === 'v').
var markerFindRE = lazyregexp.New(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:items|\$input\.all\(\)|\$items\(\))\s*\.find\(\s*\(?\s*([A-Za-z_$][\w$]*)\s*\)?\s*=>\s*([A-Za-z_$][\w$]*)\.json\.([A-Za-z_$][\w$]*)\s*===?\s*(?:'([^']*)'|"([^"]*)")\s*\)`)

// DroppedInputThrow reports whether the code node that connection d feeds
// at an input it lacks (Edge.NoInput), once it runs, throws on every run
// because items it looks up come only through d: a look-up by a marker
// that a Set node on d's path writes and none on its kept connections' does,
// followed at the top level by a throw when it finds nothing
// (if (!x || ...) throw ...) or by a read of the found item's json
// (x.json.bins). why names the look-up.
func (g *Graph) DroppedInputThrow(d *Edge) (why string, ok bool) {
	if !d.NoInput || d.Type != ConnMain {
		return "", false
	}
	n := d.To
	code, ok := runOnceCode(n)
	if !ok || !strings.Contains(code, ".find(") {
		return "", false
	}
	dropped := []*n8nschema.Node{d.From}
	var kept []*n8nschema.Node
	for _, e := range g.In(n) {
		if e.Type == ConnMain {
			kept = append(kept, e.From)
		}
	}
	var droppedUp, keptUp []*n8nschema.Node // walked once, on the first look-up
	keptAll := false
	for _, m := range markerFindRE.FindAllStringSubmatchIndex(code, 8) {
		sub := func(k int) string {
			if m[2*k] < 0 {
				return ""
			}
			return code[m[2*k]:m[2*k+1]]
		}
		if sub(2) != sub(3) {
			continue // the arrow reads another name's json
		}
		v, field := sub(5)+sub(6), sub(4)
		if !topLevel(code, m[0]) {
			continue
		}
		if droppedUp == nil {
			droppedUp, _ = g.mainAncestors(dropped)
			keptUp, keptAll = g.mainAncestors(kept)
		}
		if !keptAll || !anyMarks(droppedUp, field, v) || anyMarks(keptUp, field, v) {
			continue
		}
		x := sub(1)
		if throwsOnMissing(code, m[1], x) {
			return "its code looks up the item whose " + field + " is " + strconv.Quote(v) +
				", which only this connection brings, and throws when it finds none", true
		}
	}
	return "", false
}

// runOnceCode is the JavaScript of a node that runs once for all its
// items: a Function node, or a Code node in its default mode.
func runOnceCode(n *n8nschema.Node) (string, bool) {
	if n.Type == n8nschema.TypeFunction {
		c, ok := n.Param("functionCode")
		if !ok || c.Kind() != n8nschema.String || c.IsExpr() {
			return "", false
		}
		return c.Str(), true
	}
	code, ok := jsCode(n)
	if !ok {
		return "", false
	}
	if m, ok := n.Param("mode"); ok && m.Str() == "runOnceForEachItem" {
		return "", false
	}
	return code, true
}

// ifThrowRE matches an if whose body starts with a throw, with its
// condition when that holds no call.
var ifThrowRE = lazyregexp.New(`\bif\s*\(([^()]*)\)\s*\{?\s*throw\b`)

// throwsOnMissing reports whether code, after offset from, throws at the
// top level when x is undefined: an if whose condition is !x or holds !x
// among alternatives (||) and whose body throws, or a read x.json that is
// not optional (x?.json) in a statement with no ternary, && or ||.
func throwsOnMissing(code string, from int, x string) bool {
	rest := code[from:]
	for _, m := range ifThrowRE.FindAllStringSubmatchIndex(rest, 8) {
		cond := rest[m[2]:m[3]]
		if strings.Contains(cond, "&&") {
			continue
		}
		for _, alt := range strings.Split(cond, "||") {
			if strings.TrimSpace(alt) == "!"+x && topLevel(code, from+m[0]) {
				return true
			}
		}
	}
	for i := 0; ; {
		j := strings.Index(rest[i:], x+".json")
		if j < 0 {
			return false
		}
		at := from + i + j
		if (at == 0 || !isIdent(code[at-1]) && code[at-1] != '.') && topLevel(code, at) {
			stmt := code[strings.LastIndexAny(code[:at], ";\n{}")+1 : at]
			if !strings.ContainsAny(stmt, "?&|") {
				return true // no ternary, && or || in its statement skips it
			}
		}
		i += j + len(x)
	}
}

// mainAncestors returns ns and the nodes before them on main
// connections, each once, nearest first, at most maxAncestors (a marker
// is written a few nodes before the join, and the bound keeps every
// look-up constant); all is false when the bound left some out.
func (g *Graph) mainAncestors(ns []*n8nschema.Node) (out []*n8nschema.Node, all bool) {
	seen := map[*n8nschema.Node]bool{}
	for _, n := range ns {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for h := 0; h < len(out); h++ {
		for _, e := range g.In(out[h]) {
			if e.Type != ConnMain || seen[e.From] {
				continue
			}
			if len(out) == maxAncestors {
				return out, false
			}
			seen[e.From] = true
			out = append(out, e.From)
		}
	}
	return out, true
}

const maxAncestors = 64

// anyMarks reports whether a Set node among ns writes field with the
// literal value v.
func anyMarks(ns []*n8nschema.Node, field, v string) bool {
	for _, n := range ns {
		if n.Type != n8nschema.TypeSet || n.Disabled {
			continue
		}
		names := map[string]string{} // path of an object → its name
		values := map[string]string{}
		n.Params().Walk(func(rel string, val n8nschema.Value) {
			if val.Kind() != n8nschema.String {
				return
			}
			if p, ok := strings.CutSuffix(rel, ".name"); ok {
				names[p] = val.Str()
			} else if p, ok := strings.CutSuffix(rel, ".value"); ok {
				values[p] = val.Str()
			}
		})
		for p, name := range names {
			if name == field && values[p] == v {
				return true
			}
		}
	}
	return false
}
