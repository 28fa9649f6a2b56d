package analyze

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// ownCount is a test operand whose value depends only on how many items
// the node itself was given: $input.all() or $items() (its own input's
// items: workflow-data-proxy.js $input.all and $items with no node name
// return connectionInputData, n8n-workflow/dist/cjs/workflow-data-proxy.js
// L1226–1233, L1283–1295), their .length, or that length compared with a
// number. n8n runs a node only on items: runNode returns with no data
// when the node's input holds none (prepareConnectionInputData returns
// null for an empty input, n8n-core/dist/execution-engine/workflow-execute.js
// L525–557, L737–740), and a node's output list with no items starts no
// node after it (L1332–1334); alwaysOutputData upstream gives one empty
// item, and executeOnce keeps the first, so the count is at least 1
// whenever the test is evaluated. Items of another node ($('X').all(),
// $node["X"]) or a field of the item ($json.items.length) are data.
type ownCount struct {
	code  string  // the expression's code
	items bool    // the items themselves, not their count
	cmp   string  // the count compared with lit: ">", ">=", "<", "<=", "==", "!="; "" for none
	lit   float64 // the number the count is compared with
}

// ownItemsPat is the node's own input's items.
const ownItemsPat = `(?:\$input\.all\(\s*\)|\$items\(\s*\))`

var (
	ownCountRE    = lazyregexp.New(`^(` + ownItemsPat + `)(\s*\.\s*length)?$`)
	ownCountCmpRE = lazyregexp.New(`^(` + ownItemsPat + `\s*\.\s*length|-?\d+(?:\.\d+)?)\s*(===|!==|==|!=|>=|<=|>|<)\s*(` + ownItemsPat + `\s*\.\s*length|-?\d+(?:\.\d+)?)$`)
)

// flipCmp is the comparison with its sides swapped.
var flipCmp = map[string]string{">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!=", "===": "===", "!==": "!=="}

// ownCountOf reads a parameter value that is one {{ }} expression and
// nothing else, whose code is an ownCount.
func ownCountOf(v n8nschema.Value) (ownCount, bool) {
	if v.Kind() != n8nschema.String || !strings.Contains(v.Str(), "$i") || !v.IsExpr() {
		return ownCount{}, false
	}
	text, ok := strings.CutPrefix(v.Str(), "=")
	text = strings.TrimSpace(text)
	if !ok || !strings.HasPrefix(text, "{{") || !strings.HasSuffix(text, "}}") || strings.Count(text, "{{") != 1 || strings.Count(text, "}}") != 1 {
		return ownCount{}, false
	}
	code := strings.TrimSpace(text[2 : len(text)-2])
	if m := ownCountRE.FindStringSubmatch(code); m != nil {
		return ownCount{code: code, items: m[2] == ""}, true
	}
	m := ownCountCmpRE.FindStringSubmatch(code)
	if m == nil {
		return ownCount{}, false
	}
	left, op, right := m[1], m[2], m[3]
	lc, rc := strings.HasPrefix(left, "$"), strings.HasPrefix(right, "$")
	if lc == rc {
		return ownCount{}, false // two counts, or two numbers
	}
	num := right
	if rc {
		num = left
		op = flipCmp[op] // 0 < n is n > 0
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return ownCount{}, false
	}
	// Both sides are numbers: == and === agree, and so do != and !==.
	switch op {
	case "===":
		op = "=="
	case "!==":
		op = "!="
	}
	return ownCount{code: code, cmp: op, lit: f}, true
}

// at is the operand's value when the node holds n items.
func (c ownCount) at(n float64) jsVal {
	switch {
	case c.items:
		return jsVal{kind: n8nschema.Array, f: n}
	case c.cmp == "":
		return jsVal{kind: n8nschema.Number, f: n}
	}
	var b bool
	switch c.cmp {
	case ">":
		b = n > c.lit
	case ">=":
		b = n >= c.lit
	case "<":
		b = n < c.lit
	case "<=":
		b = n <= c.lit
	case "==":
		b = n == c.lit
	case "!=":
		b = n != c.lit
	}
	return jsVal{kind: n8nschema.Bool, b: b}
}

// countSamples are the counts a test of an ownCount is evaluated at: a
// comparison of a whole number n ≥ 1 with the numbers in breaks changes
// its answer only where n crosses one of them, so 1, 2, 3, a huge count
// and the whole numbers beside each break stand for every count. A break
// past 1e8 is left undecided (nil): no sample stands beside it.
func countSamples(breaks ...float64) []float64 {
	s := []float64{1, 2, 3, 1e9}
	for _, b := range breaks {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			continue
		}
		if math.Abs(b) > 1e8 {
			return nil
		}
		f := math.Floor(b)
		for d := -1.0; d <= 2; d++ {
			if f+d >= 1 {
				s = append(s, f+d)
			}
		}
	}
	slices.Sort(s)
	return slices.Compact(s)
}

