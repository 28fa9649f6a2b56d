package analyze

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// What a test can do with an item: pass, fail, throw. A test whose every
// operand is a literal does the same thing for every item.
const (
	gateTrue uint8 = 1 << iota
	gateFalse
	gateThrow
	gateAny = gateTrue | gateFalse | gateThrow
)

// maxGateConditions bounds the conditions read per test; past it the test
// is undecided.
const maxGateConditions = 64

// literalDead reports, by output, the outputs of an If, Filter or Switch
// (rules mode, v3+) that never carry an item because the test deciding
// them reads literals only, so it answers the same for every item (an
// unfinished If's `"" equals ""` is always true). nil when none, or when
// any operand is an expression ({{ }}, $json): those are left undecided,
// but for a value stored as "=={{ x }}", never empty (eqPrefixTruth), and
// the count of the node's own input, at least 1 whenever the node runs
// ($input.all().length > 0 is always true: ownCount).
// A test that always throws is failing's (gateThrows), not a branch; one that may throw keeps its false output, where continueOnFail
// sends the item (IfV2.node.js and FilterV2.node.js catch).
func literalDead(nd *n8nschema.Node) []bool {
	if nd.Disabled {
		return nil
	}
	d := literalDeadOutputs(nd)
	if len(d) > 0 && d[0] && nd.AlwaysOutputData {
		// An empty first output gets one empty item
		// (n8n-core/dist/execution-engine/workflow-execute.js
		// ensureAlwaysOutputData, L1017–1034).
		d[0] = false
		if !slices.Contains(d, true) {
			return nil
		}
	}
	return d
}

// conditionless reports an If or Filter that holds no condition at all,
// which literalDeadOutputs decides (noFilter for v2; v1Gate's missing
// conditions, a parameters object that holds none).
func conditionless(nd *n8nschema.Node) bool {
	c := nd.Params().Get("conditions")
	if nd.TypeVersion >= 2 {
		return noFilter(nd, c)
	}
	if nd.ParametersLost() || nd.Params().Kind() != n8nschema.Object {
		return false
	}
	for dt := range v1Defaults {
		if c.Get(dt).Len() > 0 {
			return false
		}
	}
	return true
}

func literalDeadOutputs(nd *n8nschema.Node) []bool {
	switch {
	case nd.Type == n8nschema.TypeIf || nd.Type == n8nschema.TypeFilter:
		var res uint8
		if nd.TypeVersion >= 2 {
			if c := nd.Params().Get("conditions"); noFilter(nd, c) {
				res = gateTrue
			} else {
				res = filterGate(nd, c)
			}
		} else {
			res = v1Gate(nd)
		}
		if res == gateAny || res == gateThrow {
			return nil
		}
		dead := []bool{res&gateTrue == 0, res&(gateFalse|gateThrow) == 0}
		if !dead[0] && !dead[1] {
			return nil
		}
		return dead
	case nd.Type == n8nschema.TypeSwitch && nd.TypeVersion >= 3:
		return switchDead(nd)
	case nd.Type == n8nschema.TypeSwitch:
		return switchV1Dead(nd)
	}
	return nil
}

// noFilter reports an If or Filter v2 (not one whose export lost its
// parameters) whose conditions are missing, null, or an object with no
// conditions list and nothing but its options and combinator: n8n fills
// a missing or null one with the parameter's default, {} (n8n-workflow
// dist/cjs/node-helpers.js getNodeParameters L712-715; If/V2/IfV2.node.js
// and Filter/V2/FilterV2.node.js, conditions default {}), adds a combinator
// and options to an object (L693-710), and a value with no conditions
// list is no filter value (type-guards.js isFilterValue L62-64), which
// extractValueFilter hands back as it is (n8n-core
// dist/execution-engine/node-execution-context/utils/extract-value.js
// L63-71): the node's pass is that object, truthy, so every item takes
// the true (kept) output (IfV2.node.js L95-117, FilterV2.node.js L95-116).
// An empty list is filterGate's (every of [] is true, some false).
func noFilter(nd *n8nschema.Node, c n8nschema.Value) bool {
	if nd.ParametersLost() {
		return false // lost, not absent
	}
	if nd.Params().Kind() != n8nschema.Object {
		// No parameters object at all: n8n fills in no defaults
		// (node-helpers.js getNodeParameters returns {} for undefined
		// values, L657-662), and the node throws "Could not get
		// parameter" on its options (node-execution-context.js
		// L274-279): it fails, no output is taken.
		return false
	}
	switch c.Kind() {
	case n8nschema.Missing, n8nschema.Null:
		return true
	case n8nschema.Object:
		only := true
		c.Each(func(key string, _ n8nschema.Value) bool {
			only = key == "options" || key == "combinator"
			return only
		})
		return only
	}
	return false
}

// LiteralGate reports an If or Filter that sends every item to one output
// since its test reads literals only, or the count of the node's own
// input (literalDead): the output every item takes (0 true, 1 false).
func LiteralGate(nd *n8nschema.Node) (taken int, ok bool) {
	if nd.Type != n8nschema.TypeIf && nd.Type != n8nschema.TypeFilter {
		return 0, false
	}
	d := literalDead(nd)
	switch {
	case d == nil:
		return 0, false
	case d[1] && !d[0]:
		return 0, true
	case d[0] && !d[1]:
		return 1, true
	}
	return 0, false
}

