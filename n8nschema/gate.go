package n8nschema

import (
	"strconv"
	"strings"
)

// GateThrows reports an If or Filter node (v2 and later) whose test
// throws on every item: under strict type validation its first
// condition compares against a literal of the wrong type, and why.
//
// The If and Filter nodes v2 read their conditions with extractValue
// (n8n-nodes-base/dist/nodes/If/V2/IfV2.node.js, Filter/V2/FilterV2.node.js
// execute), which runs executeFilter on them (n8n-core/dist/execution-engine/
// node-execution-context/utils/extract-value.js extractValueFilter). For
// each condition, n8n-workflow/dist/cjs/node-parameters/filter-parameter.js
// parseFilterConditionValues validates the right value against the
// operator's rightType (else its type) unless the operator takes one value
// (singleValue); under strict validation type-validation.js
// validateFieldType refuses a string where a number or a boolean is
// expected, and anything but a string where a string is: "Wrong type:
// 'true' is a string but was expecting a boolean" (null and a missing
// value pass). The node then rethrows, or, when it continues on fail,
// sends the item to its false (discarded) output. A parameter expression
// with no {{ }} ("=true") evaluates to its text, a string.
//
// Only the first condition is judged: "and" and "or" stop at the first
// condition that decides (executeFilter uses every and some), so a later
// one may never be read. Strict is the stored conditions.options
// typeValidation, or its absence (node-helpers.js getNodeParameters fills
// in "strict", as the editor does); an export whose looseTypeValidation
// setting says otherwise is not judged.
func GateThrows(n *Node) (string, bool) {
	if n.Type != TypeIf && n.Type != TypeFilter || n.TypeVersion < 2 {
		return "", false
	}
	cond, ok := n.Param("conditions")
	if !ok || cond.Kind() != Object {
		return "", false
	}
	loose := "looseTypeValidation"
	if n.TypeVersion < 2.1 {
		loose = "options.looseTypeValidation"
	}
	if v, ok := n.Param(loose); ok && (v.Kind() != Bool || v.True()) {
		return "", false
	}
	// Each object's members are read in one pass: a Get of a member that
	// is missing (singleValue and rightType mostly are) makes its path.
	var opts, comb, conds Value
	cond.Each(func(k string, v Value) bool {
		switch k {
		case "options":
			opts = v
		case "combinator":
			comb = v
		case "conditions":
			conds = v
		}
		return true
	})
	if opts.Exists() && opts.Kind() != Object {
		return "", false
	}
	if tv := opts.Get("typeValidation"); tv.Exists() && (tv.Kind() != String || tv.IsExpr() || tv.Str() != "strict") {
		return "", false
	}
	if c := comb; c.Exists() && (c.Kind() != String || c.IsExpr() || c.Str() != "and" && c.Str() != "or") {
		return "", false
	}
	first := conds.Get("0")
	if first.Kind() != Object {
		return "", false
	}
	var op, left, right Value
	first.Each(func(k string, v Value) bool {
		switch k {
		case "operator":
			op = v
		case "leftValue":
			left = v
		case "rightValue":
			right = v
		}
		return true
	})
	var typ, operation, single, rt Value
	op.Each(func(k string, v Value) bool {
		switch k {
		case "type":
			typ = v
		case "operation":
			operation = v
		case "singleValue":
			single = v
		case "rightType":
			rt = v
		}
		return true
	})
	if why, ok := leftAlwaysBoolean(left, typ.Str()); ok && typ.Kind() == String {
		return why, true
	}
	if typ.Kind() != String || operation.Kind() != String || single.True() || oneValueOperation[operation.Str()] {
		return "", false
	}
	want := typ.Str()
	if rt.Exists() {
		if rt.Kind() != String {
			return "", false
		}
		want = rt.Str()
	}
	if right.IsExpr() {
		return "", false
	}
	got, wrong := wrongType(right, want, filterVersion(opts))
	if !wrong {
		return "", false
	}
	text := right.Raw()
	if right.Kind() == String {
		text = right.Str()
	}
	return "its first condition compares a " + want + " with " + strconv.Quote(text) + ", " + got +
		", and strict type validation throws \"Wrong type\" on every item", true
}

// oneValueOperation are the filter operations that read no right value
// (their operators carry singleValue in the editor's list).
var oneValueOperation = map[string]bool{
	"exists": true, "notExists": true, "empty": true, "notEmpty": true, "true": true, "false": true,
}

// filterVersion is conditions.options.version (1 when absent, as
// getNodeParameters fills it in), 0 when it cannot be read.
func filterVersion(opts Value) float64 {
	v := opts.Get("version")
	if !v.Exists() {
		return 1
	}
	f, ok := v.Num()
	if !ok || v.Kind() != Number {
		return 0
	}
	return f
}

// wrongType reports a literal right value that strict validation refuses
// for type want, with its kind ("a string"). A number comparison from
// filter version 3 reads an empty string or array as empty, not wrong
// (filter-parameter.js parseSingleFilterValue).
func wrongType(v Value, want string, version float64) (string, bool) {
	k := v.Kind()
	if k == Missing || k == Null {
		return "", false
	}
	empty := k == String && strings.TrimSpace(v.Str()) == "" || k == Array && v.Len() == 0
	switch want {
	case "boolean":
		return literalKind(k), k != Bool
	case "number":
		if empty && version >= 3 {
			return "", false
		}
		return literalKind(k), k != Number && version > 0
	case "string":
		return literalKind(k), k != String
	}
	return "", false
}

func literalKind(k Kind) string {
	switch k {
	case String:
		return "a string"
	case Number:
		return "a number"
	case Bool:
		return "a boolean"
	case Array:
		return "an array"
	}
	return "an object"
}
