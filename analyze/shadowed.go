package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// shadowedRules marks the edges out of a Switch (v3+, rules mode) rule
// whose conditions repeat an earlier rule's exactly. Switch sends an item
// to the first rule that matches only, unless options.allMatchingOutputs
// (n8n-nodes-base/dist/nodes/Switch/V3/SwitchV3.node.js, the option at
// L316–322, `continue itemLoop` at L418–422): an item that passes the
// repeat passed the earlier rule first and left there, so the repeat's
// output never fires and what only it reaches never runs.
func (g *Graph) shadowedRules() {
	for i, nd := range g.Nodes {
		if nd.Disabled || nd.Type != n8nschema.TypeSwitch || nd.TypeVersion < 3 {
			continue
		}
		p := nd.Params()
		if m := p.Get("mode").Str(); m != "" && m != "rules" {
			continue
		}
		if all := p.Get("options.allMatchingOutputs"); all.Exists() && all.Raw() != "false" {
			continue // true, or an expression: every matching rule may send
		}
		seen := map[string]bool{}
		var dead map[int]bool
		for k, r := range p.Get("rules.values").Elems() {
			key, ok := ruleKey(r.Get("conditions"))
			if !ok {
				continue
			}
			if seen[key] {
				if dead == nil {
					dead = map[int]bool{}
				}
				dead[k] = true
			}
			seen[key] = true
		}
		for _, e := range g.outs(i) {
			if e.Type == ConnMain && !e.Error && dead[e.Output] {
				if g.shadowed == nil {
					g.shadowed = map[*Edge]bool{}
				}
				g.shadowed[e] = true
			}
		}
	}
}

// ruleKey is a rule's conditions as n8n evaluates them: every scalar with
// its path, the conditions' ids left out (each copy gets a new one). ok is
// false when there is nothing to compare, or when a test could answer
// differently twice for the same item (a random draw, the clock).
func ruleKey(c n8nschema.Value) (string, bool) {
	if c.Kind() != n8nschema.Object {
		return "", false
	}
	var b strings.Builder
	ok := true
	c.Walk(func(rel string, v n8nschema.Value) {
		if rel == "id" || strings.HasSuffix(rel, ".id") {
			return
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
