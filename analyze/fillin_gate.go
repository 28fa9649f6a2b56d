package analyze

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A template's config Set node often holds a list for its owner to fill
// in ("recipients": "[UPDATE ME]"), and an If lets an item through only
// when that list holds "*" or the item's own address. As exported the
// fill-in holds neither: n8n's If v1 compares `(value1 || '').toString()
// .includes((value2 || '').toString())` for contains, `value1 === value2`
// for equal, value1.startsWith / endsWith (nodes-base
// dist/nodes/If/V1/IfV1.node.js compareOperationFunctions), and a fill-in
// split on "," (`.split(',')`) is an array whose toString joins it back
// with "," into the fill-in itself. So the test is false on every item,
// every item goes to the false output, and what only its true output
// reaches happens once the owner fills the field in: a template's blank
// (blankReach), whose clause names the Set node's field.
//
// Narrow on purpose: an If v1 (an If or Filter v2+: fillInFilterGate), a condition of data type string whose
// one side reads a field by name from a Set v1/v2 node
// ($('Configure').first().json.recipients, optionally .split(',')) that
// holds a literal n8nschema.Placeholder reads as a fill-in, with the
// operation equal, contains, startsWith or endsWith (the negations always
// pass and gate nothing), the other side a literal that the fill-in does
// not hold or an expression reading item data (an address, a name: real
// data is neither a fill-in's text nor a part of it). Combined "any",
// every condition must be such; "all", one suffices (a condition before
// it that throws stops the node too, and the true output carries nothing
// either way).

// fillInReadRE is an expression that reads one field of a named node's
// first or only item, with an optional split on ",".
var fillInReadRE = lazyregexp.New(`^=\{\{\s*\$\(\s*['"]([^'"]+)['"]\s*\)\.(?:first\(\)|last\(\)|item)\.json\.([A-Za-z_$][\w$]*)(\.split\(\s*['"],['"]\s*\))?\s*\}\}$`)

// fillInRead returns the fill-in literal the expression v reads, and
// whether it splits it.
func (g *Graph) fillInRead(v n8nschema.Value) (set *n8nschema.Node, field, lit string, split, ok bool) {
	if v.Kind() != n8nschema.String || !v.IsExpr() {
		return nil, "", "", false, false
	}
	m := fillInReadRE.FindStringSubmatch(strings.TrimSpace(v.Str()))
	if m == nil {
		return nil, "", "", false, false
	}
	set = g.Node(m[1])
	if set == nil || set.Disabled || set.Type != n8nschema.TypeSet || set.TypeVersion >= 3 {
		return nil, "", "", false, false
	}
	env, _, _, fine := setLiterals(set)
	val, has := env[m[2]]
	if !fine || !has || val.kind != n8nschema.String || !n8nschema.Placeholder(val.s) {
		return nil, "", "", false, false
	}
	return set, m[2], val.s, m[3] != "", true
}

// fillInGate reports an If v1 (index i) whose test is false on every item
// as exported because it compares a template's fill-in (above): the Blank
// it stands for, on the If node. The fill-in is an enabled Set v1 or v2
// node's (fillInRead): a graph blankClear found none in (noOldSet) has
// no such If, and its conditions are not read.
func (g *Graph) fillInGate(i int) (Blank, bool) {
	nd := g.Nodes[i]
	if g.noOldSet || nd.Disabled || nd.Type != n8nschema.TypeIf && nd.Type != n8nschema.TypeFilter {
		return Blank{}, false
	}
	if nd.TypeVersion >= 2 {
		set, field, ok := g.fillInFilterGate(nd)
		if !ok {
			return Blank{}, false
		}
		return fillInBlank(nd, set, field), true
	}
	if nd.Type != n8nschema.TypeIf {
		return Blank{}, false // a Filter v1: combineConditions, not read here
	}
	p := nd.Params()
	and, ok := combineAnd(p.Get("combineOperation"), "all", "any")
	if !ok {
		return Blank{}, false
	}
	conds := p.Get("conditions")
	if conds.Kind() != n8nschema.Object {
		return Blank{}, false
	}
	others := false
	conds.Each(func(key string, v n8nschema.Value) bool {
		if key != "string" && v.Len() > 0 {
			others = true
		}
		return true
	})
	var first *n8nschema.Node
	var field string
	falses, n := 0, 0
	for _, c := range conds.Get("string").ElemsSeq() {
		n++
		set, f, ok := g.fillInFalse(c)
		if !ok {
			continue
		}
		falses++
		if first == nil {
			first, field = set, f
		}
	}
	if first == nil || !and && (falses != n || others) {
		return Blank{}, false
	}
	return fillInBlank(nd, first, field), true
}

// fillInBlank is the Blank of a test (nd) of set's fill-in field.
func fillInBlank(nd, set *n8nschema.Node, field string) Blank {
	until := "sends every item to its false output"
	if nd.Type == n8nschema.TypeFilter {
		until = "keeps no item"
	}
	return Blank{Node: nd, Fill: fmt.Sprintf("node %q's %q, a template's blank that node %q tests, is filled in", set.Name, field, nd.Name),
		Until: until}
}