// ownCountOutcome is what a filter condition whose left value is an
// ownCount answers over every count it may have: only for the type that
// operand is (number for the count, boolean for a comparison, array for
// the items), whose answer moves with the count only at the numbers
// compared; a condition that may throw is left undecided.
func ownCountOutcome(c n8nschema.Value, oc ownCount, o filterOptions) uint8 {
	op := c.Get("operator")
	typ, operation := op.Get("type"), op.Get("operation")
	if typ.Kind() != n8nschema.String || typ.IsExpr() || operation.Kind() != n8nschema.String || operation.IsExpr() {
		return gateAny
	}
	want := "number"
	switch {
	case oc.items:
		want = "array"
	case oc.cmp != "":
		want = "boolean"
	}
	if typ.Str() != want {
		return gateAny
	}
	rightType, ok := rightTypeOf(op, typ.Str())
	if !ok {
		return gateAny
	}
	single := op.Get("singleValue").True()
	rv := c.Get("rightValue")
	if !rv.Exists() && !single {
		return gateAny
	}
	right, ok := constOf(rv)
	if !ok {
		return gateAny
	}
	breaks := []float64{oc.lit}
	if f, nan, ok := right.toNumber(); ok && !nan {
		breaks = append(breaks, f)
	}
	samples := countSamples(breaks...)
	if samples == nil {
		return gateAny
	}
	var res uint8
	for _, n := range samples {
		left := oc.at(n)
		for _, strict := range o.strict {
			for _, cs := range o.caseSens {
				for _, ver := range o.versions {
					r := evalCondition(typ.Str(), rightType, operation.Str(), single, left, right, strict, !cs, ver)
					if r == gateAny || r&gateThrow != 0 {
						return gateAny
					}
					res |= r
				}
			}
		}
	}
	return res
}

// v1OwnCount is an If or Filter v1 comparison whose value1 is the count of
// the node's own input (in a number condition) or a comparison of it (in
// a boolean one), over every count it may have.
func v1OwnCount(dt string, oc ownCount, opv, v2 jsVal) uint8 {
	if oc.items || dt == "number" && oc.cmp != "" || dt == "boolean" && oc.cmp == "" || dt != "number" && dt != "boolean" {
		return gateAny
	}
	breaks := []float64{oc.lit}
	if v2.kind == n8nschema.Number {
		breaks = append(breaks, v2.f)
	}
	samples := countSamples(breaks...)
	if samples == nil {
		return gateAny
	}
	var res uint8
	for _, n := range samples {
		r := v1Compare(dt, oc.at(n), opv, v2)
		if r == gateAny {
			return gateAny
		}
		res |= r
	}
	return res
}

// ownCountTest reports a test of an If or Filter that reads the count of
// the node's own input (an ownCount on the left of a condition).
func ownCountTest(n *n8nschema.Node) bool {
	p := n.Params()
	if n.TypeVersion >= 2 {
		return slices.ContainsFunc(p.Get("conditions.conditions").Elems(), func(c n8nschema.Value) bool {
			_, ok := ownCountOf(c.Get("leftValue"))
			return ok
		})
	}
	for _, dt := range []string{"boolean", "number"} {
		if slices.ContainsFunc(p.Get("conditions."+dt).Elems(), func(c n8nschema.Value) bool {
			_, ok := ownCountOf(c.Get("value1"))
			return ok
		}) {
			return true
		}
	}
	return false
}

// operandText is a test's operand in words: an ownCount's code, else the
// literal as JSON text.
func operandText(v n8nschema.Value) string {
	if oc, ok := ownCountOf(v); ok {
		// Its white space as one space: the code is the export's text.
		return strings.Join(strings.Fields(oc.code), " ")
	}
	if v.Kind() == n8nschema.String && v.IsExpr() {
		// One field of the item ({{ $json.f }}), as a count gate reads it
		// (countBounds.countGate): its code.
		if m := oneFieldExprRE.FindStringSubmatch(v.Str()); m != nil {
			return strings.Join(strings.Fields(m[1]), "")
		}
	}
	return literalText(v)
}

// oneFieldExprRE is a parameter value that is one expression reading one
// top-level field of the item, as boundFieldRE reads it in JSON text.
var oneFieldExprRE = lazyregexp.New(`^=\{\{\s*(\$json(?:\.[A-Za-z_$][\w$]*|\[\s*(?:"|')[\w$ -]+(?:"|')\s*\]))\s*\}\}$`)