// switchDead reads a Switch v3 in rules mode: each item goes to the first
// rule that passes (every passing rule with options.allMatchingOutputs),
// else to the fallback output, and a rule that throws stops the node, or
// with continueOnFail sends an error item to output 0
// (n8n-nodes-base/dist/nodes/Switch/V3/SwitchV3.node.js execute, L387–437).
func switchDead(nd *n8nschema.Node) []bool {
	p := nd.Params()
	if m := p.Get("mode"); m.Exists() && (m.IsExpr() || m.Str() != "rules") {
		return nil
	}
	all := p.Get("options.allMatchingOutputs")
	if all.Exists() && all.Kind() != n8nschema.Bool {
		return nil
	}
	allMatch := all.True()
	rules := p.Get("rules.values").Elems()
	if len(rules) == 0 || len(rules) > maxGateConditions {
		return nil
	}
	fallback := -1
	if fb := p.Get("options.fallbackOutput"); fb.Exists() {
		switch x, isNum := fb.Num(); {
		case fb.Kind() == n8nschema.Number && isNum && x == math.Trunc(x) && x >= 0:
			fallback = int(x)
		case fb.Kind() == n8nschema.String && !fb.IsExpr() && fb.Str() == "extra":
			fallback = len(rules)
		case fb.Kind() == n8nschema.String && !fb.IsExpr() && fb.Str() == "none":
		default:
			return nil
		}
	}
	if fallback > len(rules) || fallback < -1 {
		return nil // checkIndexRange throws on it
	}
	dead := make([]bool, max(len(rules), fallback+1))
	reached, allFalse := true, true
	for k, r := range rules {
		res := filterGate(nd, r.Get("conditions"))
		if res&gateThrow != 0 && nd.ContinuesOnFail() {
			return nil
		}
		dead[k] = !reached || res&gateTrue == 0
		if res&gateFalse == 0 {
			allFalse = false
		}
		reached = reached && (res&gateFalse != 0 || allMatch && res&gateTrue != 0)
	}
	if fallback >= 0 {
		dead[fallback] = !allFalse && (fallback == len(rules) || dead[fallback])
	}
	if !slices.Contains(dead, true) {
		return nil
	}
	return dead
}

// filterOptions are the values a filter's options may take at run time:
// the stored ones, else getNodeParameters' defaults (caseSensitive true,
// typeValidation "strict", version 1: n8n-workflow/dist/cjs/node-helpers.js
// L697–710); an expression, or a looseTypeValidation setting the stored
// options may not match, leaves each value it could take.
type filterOptions struct {
	strict, caseSens []bool
	versions         []float64
}

func readFilterOptions(nd *n8nschema.Node, opts n8nschema.Value) (filterOptions, bool) {
	var o filterOptions
	if opts.Exists() && opts.Kind() != n8nschema.Object {
		return o, false
	}
	switch tv := opts.Get("typeValidation"); {
	case !tv.Exists():
		o.strict = []bool{true}
	case tv.Kind() == n8nschema.String && !tv.IsExpr() && tv.Str() == "strict":
		o.strict = []bool{true}
	case tv.Kind() == n8nschema.String && !tv.IsExpr() && tv.Str() == "loose":
		o.strict = []bool{false}
	default:
		o.strict = []bool{true, false}
	}
	for _, path := range []string{"looseTypeValidation", "options.looseTypeValidation"} {
		if v, ok := nd.Param(path); ok && (v.Kind() != n8nschema.Bool || v.True()) && len(o.strict) == 1 && o.strict[0] {
			o.strict = []bool{true, false} // the editor writes typeValidation from it
		}
	}
	switch cs := opts.Get("caseSensitive"); {
	case !cs.Exists():
		o.caseSens = []bool{true}
	case cs.Kind() == n8nschema.Bool:
		o.caseSens = []bool{cs.True()}
	default:
		o.caseSens = []bool{true, false}
	}
	switch v := opts.Get("version"); {
	case !v.Exists():
		o.versions = []float64{1}
	case v.Kind() == n8nschema.Number:
		f, _ := v.Num()
		o.versions = []float64{f}
	default:
		o.versions = []float64{1, 2, 3}
	}
	return o, true
}

// filterGate is what a filter parameter (If and Filter v2+, a Switch v3
// rule) can answer for an item: executeFilter runs its conditions in order
// with every ("and") or some ("or"), so the first condition that decides
// ends it (n8n-workflow/dist/cjs/node-parameters/filter-parameter.js
// executeFilter, L405–415). gateAny when not decided.
func filterGate(nd *n8nschema.Node, f n8nschema.Value) uint8 {
	if f.Kind() != n8nschema.Object {
		return gateAny
	}
	conds := f.Get("conditions")
	if conds.Kind() != n8nschema.Array {
		return gateAny
	}
	elems := conds.Elems()
	if len(elems) > maxGateConditions {
		return gateAny
	}
	// Most tests read the item: a condition whose left operand is no
	// literal answers gateAny under any options, and so does a test of
	// such conditions alone (combineGate), so the rest is read only for a
	// test with a literal, or a value stored as "=={{ x }}", on some left.
	if len(elems) > 0 && !slices.ContainsFunc(elems, leftDecidable) {
		return gateAny
	}
	o, ok := readFilterOptions(nd, f.Get("options"))
	if !ok {
		return gateAny
	}
	and, ok := combineAnd(f.Get("combinator"), "and", "or")
	if !ok {
		return gateAny
	}
	outs := make([]uint8, len(elems))
	for i, c := range elems {
		outs[i] = conditionOutcome(c, o)
	}
	return combineGate(outs, and)
}

