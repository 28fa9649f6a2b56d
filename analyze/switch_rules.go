package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// switchTable is a Switch in rules mode as its outputs see it.
type switchTable[T any] struct {
	rules    []T   // each rule's test
	at       []int // the output each rule sends to
	fallback int   // the fallback output, -1 when none
	outputs  int   // how many outputs the rules and fallback name
	allMatch bool  // every matching rule sends (v3's options.allMatchingOutputs), not only the first
}

// switchRules reads a Switch in rules mode: v3's rules.values[].conditions
// (a filter, output by position, options.fallbackOutput) or v1 and v2's
// value1 against each rule's value2 by its operation (rules.rules[].output,
// fallbackOutput; a missing one at the dataType's default, v1Operation:
// smaller for a number, the dataType's own default). ok is false for a Switch in expression mode or with no
// rules.
func switchRules[T any](n *n8nschema.Node, filter func(conditions n8nschema.Value) T, compare func(left, right, op string) T) (switchTable[T], bool) {
	t, ok := readSwitchRules(n, filter, compare)
	if !ok || len(t.rules) == 0 {
		return t, false
	}
	t.outputs = max(len(t.rules), t.fallback+1)
	for _, o := range t.at {
		t.outputs = max(t.outputs, o+1)
	}
	return t, true
}

func readSwitchRules[T any](n *n8nschema.Node, filter func(conditions n8nschema.Value) T, compare func(left, right, op string) T) (t switchTable[T], ok bool) {
	p := n.Params()
	if m := p.Get("mode").Str(); m != "" && m != "rules" {
		return t, false
	}
	t.fallback = -1
	if n.TypeVersion >= 3 {
		t.allMatch = p.Get("options.allMatchingOutputs").True()
		for i, r := range p.Get("rules.values").ElemsSeq() {
			t.rules, t.at = append(t.rules, filter(r.Get("conditions"))), append(t.at, i)
		}
		fb := p.Get("options.fallbackOutput")
		if fb.Str() == "extra" {
			t.fallback = len(t.rules)
		} else if x, ok := fb.Num(); ok {
			t.fallback = int(x)
		}
		return t, true
	}
	left := p.Get("value1").Str()
	typ := p.Get("dataType").Str()
	if typ == "" {
		typ = "number" // dataType's default (Switch/V1/SwitchV1.node.js, Switch/V2/SwitchV2.node.js)
	}
	for _, r := range p.Get("rules.rules").ElemsSeq() {
		o, _ := r.Get("output").Num()
		op := v1Operation(typ, strings.TrimPrefix(r.Get("operation").Str(), "="))
		t.rules = append(t.rules, compare(left, r.Get("value2").Str(), op))
		t.at = append(t.at, int(o))
	}
	if x, ok := p.Get("fallbackOutput").Num(); ok {
		t.fallback = int(x)
	}
	return t, true
}
