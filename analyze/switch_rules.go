package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// switchRules reads a Switch in rules mode as its outputs see it: each
// rule's test (v3: rules.values[].conditions, a filter, output by
// position; v1 and v2: value1 against each rule's value2 by its
// operation, rules.rules[].output), the output each rule sends to, the
// fallback output (-1 when none) and whether every matching rule sends
// (v3's options.allMatchingOutputs) rather than the first. ok is false
// for a Switch in expression mode.
func switchRules[T any](n *n8nschema.Node, filter func(conditions n8nschema.Value) T, compare func(left, right, op string) T) (rules []T, at []int, fallback int, allMatch, ok bool) {
	p := n.Params()
	if m := p.Get("mode").Str(); m != "" && m != "rules" {
		return nil, nil, -1, false, false
	}
	fallback = -1
	if n.TypeVersion >= 3 {
		allMatch = p.Get("options.allMatchingOutputs").True()
		for i, r := range p.Get("rules.values").Elems() {
			rules, at = append(rules, filter(r.Get("conditions"))), append(at, i)
		}
		fb := p.Get("options.fallbackOutput")
		if fb.Str() == "extra" {
			fallback = len(rules)
		} else if x, ok := fb.Num(); ok {
			fallback = int(x)
		}
		return rules, at, fallback, allMatch, true
	}
	left := p.Get("value1").Str()
	for _, r := range p.Get("rules.rules").Elems() {
		o, _ := r.Get("output").Num()
		rules = append(rules, compare(left, r.Get("value2").Str(), strings.TrimPrefix(r.Get("operation").Str(), "=")))
		at = append(at, int(o))
	}
	if x, ok := p.Get("fallbackOutput").Num(); ok {
		fallback = int(x)
	}
	return rules, at, fallback, false, true
}