// eqPrefixTruth reads a v2 filter condition whose left value is stored as
// "=={{ x }}": n8n takes the first "=" as the expression mark and renders
// the rest, a template that starts with a literal "=", so the value is the
// string "=" followed by x, never empty whatever x is (docs/n8n-facts.md,
// part ET). A string test of it that this decides (not empty, exists,
// equals a literal without the "=") answers the same for every item.
func eqPrefixTruth(c n8nschema.Value) (pass, ok bool) {
	lv := c.Get("leftValue")
	if lv.Kind() != n8nschema.String || !strings.HasPrefix(lv.Str(), "==") || c.Get("operator.type").Str() != "string" {
		return false, false
	}
	switch c.Get("operator.operation").Str() {
	case "notEmpty", "exists":
		return true, true
	case "empty", "notExists":
		return false, true
	case "equals", "notEquals":
		rv := c.Get("rightValue")
		if rv.Kind() != n8nschema.String || rv.IsExpr() || looksRead(rv.Str()) {
			return false, false
		}
		return c.Get("operator.operation").Str() == "notEquals", true
	}
	return false, false
}

// leftDecidable reports a condition whose left operand may decide it:
// a literal, a value eqPrefixTruth reads, or the count of the node's own
// input (ownCount).
func leftDecidable(c n8nschema.Value) bool {
	lv := c.Get("leftValue") // read once for the three tests
	if strings.HasPrefix(lv.Str(), "==") || literalLeft(lv) {
		return true
	}
	_, ok := ownCountOf(lv)
	return ok
}

// leftLiteral reports a condition whose left operand is written and a
// literal (constOf), without which conditionOutcome is gateAny.
func leftLiteral(c n8nschema.Value) bool { return literalLeft(c.Get("leftValue")) }

// literalLeft is leftLiteral of the left operand lv.
func literalLeft(lv n8nschema.Value) bool {
	if !lv.Exists() {
		return false
	}
	_, ok := constOf(lv)
	return ok
}

// combine runs outcomes in order as every (and) or some (or) does: "and"
// stops at the first false, "or" at the first true, and a throw ends all.
func combineGate(outs []uint8, and bool) uint8 {
	stop, goOn := gateFalse, gateTrue
	if !and {
		stop, goOn = gateTrue, gateFalse
	}
	var res uint8
	for _, oc := range outs {
		res |= oc & (gateThrow | stop)
		if oc&goOn == 0 {
			return res
		}
	}
	return res | goOn
}

// jsVal is a literal as JavaScript holds it.
type jsVal struct {
	kind n8nschema.Kind // Missing is undefined
	s    string
	f    float64
	b    bool
}

// constOf reads a parameter value that is the same for every item: a
// string that is no expression (or "=" with no {{ }}, its text), a number,
// a boolean, null. ok is false for anything else, and for text that was
// meant to read the item (looksRead): n8n takes it as text, but what the
// author meant is theirs to say, so the test is left undecided.
func constOf(v n8nschema.Value) (jsVal, bool) {
	switch k := v.Kind(); k {
	case n8nschema.Missing, n8nschema.Null:
		return jsVal{kind: k}, true
	case n8nschema.String:
		if v.IsExpr() || looksRead(v.Str()) {
			return jsVal{}, false
		}
		return jsVal{kind: k, s: v.Str()}, true
	case n8nschema.Number:
		f, ok := v.Num()
		return jsVal{kind: k, f: f}, ok
	case n8nschema.Bool:
		return jsVal{kind: k, b: v.True()}, true
	}
	return jsVal{}, false
}