// fillInFalse reports an If v1 string condition false on every item as
// exported (fillInCompare).
func (g *Graph) fillInFalse(c n8nschema.Value) (*n8nschema.Node, string, bool) {
	op := c.Get("operation")
	opName := "equal"
	if op.Exists() {
		if op.Kind() != n8nschema.String || op.IsExpr() {
			return nil, "", false
		}
		opName = op.Str()
	}
	return g.fillInCompare(opName, c.Get("value1"), c.Get("value2"), false, false, true)
}

// fillInCompare reports a comparison false on every item as exported: one
// side a fill-in (fillInRead; a and b the two sides, v1 an If v1's), the other a literal the fill-in does not
// hold or item data, by an operation a fill-in cannot satisfy: equal,
// contains, startsWith, endsWith (an If v1's names; a v2 filter's
// "equals" is passed as "equal"). array says the v2 filter's array
// contains (arrayContainsValue: an element equal to the other side), read
// only of a split fill-in; ignoreCase compares lowercased, as the v2
// filter does when not caseSensitive.
func (g *Graph) fillInCompare(opName string, a, b n8nschema.Value, ignoreCase, array, v1 bool) (*n8nschema.Node, string, bool) {
	set, field, lit, split, ok := g.fillInRead(a)
	left := ok
	if !ok {
		if set, field, lit, split, ok = g.fillInRead(b); !ok {
			return nil, "", false
		}
	}
	// If v1 reads a split fill-in back as the fill-in (toString); a v2
	// filter's string test of an array throws, and its array test reads a
	// split one only.
	if !v1 && array != split || array && (!left || opName != "contains") {
		return nil, "", false
	}
	other := b
	if !left {
		other = a
	}
	// The other side: a literal, or an expression that reads item data.
	var olit string
	isLit := false
	switch {
	case other.Kind() == n8nschema.String && !other.IsExpr():
		olit, isLit = other.Str(), true
	case other.Kind() == n8nschema.String && other.IsExpr() && strings.Contains(other.Str(), "$json") && !strings.Contains(other.Str(), "$("):
	default:
		return nil, "", false
	}
	if isLit && (olit == "" || n8nschema.Placeholder(olit)) {
		return nil, "", false
	}
	if ignoreCase {
		lit, olit = strings.ToLower(lit), strings.ToLower(olit)
	}
	switch opName {
	case "equal":
		if split || isLit && olit == lit {
			return nil, "", false // an array is never === a string, but that is not the fill-in's doing
		}
	case "contains":
		if array {
			// [fill-in].includes(other): only the fill-in itself is in it.
			if isLit && olit == lit {
				return nil, "", false
			}
		} else if left {
			if isLit && strings.Contains(lit, olit) {
				return nil, "", false
			}
		} else if isLit && strings.Contains(olit, lit) {
			return nil, "", false
		}
	case "startsWith", "endsWith":
		if split || !left || isLit && (strings.HasPrefix(lit, olit) || strings.HasSuffix(lit, olit)) {
			return nil, "", false
		}
	default:
		return nil, "", false
	}
	return set, field, true
}

// fillInFilterGate is fillInGate for an If or Filter v2+: its filter
// parameter "conditions" (executeFilter: string equals, contains,
// startsWith, endsWith on the prepared strings, lowercased when not
// caseSensitive; array contains by arrayContainsValue, an element equal
// to the right value: n8n-workflow/dist/cjs/node-parameters/
// filter-parameter.js executeFilterConditionWithRegexTest). Combined
// "or", every condition must be such; "and", one suffices.
func (g *Graph) fillInFilterGate(nd *n8nschema.Node) (*n8nschema.Node, string, bool) {
	f := nd.Params().Get("conditions")
	if f.Kind() != n8nschema.Object || f.Get("conditions").Kind() != n8nschema.Array {
		return nil, "", false
	}
	o, ok := readFilterOptions(nd, f.Get("options"))
	if !ok || len(o.caseSens) != 1 {
		return nil, "", false
	}
	and, ok := combineAnd(f.Get("combinator"), "and", "or")
	if !ok {
		return nil, "", false
	}
	var first *n8nschema.Node
	var field string
	falses, n := 0, 0
	for _, c := range f.Get("conditions").ElemsSeq() {
		n++
		typ, op := c.Get("operator.type"), c.Get("operator.operation")
		if typ.Kind() != n8nschema.String || op.Kind() != n8nschema.String || typ.IsExpr() || op.IsExpr() {
			continue
		}
		name := op.Str()
		if name == "equals" {
			name = "equal"
		}
		if typ.Str() != "string" && typ.Str() != "array" {
			continue
		}
		set, fl, ok := g.fillInCompare(name, c.Get("leftValue"), c.Get("rightValue"), !o.caseSens[0], typ.Str() == "array", false)
		if !ok {
			continue
		}
		falses++
		if first == nil {
			first, field = set, fl
		}
	}
	if first == nil || !and && falses != n {
		return nil, "", false
	}
	return first, field, true
}
