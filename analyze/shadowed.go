package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// shadowedRules reports, by output, the rules of a Switch (v3+, rules
// mode) whose conditions repeat an earlier rule's exactly. Switch sends an
// item to the first rule that matches only, unless
// options.allMatchingOutputs (n8n-nodes-base/dist/nodes/Switch/V3/
// SwitchV3.node.js, the option at L316–322, `continue itemLoop` at
// L418–422): an item that passes the repeat passed the earlier rule first
// and left there, so the repeat's output list is always empty, and what
// only it reaches never runs. nil when none.
func shadowedRules(nd *n8nschema.Node) []bool {
	if nd.Type != n8nschema.TypeSwitch || nd.TypeVersion < 3 {
		return nil
	}
	p := nd.Params()
	if m := p.Get("mode").Str(); m != "" && m != "rules" {
		return nil
	}
	if all := p.Get("options.allMatchingOutputs"); all.Exists() && all.Raw() != "false" {
		return nil // true, or an expression: every matching rule may send
	}
	rules := p.Get("rules.values").Elems()
	// The fallback may be a rule's output: items no rule takes go there.
	fallback := -1
	if fb := p.Get("options.fallbackOutput"); fb.Exists() && fb.Str() != "extra" && fb.Str() != "none" {
		fallback = len(rules) // an expression: any output may be it
		if x, ok := fb.Num(); ok {
			fallback = int(x)
		}
	}
	var dead []bool
	seen := map[string]bool{}
	for k, r := range rules {
		key, ok := ruleKey(r.Get("conditions"))
		if !ok {
			continue
		}
		if seen[key] && (fallback < 0 || fallback != k && fallback < len(rules)) {
			if dead == nil {
				dead = make([]bool, len(rules))
			}
			dead[k] = true
		}
		seen[key] = true
	}
	return dead
}

// ruleKey is a rule's conditions as n8n evaluates them: every scalar with
// its path, the conditions' ids and operator names left out (labels the
// editor adds or not; a copy gets a new id). ok is
// false when there is nothing to compare, or when a test could answer
// differently twice for the same item (a random draw, the clock).
func ruleKey(c n8nschema.Value) (string, bool) {
	if c.Kind() != n8nschema.Object {
		return "", false
	}
	var b strings.Builder
	ok := true
	c.Walk(func(rel string, v n8nschema.Value) {
		if rel == "id" || strings.HasSuffix(rel, ".id") || strings.HasSuffix(rel, "operator.name") {
			return // the editor's labels: n8n tests by operator type and operation
		}
		raw := v.Raw()
		if strings.Contains(raw, "random") || strings.Contains(raw, "$now") || strings.Contains(raw, "Date") {
			ok = false
		}
		b.WriteString(rel)
		b.WriteByte('=')
		b.WriteString(raw)
		b.WriteByte('\n')
	})
	return b.String(), ok && b.Len() > 0
}