// looksRead reports text that names item data or a node's output: {{ }},
// $json, $('Node'), $node, $input; as the pattern `\{\{|\$[A-Za-z_(]`
// reads it, one byte at a time (the pattern has no literal to skip to).
func looksRead(s string) bool {
	for i := strings.IndexAny(s, "{$"); i >= 0 && i+1 < len(s); {
		c := s[i+1]
		if s[i] == '{' && c == '{' || s[i] == '$' && ('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '_' || c == '(') {
			return true
		}
		j := strings.IndexAny(s[i+1:], "{$")
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func (v jsVal) nullish() bool { return v.kind == n8nschema.Missing || v.kind == n8nschema.Null }

// same is ===.
func (v jsVal) same(w jsVal) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case n8nschema.String:
		return v.s == w.s
	case n8nschema.Number:
		return v.f == w.f
	case n8nschema.Bool:
		return v.b == w.b
	}
	return true
}

// truthy is Boolean(v).
func (v jsVal) truthy() bool {
	switch v.kind {
	case n8nschema.String:
		return v.s != ""
	case n8nschema.Number:
		return v.f != 0 && !math.IsNaN(v.f)
	case n8nschema.Bool:
		return v.b
	}
	return false
}

// jsNumberRE is the decimal text whose Number() value ParseFloat gives.
var jsNumberRE = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// toNumber is Number(v); ok is false where it is not sure (hex, Infinity,
// objects), and nan for NaN.
func (v jsVal) toNumber() (f float64, nan, ok bool) {
	switch v.kind {
	case n8nschema.Number:
		return v.f, false, true
	case n8nschema.Bool:
		if v.b {
			return 1, false, true
		}
		return 0, false, true
	case n8nschema.Null:
		return 0, false, true
	case n8nschema.String:
		s := strings.Trim(v.s, " \t\n\r")
		if s == "" {
			return 0, false, true
		}
		if jsNumberRE.MatchString(s) {
			f, err := strconv.ParseFloat(s, 64)
			return f, false, err == nil
		}
		if strings.ContainsAny(s, "xXoObBI") {
			return 0, false, false // 0x10, 0b1, Infinity
		}
		return 0, true, true
	}
	return 0, true, true // undefined
}

// parseFilterValue is filter-parameter.js parseSingleFilterValue (L53–77)
// with type-validation.js validateFieldType (L299–352). known is false
// where the model stops.
func parseFilterValue(v jsVal, typ string, strict bool, version float64) (out jsVal, valid, known bool) {
	if typ == "any" || v.nullish() {
		return v, true, true
	}
	if typ == "array" || v.kind == n8nschema.Array {
		// An array (ownCount's items, length f) is valid as an array
		// under either validation (type-validation.js validateFieldType
		// "array"); the rest is not modelled.
		return v, typ == "array" && v.kind == n8nschema.Array, typ == "array" && v.kind == n8nschema.Array
	}
	if typ == "boolean" && !strict {
		if version >= 2 {
			if b, ok := parseBoolean(v); ok {
				return jsVal{kind: n8nschema.Bool, b: b}, true, true
			}
		}
		return jsVal{kind: n8nschema.Bool, b: v.truthy()}, true, true
	}
	if typ == "number" && version >= 3 && v.kind == n8nschema.String && strings.TrimSpace(v.s) == "" {
		return jsVal{kind: n8nschema.Null}, true, true
	}
	switch typ {
	case "string":
		if v.kind == n8nschema.String {
			return v, true, true
		}
		if strict {
			return v, false, true
		}
		if v.kind == n8nschema.Bool {
			return jsVal{kind: n8nschema.String, s: strconv.FormatBool(v.b)}, true, true
		}
		if v.kind == n8nschema.Number && v.f == math.Trunc(v.f) && math.Abs(v.f) < 1e15 {
			return jsVal{kind: n8nschema.String, s: strconv.FormatInt(int64(v.f), 10)}, true, true
		}
		return v, false, false
	case "number":
		if v.kind == n8nschema.Number {
			return v, true, true
		}
		if strict {
			return v, false, true
		}
		f, nan, ok := v.toNumber()
		if !ok {
			return v, false, false
		}
		return jsVal{kind: n8nschema.Number, f: f}, !nan, true
	case "boolean": // strict here
		return v, v.kind == n8nschema.Bool, true
	}
	return v, false, false
}

// parseBoolean is type-validation.js tryToParseBoolean (L46–66).
func parseBoolean(v jsVal) (bool, bool) {
	switch v.kind {
	case n8nschema.Bool:
		return v.b, true
	case n8nschema.String:
		switch strings.ToLower(v.s) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		if strings.TrimSpace(v.s) == "" {
			return false, false
		}
	}
	f, nan, ok := v.toNumber()
	switch {
	case !ok || nan:
		return false, false
	case f == 0:
		return false, true
	case f == 1:
		return true, true
	}
	return false, false
}

// conditionOutcome is what one filter condition answers, under each
// option value it may run with (executeFilterConditionWithRegexTest,
// filter-parameter.js L214–366): gateAny unless both operands are literals
// and the operator is one read here.
func conditionOutcome(c n8nschema.Value, o filterOptions) uint8 {
	if pass, ok := eqPrefixTruth(c); ok {
		return outcomeOf(pass)
	}
	if oc, ok := ownCountOf(c.Get("leftValue")); ok {
		return ownCountOutcome(c, oc, o)
	}
	if !leftLiteral(c) {
		return gateAny
	}
	op := c.Get("operator")
	typ, operation := op.Get("type"), op.Get("operation")
	if typ.Kind() != n8nschema.String || typ.IsExpr() || operation.Kind() != n8nschema.String || operation.IsExpr() {
		return gateAny
	}
	rightType, ok := rightTypeOf(op, typ.Str())
	if !ok {
		return gateAny
	}
	single := op.Get("singleValue").True()
	lv, rv := c.Get("leftValue"), c.Get("rightValue")
	if !lv.Exists() || !rv.Exists() && !single {
		return gateAny // a condition the editor did not write
	}
	left, ok1 := constOf(lv)
	right, ok2 := constOf(rv)
	if !ok1 || !ok2 {
		return gateAny
	}
	var res uint8
	for _, strict := range o.strict {
		for _, cs := range o.caseSens {
			for _, ver := range o.versions {
				r := evalCondition(typ.Str(), rightType, operation.Str(), single, left, right, strict, !cs, ver)
				if r == gateAny {
					return gateAny
				}
				res |= r
			}
		}
	}
	return res
}

func evalCondition(typ, rightType, operation string, single bool, left, right jsVal, strict, ignoreCase bool, version float64) uint8 {
	pl, lValid, lk := parseFilterValue(left, typ, strict, version)
	pr, rValid, rk := parseFilterValue(right, rightType, strict, version)
	if !lk || !rk && !single {
		return gateAny
	}
	if !lValid || !rValid && !single {
		return gateThrow // parseFilterConditionValues, L141–158
	}
	if !rk || !rValid {
		pr = jsVal{} // a one-value operator's right value: undefined
		if !rk && operation != "exists" && operation != "notExists" && operation != "empty" && operation != "notEmpty" && operation != "true" && operation != "false" {
			return gateAny
		}
	}
	exists := !pl.nullish()
	switch operation {
	case "exists":
		return outcomeOf(exists)
	case "notExists":
		return outcomeOf(!exists)
	}
	switch typ {
	case "string":
		l, r := pl, pr
		if l.nullish() {
			l = jsVal{kind: n8nschema.String}
		}
		if r.nullish() {
			r = jsVal{kind: n8nschema.String}
		}
		if l.kind != n8nschema.String || r.kind != n8nschema.String {
			return gateAny
		}
		if ignoreCase {
			if !plainASCII(l.s) || !plainASCII(r.s) {
				return gateAny // toLocaleLowerCase beyond ASCII is not modelled
			}
			l.s, r.s = strings.ToLower(l.s), strings.ToLower(r.s)
		}
		switch operation {
		case "empty":
			return outcomeOf(l.s == "")
		case "notEmpty":
			return outcomeOf(l.s != "")
		case "equals":
			return outcomeOf(l.s == r.s)
		case "notEquals":
			return outcomeOf(l.s != r.s)
		case "contains":
			return outcomeOf(strings.Contains(l.s, r.s))
		case "notContains":
			return outcomeOf(!strings.Contains(l.s, r.s))
		case "startsWith":
			return outcomeOf(strings.HasPrefix(l.s, r.s))
		case "notStartsWith":
			return outcomeOf(!strings.HasPrefix(l.s, r.s))
		case "endsWith":
			return outcomeOf(strings.HasSuffix(l.s, r.s))
		case "notEndsWith":
			return outcomeOf(!strings.HasSuffix(l.s, r.s))
		}
	case "number":
		switch operation {
		case "empty":
			return outcomeOf(!exists)
		case "notEmpty":
			return outcomeOf(exists)
		}
		if pl.kind != n8nschema.Number || pr.kind != n8nschema.Number {
			return gateAny
		}
		l, r := pl.f, pr.f
		switch operation {
		case "equals":
			return outcomeOf(l == r)
		case "notEquals":
			return outcomeOf(l != r)
		case "gt":
			return outcomeOf(l > r)
		case "lt":
			return outcomeOf(l < r)
		case "gte":
			return outcomeOf(l >= r)
		case "lte":
			return outcomeOf(l <= r)
		}
	case "array":
		// filter-parameter.js executeFilterConditionWithRegexTest, case
		// "array" (L326–350): the items' length against a number.
		switch operation {
		case "empty":
			return outcomeOf(pl.f == 0)
		case "notEmpty":
			return outcomeOf(pl.f != 0)
		}
		if pr.kind != n8nschema.Number {
			return gateAny
		}
		l, r := pl.f, pr.f
		switch operation {
		case "lengthEquals":
			return outcomeOf(l == r)
		case "lengthNotEquals":
			return outcomeOf(l != r)
		case "lengthGt":
			return outcomeOf(l > r)
		case "lengthLt":
			return outcomeOf(l < r)
		case "lengthGte":
			return outcomeOf(l >= r)
		case "lengthLte":
			return outcomeOf(l <= r)
		}
	case "boolean":
		switch operation {
		case "empty":
			return outcomeOf(!exists)
		case "notEmpty":
			return outcomeOf(exists)
		case "true":
			return outcomeOf(pl.truthy())
		case "false":
			return outcomeOf(!pl.truthy())
		case "equals":
			return outcomeOf(pl.same(pr))
		case "notEquals":
			return outcomeOf(!pl.same(pr))
		}
	}
	return gateAny
}

func outcomeOf(pass bool) uint8 {
	if pass {
		return gateTrue
	}
	return gateFalse
}

func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// v1Defaults are each data type's value1, operation and value2 as
// getNodeParameters fills them in for a condition that leaves them out
// (If/V1/IfV1.node.js, Filter/V1/FilterV1.node.js descriptions).
var v1Defaults = map[string][3]jsVal{
	"boolean": {{kind: n8nschema.Bool}, {kind: n8nschema.String, s: "equal"}, {kind: n8nschema.Bool}},
	"number":  {{kind: n8nschema.Number}, {kind: n8nschema.String, s: "smaller"}, {kind: n8nschema.Number}},
	"string":  {{kind: n8nschema.String}, {kind: n8nschema.String, s: "equal"}, {kind: n8nschema.String}},
}

// combineAnd reads how a gate combines its conditions, stored as a
// literal: andWord, or nothing (n8n fills in the default, all of them),
// is true; orWord false. An expression or another word is not read (ok
// false).
func combineAnd(c n8nschema.Value, andWord, orWord string) (and, ok bool) {
	switch {
	case !c.Exists():
		return true, true
	case c.Kind() != n8nschema.String || c.IsExpr():
		return false, false
	case c.Str() == andWord:
		return true, true
	case c.Str() == orWord:
		return false, true
	}
	return false, false
}

// v1Gate reads an If v1 (conditions.boolean, dateTime, number, string;
// combineOperation "all" or "any") or a Filter v1 (combineConditions
// "AND" or "OR"): conditions run by data type in that order, and the
// first that decides ends the test (IfV1.node.js execute, L371–410;
// FilterV1.node.js L303–340). Nothing there catches a throw.
func v1Gate(nd *n8nschema.Node) uint8 {
	p := nd.Params()
	param, all, anyWord := "combineOperation", "all", "any"
	if nd.Type == n8nschema.TypeFilter {
		param, all, anyWord = "combineConditions", "AND", "OR"
	}
	and, ok := combineAnd(p.Get(param), all, anyWord)
	if !ok {
		return gateAny
	}
	conds := p.Get("conditions")
	if (conds.Kind() == n8nschema.Missing || conds.Kind() == n8nschema.Null) && !nd.ParametersLost() && p.Kind() == n8nschema.Object { // no parameters object: the node fails (noFilter)
		// No condition: n8n fills in the default, {} (IfV1.node.js and
		// FilterV1.node.js, conditions; node-helpers.js getNodeParameters
		// L712-715), so no condition runs and the combine decides: all
		// (AND) sends every item to true, any (OR) to false (IfV1.node.js
		// L401-409, FilterV1.node.js L331-338). An export that lost its
		// parameters lost the conditions too.
		return combineGate(nil, and)
	}
	if conds.Kind() != n8nschema.Object {
		return gateAny
	}
	foreign := false
	conds.Each(func(key string, _ n8nschema.Value) bool {
		_, known := v1Defaults[key]
		foreign = !known && key != "dateTime"
		return !foreign
	})
	if foreign {
		return gateAny // another version's shape: what the author meant is unclear
	}
	var outs []uint8
	for _, dt := range []string{"boolean", "dateTime", "number", "string"} {
		list := conds.Get(dt)
		if !list.Exists() {
			continue
		}
		if list.Kind() != n8nschema.Array {
			return gateAny
		}
		for _, c := range list.ElemsSeq() {
			if len(outs) == maxGateConditions {
				return gateAny
			}
			outs = append(outs, v1Condition(dt, c))
		}
	}
	return combineGate(outs, and)
}

// v1Condition is one If v1 comparison (IfV1.node.js
// compareOperationFunctions, L316–343) on literals; gateAny otherwise.
func v1Condition(dt string, c n8nschema.Value) uint8 {
	def, ok := v1Defaults[dt]
	if !ok || c.Kind() != n8nschema.Object {
		return gateAny // dateTime: Date parsing is not modelled
	}
	vals := [3]jsVal{}
	oc, count := ownCountOf(c.Get("value1"))
	for k, key := range []string{"value1", "operation", "value2"} {
		v := c.Get(key)
		if !v.Exists() {
			vals[k] = def[k]
			continue
		}
		lit, ok := constOf(v)
		if !ok && !(k == 0 && count) {
			return gateAny
		}
		vals[k] = lit
	}
	if count {
		return v1OwnCount(dt, oc, vals[1], vals[2])
	}
	return v1Compare(dt, vals[0], vals[1], vals[2])
}

// v1Compare is one If v1 comparison of the values v1 and v2 by the
// operation opv, in data type dt.
func v1Compare(dt string, v1, opv, v2 jsVal) uint8 {
	if opv.kind != n8nschema.String {
		return gateAny
	}
	// A value of another type than the data type's may be cast on the
	// way (parameter type validation): not judged.
	want := map[string]n8nschema.Kind{"boolean": n8nschema.Bool, "number": n8nschema.Number, "string": n8nschema.String}[dt]
	if v1.kind != want || v2.kind != want && !(v2.nullish() && (opv.s == "isEmpty" || opv.s == "isNotEmpty")) {
		return gateAny
	}
	op := opv.s
	empty := v1.nullish() || v1.kind == n8nschema.String && v1.s == ""
	switch op {
	case "equal":
		return outcomeOf(v1.same(v2))
	case "notEqual":
		return outcomeOf(!v1.same(v2))
	case "isEmpty":
		return outcomeOf(empty)
	case "isNotEmpty":
		return outcomeOf(!empty)
	}
	// The rest compare (v || 0) or (v || '').toString(): falsy values and
	// values of the comparison's own type only.
	num := func(v jsVal) (float64, bool) {
		if !v.truthy() {
			return 0, true
		}
		return v.f, v.kind == n8nschema.Number
	}
	str := func(v jsVal) (string, bool) {
		if !v.truthy() {
			return "", true
		}
		return v.s, v.kind == n8nschema.String
	}
	switch op {
	case "smaller", "smallerEqual", "larger", "largerEqual":
		a, ok1 := num(v1)
		b, ok2 := num(v2)
		if !ok1 || !ok2 {
			return gateAny
		}
		switch op {
		case "smaller":
			return outcomeOf(a < b)
		case "smallerEqual":
			return outcomeOf(a <= b)
		case "larger":
			return outcomeOf(a > b)
		}
		return outcomeOf(a >= b)
	case "contains", "notContains":
		a, ok1 := str(v1)
		b, ok2 := str(v2)
		if !ok1 || !ok2 {
			return gateAny
		}
		return outcomeOf(strings.Contains(a, b) == (op == "contains"))
	case "startsWith", "notStartsWith", "endsWith", "notEndsWith":
		if v1.kind != n8nschema.String || v2.kind != n8nschema.String {
			return gateAny // value1.startsWith(value2): not a string throws or converts
		}
		r := strings.HasPrefix(op, "not")
		if r {
			op = strings.ToLower(op[3:4]) + op[4:]
		}
		if op == "startsWith" {
			return outcomeOf(strings.HasPrefix(v1.s, v2.s) != r)
		}
		return outcomeOf(strings.HasSuffix(v1.s, v2.s) != r)
	}
	return gateAny
}

// orDead joins two by-output lists of outputs that never carry an item.
func orDead(a, b []bool) []bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(b) == 0 {
		return a
	}
	out := slices.Clone(a)
	for i, d := range b {
		out[i] = out[i] || d
	}
	return out
}

// gateThrows is n8nschema.GateThrows, or an If or Filter (v2+) whose test
// reads literals only and throws on every item: under strict type
// validation a literal of the wrong type is refused before any
// comparison (filter-parameter.js parseFilterConditionValues, L141–158),
// a failure, not a branch.
func gateThrows(nd *n8nschema.Node) (string, bool) {
	if why, ok := n8nschema.GateThrows(nd); ok {
		return why, true
	}
	if nd.Disabled || nd.Type != n8nschema.TypeIf && nd.Type != n8nschema.TypeFilter || nd.TypeVersion < 2 {
		return "", false
	}
	f := nd.Params().Get("conditions")
	if filterGate(nd, f) != gateThrow {
		return "", false
	}
	// The first condition the test reads decides: it throws, or passes the
	// test on to the next one.
	o, _ := readFilterOptions(nd, f.Get("options"))
	for _, c := range f.Get("conditions").ElemsSeq() {
		if conditionOutcome(c, o) != gateThrow {
			continue
		}
		typ := c.Get("operator.type").Str()
		l, r := c.Get("leftValue"), c.Get("rightValue")
		return fmt.Sprintf("its condition compares %s with %s as %s values, and strict type validation throws \"Wrong type\" on every item",
			literalText(l), literalText(r), typ), true
	}
	return "its conditions compare literals of the wrong type, and strict type validation throws \"Wrong type\" on every item", true
}

// literalText shows a literal as its JSON text, strings quoted.
func literalText(v n8nschema.Value) string {
	if v.Kind() == n8nschema.String {
		s := v.Str()
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return strconv.Quote(s)
	}
	if !v.Exists() {
		return "nothing"
	}
	return v.Raw()
}

// GateDecision is an If or Filter that sends every item to one output
// (Graph.DecidedGate).
type GateDecision struct {
	// Taken is the output every item takes: "true", "false" (an If or a
	// Filter's discarded output) or "kept".
	Taken string
	// Test is the test in words (gateText).
	Test string
	// OwnCount is set when the test reads the count of the node's own
	// input (ownCountTest).
	OwnCount bool
	// Cap is set when the test reads a count field a Code node set to
	// the count of its input, which a node before it caps
	// (countBounds.countGate): the test answers the same at every count
	// up to that cap.
	Cap *CountCap
	// Webhook is set when the test reads a field a Webhook's items never
	// carry (webhookGateFalse): no item leaves by the true output.
	Webhook *WebhookGate
	// NoCondition is set when the test has no condition at all (missing,
	// or an empty list: noFilter, v1Gate): the combine, or a v2 test's
	// truthy non-filter value, decides.
	NoCondition bool
	// Never are the connections at the output no item takes (in
	// Graph.Unrun).
	Never []*Edge
}

// DecidedGate reports an enabled If or Filter whose test reads literals
// only, or the count of the node's own input (ownCount), and so sends
// every item to one output (LiteralGate), or whose test of a count field
// is decided by the bound a Limit puts on that count (countBounds.countGate):
// that output's name, the test in words, what decides it, and the
// connections at the output it never takes (in Graph.Unrun).
func (g *Graph) DecidedGate(n *n8nschema.Node) (GateDecision, bool) {
	if !g.Has(n) {
		return GateDecision{}, false
	}
	out, ok := LiteralGate(n)
	var cc *CountCap
	if !ok && !n.Disabled && (n.Type == n8nschema.TypeIf || n.Type == n8nschema.TypeFilter) &&
		slices.ContainsFunc(g.Unrun, func(e *Edge) bool { return e.From == n && !e.NoInput }) {
		// Only a gate with a dead output is read again, with the count
		// bounds buildGraph read (their memos reused).
		var c CountCap
		if out, c, ok = g.counts.countGate(n); ok {
			cc = &c
		}
	}
	if !ok {
		return g.webhookDecidedGate(n)
	}
	d := GateDecision{Taken: "true", Test: gateText(n), Cap: cc}
	for _, e := range g.Unrun {
		if e.From == n && e.Output != out && e.Output <= 1 {
			d.Never = append(d.Never, e)
		}
	}
	if n.Type == n8nschema.TypeFilter {
		d.Taken = "kept"
	}
	if out == 1 {
		d.Taken = "false"
	}
	d.OwnCount = cc == nil && ownCountTest(n)
	d.NoCondition = cc == nil && conditionless(n)
	return d, true
}

// NeverTakenCandidates are the nodes, in graph order, at which DecidedGate
// may name connections never taken (Never): the enabled Ifs and Filters
// with an edge of g.Unrun leaving them (LiteralGate's and countGate's
// Never are read from g.Unrun) and, in a graph that holds an enabled
// Webhook, every other enabled If and Filter (webhookDecidedGate's gate
// has a Webhook before it). At any other node Never is empty: a rule
// that reads only Never asks these, not every node.
func (g *Graph) NeverTakenCandidates() []*n8nschema.Node {
	var unrunFrom map[*n8nschema.Node]bool
	for _, e := range g.Unrun {
		if unrunFrom == nil {
			unrunFrom = make(map[*n8nschema.Node]bool, len(g.Unrun))
		}
		unrunFrom[e.From] = true
	}
	hook := -1 // whether the graph holds an enabled Webhook, once asked
	var out []*n8nschema.Node
	for _, n := range g.Nodes {
		if n.Disabled || n.Type != n8nschema.TypeIf && n.Type != n8nschema.TypeFilter {
			continue
		}
		if !unrunFrom[n] && hook < 0 {
			hook = 0
			if slices.ContainsFunc(g.Nodes, func(w *n8nschema.Node) bool { return w.Type == n8nschema.TypeWebhook && !w.Disabled }) {
				hook = 1
			}
		}
		if unrunFrom[n] || hook == 1 {
			out = append(out, n)
		}
	}
	return out
}

// webhookDecidedGate is DecidedGate for an If or Filter whose test fails
// on every item of the Webhook that feeds it (webhookGateFalse): every
// item leaves by the false output (a Filter's discarded one), and the
// connections at the true output never carry one. Those stay in the
// graph (deadEdge drops them), so Never is read from the node's own.
func (g *Graph) webhookDecidedGate(n *n8nschema.Node) (GateDecision, bool) {
	i, ok := g.index(n)
	if !ok {
		return GateDecision{}, false
	}
	c, ok := g.webhookGateMiss(i)
	if !ok {
		return GateDecision{}, false
	}
	wh := g.webhookOf(i)
	if wh == nil {
		return GateDecision{}, false
	}
	d := GateDecision{Taken: "false", Test: gateText(n), Webhook: g.newWebhookGate(c, wh)}
	for _, e := range g.outs(i) {
		if e.Type == ConnMain && !e.Error && e.Output == 0 {
			d.Never = append(d.Never, e)
		}
	}
	return d, true
}

// opText is an operation's name as stored, quoted unless it is a plain
// word (the export's text: gt, notEquals).
func opText(op string) string {
	for i := 0; i < len(op); i++ {
		if c := op[i]; !(c|0x20 >= 'a' && c|0x20 <= 'z') {
			return strconv.Quote(op)
		}
	}
	return op
}

// gateText is a test in words: its first conditions, operands and
// operation as stored.
func gateText(n *n8nschema.Node) string {
	p := n.Params()
	var parts []string
	if n.TypeVersion >= 2 {
		for _, c := range p.Get("conditions.conditions").ElemsSeq() {
			if len(parts) == 2 {
				break
			}
			op := opText(c.Get("operator.operation").Str())
			if c.Get("operator.singleValue").True() {
				parts = append(parts, operandText(c.Get("leftValue"))+" "+op)
				continue
			}
			parts = append(parts, operandText(c.Get("leftValue"))+" "+op+" "+operandText(c.Get("rightValue")))
		}
	} else {
		for _, dt := range []string{"boolean", "number", "string"} {
			for _, c := range p.Get("conditions." + dt).ElemsSeq() {
				if len(parts) == 2 {
					break
				}
				def := v1Defaults[dt]
				op := def[1].s
				if v := c.Get("operation"); v.Exists() {
					op = opText(v.Str())
				}
				l, r := c.Get("value1"), c.Get("value2")
				lt, rt := operandText(l), operandText(r)
				if !l.Exists() {
					lt = jsText(def[0])
				}
				if !r.Exists() {
					rt = jsText(def[2])
				}
				parts = append(parts, lt+" "+op+" "+rt)
			}
		}
	}
	if len(parts) == 0 {
		return "no condition"
	}
	return strings.Join(parts, "; ")
}

// jsText is a default value in JSON text.
func jsText(v jsVal) string {
	switch v.kind {
	case n8nschema.String:
		return strconv.Quote(v.s)
	case n8nschema.Number:
		return strconv.FormatFloat(v.f, 'f', -1, 64)
	case n8nschema.Bool:
		return strconv.FormatBool(v.b)
	}
	return "null"
}

// rightTypeOf is a filter operator's right operand's type: its rightType
// when it has one (a literal), else the operator's type; false when an
// expression sets it.
func rightTypeOf(op n8nschema.Value, typ string) (string, bool) {
	rt := op.Get("rightType")
	if !rt.Exists() {
		return typ, true
	}
	if rt.Kind() != n8nschema.String || rt.IsExpr() {
		return "", false
	}
	return rt.Str(), true
}
