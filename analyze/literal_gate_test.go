package analyze

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// litCond is one filter condition as the editor writes it.
func litCond(left, right, typ, op string) string {
	return fmt.Sprintf(`{"id": "c", "leftValue": %s, "rightValue": %s, "operator": {"type": %q, "operation": %q}}`, left, right, typ, op)
}

// litFilter is a filter parameter holding conds.
func litFilter(combinator, options string, conds ...string) string {
	return fmt.Sprintf(`{"options": {%s}, "conditions": [%s], "combinator": %q}`, options, strings.Join(conds, ", "), combinator)
}

const strictV2 = `"caseSensitive": true, "leftValue": "", "typeValidation": "strict", "version": 2`

// TestLiteralGate: an If, Filter or Switch whose test reads literals only
// answers the same for every item (filter-parameter.js executeFilter and
// executeFilterCondition; IfV1.node.js execute), so the output it never
// takes carries no item and what only that output reaches never runs.
// Anything an item may change is left undecided.
func TestLiteralGate(t *testing.T) {
	eq := litCond(`""`, `""`, "string", "equals")
	read := litCond(`"={{ $json.kind }}"`, `""`, "string", "equals")
	if2 := func(filter, extra string) string {
		return `{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [0, 0], ` + extra + `"parameters": {"conditions": ` + filter + `}}`
	}
	for _, c := range []struct {
		name          string
		node          string
		true_, false_ bool
	}{
		{`"" equals ""`, if2(litFilter("and", strictV2, eq), ""), true, false},
		{"an expression on one side", if2(litFilter("and", strictV2, read), ""), true, true},
		{"text that reads the item without =", if2(litFilter("and", strictV2, litCond(`"{{ $json.kind }}"`, `"a"`, "string", "equals")), ""), true, true},
		{"=text with no {{ }} is its text", if2(litFilter("and", strictV2, litCond(`"=a"`, `"a"`, "string", "equals")), ""), true, false},
		{"notEquals", if2(litFilter("and", strictV2, litCond(`"a"`, `"b"`, "string", "notEquals")), ""), true, false},
		{"case ignored", if2(litFilter("and", `"caseSensitive": false`, litCond(`"A"`, `"a"`, "string", "equals")), ""), true, false},
		{"case counts", if2(litFilter("and", strictV2, litCond(`"A"`, `"a"`, "string", "equals")), ""), false, true},
		{"case by expression, same either way", if2(litFilter("and", `"caseSensitive": "={{ true }}"`, litCond(`"a"`, `"a"`, "string", "equals")), ""), true, false},
		{"case by expression, differs", if2(litFilter("and", `"caseSensitive": "={{ true }}"`, litCond(`"A"`, `"a"`, "string", "equals")), ""), true, true},
		{"and: a literal false decides", if2(litFilter("and", strictV2, litCond(`"a"`, `"b"`, "string", "equals"), read), ""), false, true},
		{"and: an item-dependent first condition may throw", if2(litFilter("and", strictV2, read, litCond(`"a"`, `"b"`, "string", "equals")), ""), false, true},
		{"or: a literal true decides", if2(litFilter("or", strictV2, eq, read), ""), true, false},
		{"or: literal false leaves the rest", if2(litFilter("or", strictV2, litCond(`"a"`, `"b"`, "string", "equals"), read), ""), true, true},
		{"number gt", if2(litFilter("and", strictV2, litCond(`5`, `3`, "number", "gt")), ""), true, false},
		{"boolean true operator", if2(litFilter("and", strictV2, `{"leftValue": false, "rightValue": "", "operator": {"type": "boolean", "operation": "true", "singleValue": true}}`), ""), false, true},
		{"exists on a literal", if2(litFilter("and", strictV2, `{"leftValue": "voice_id", "rightValue": "", "operator": {"type": "string", "operation": "exists", "singleValue": true}}`), ""), true, false},
		// "=={{ x }}" renders as "=" followed by x (docs/n8n-facts.md, part ET).
		{"== prefix: never empty", if2(litFilter("and", strictV2, litCond(`"=={{ $json.uri }}"`, `""`, "string", "notEmpty")), ""), true, false},
		{"== prefix: exists", if2(litFilter("and", strictV2, litCond(`"=={{ $json.uri }}"`, `""`, "string", "exists")), ""), true, false},
		{"== prefix: empty", if2(litFilter("and", strictV2, litCond(`"=={{ $json.uri }}"`, `""`, "string", "empty")), ""), false, true},
		{"== prefix: equals a literal without =", if2(litFilter("and", strictV2, litCond(`"=={{ $json.status }}"`, `"completed"`, "string", "equals")), ""), false, true},
		{"== prefix: equals an expression is undecided", if2(litFilter("and", strictV2, litCond(`"=={{ $json.status }}"`, `"={{ $json.want }}"`, "string", "equals")), ""), true, true},
		{"== prefix: a number test is undecided", if2(litFilter("and", strictV2, litCond(`"=={{ $json.n }}"`, `""`, "number", "notEmpty")), ""), true, true},
		{"== prefix: and with an item test", if2(litFilter("and", strictV2, litCond(`"=={{ $json.uri }}"`, `""`, "string", "notEmpty"), read), ""), true, true},
		{"regex is not modelled", if2(litFilter("and", strictV2, litCond(`"a"`, `"a"`, "string", "regex")), ""), true, true},
		{"dateTime is not modelled", if2(litFilter("and", strictV2, litCond(`"2024-01-01"`, `"2024-01-01"`, "dateTime", "equals")), ""), true, true},
		{"combinator by expression", if2(litFilter("={{ 'and' }}", strictV2, eq), ""), true, true},
		{"no conditions, and", if2(litFilter("and", strictV2), ""), true, false},
		{"no conditions, or", if2(litFilter("or", strictV2), ""), false, true},
		{"strict type error is a failure, not a branch", if2(litFilter("and", strictV2, litCond(`""`, `5`, "number", "equals")), ""), false, false},
		{"strict type error, continues on fail", if2(litFilter("and", strictV2, litCond(`""`, `5`, "number", "equals")), `"onError": "continueRegularOutput", `), false, true},
		{"loose converts", if2(litFilter("and", `"typeValidation": "loose", "version": 2`, litCond(`"5"`, `5`, "number", "equals")), ""), true, false},
		{"looseTypeValidation beside strict options", if2(litFilter("and", strictV2, litCond(`"5"`, `5`, "number", "equals")), "")[:0] +
			`{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [0, 0], "parameters": {"looseTypeValidation": true, "conditions": ` + litFilter("and", strictV2, litCond(`"5"`, `5`, "number", "equals")) + `}}`, true, true},
		{"alwaysOutputData keeps the first output", if2(litFilter("and", strictV2, litCond(`"a"`, `"b"`, "string", "equals")), `"alwaysOutputData": true, `), true, true},
		{"disabled", if2(litFilter("and", strictV2, eq), `"disabled": true, `), true, false},
		{"filter", strings.Replace(if2(litFilter("and", strictV2, litCond(`"a"`, `"b"`, "string", "equals")), ""), "n8n-nodes-base.if", "n8n-nodes-base.filter", 1), false, false}, // one output: nothing is kept
		{"If v1, defaults", `{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 1, "position": [0, 0], "parameters": {"conditions": {"string": [{}]}}}`, true, false},
		{"If v1, any", `{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 1, "position": [0, 0], "parameters": {"combineOperation": "any", "conditions": {"number": [{"value1": 1, "operation": "larger", "value2": 2}]}}}`, false, true},
		{"If v1, an expression", `{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 1, "position": [0, 0], "parameters": {"conditions": {"string": [{"value1": "={{ $json.a }}", "value2": "x"}]}}}`, true, true},
		{"If v1, a string in a number test", `{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 1, "position": [0, 0], "parameters": {"conditions": {"number": [{"value1": 1, "operation": "equal", "value2": "=0"}]}}}`, true, true},
		{"Filter v1", `{"name": "G", "type": "n8n-nodes-base.filter", "typeVersion": 1, "position": [0, 0], "parameters": {"combineConditions": "OR", "conditions": {"string": [{"value1": "a", "operation": "startsWith", "value2": "b"}]}}}`, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := BuildGraph(parseOne(t, gateWorkflow(c.node)))
			for name, want := range map[string]bool{"True": c.true_, "False": c.false_} {
				if got := g.Reachable(g.Node(name)); got != want {
					t.Errorf("%s: reachable %v, want %v", name, got, want)
				}
			}
		})
	}
}

// TestLiteralSwitch: a Switch v3 rule that is always true takes every
// item (first match wins), so the later rules and the fallback never
// fire; one always false never fires itself.
func TestLiteralSwitch(t *testing.T) {
	eq := litFilter("and", strictV2, litCond(`""`, `""`, "string", "equals"))
	no := litFilter("and", strictV2, litCond(`"a"`, `"b"`, "string", "equals"))
	read := func(x string) string {
		return litFilter("and", strictV2, litCond(`"={{ $json.kind }}"`, `"`+x+`"`, "string", "equals"))
	}
	sw := func(options string, rules ...string) string {
		vals := make([]string, len(rules))
		for i, r := range rules {
			vals[i] = `{"conditions": ` + r + `}`
		}
		return `{"name": "G", "type": "n8n-nodes-base.switch", "typeVersion": 3.2, "position": [0, 0], "parameters": {"rules": {"values": [` +
			strings.Join(vals, ", ") + `]}, "options": {` + options + `}}}`
	}
	for _, c := range []struct {
		name string
		node string
		want [4]bool
	}{
		{"always-true first rule", sw(`"fallbackOutput": "extra"`, eq, read("a"), read("b")), [4]bool{true, false, false, false}},
		{"always-false rule", sw(`"fallbackOutput": "extra"`, read("a"), no, read("b")), [4]bool{true, false, true, true}},
		{"all match", sw(`"allMatchingOutputs": true`, eq, read("a"), read("b")), [4]bool{true, true, true, false}},
		{"item-dependent", sw("", read("a"), read("b"), read("c")), [4]bool{true, true, true, false}},
		{"fallback to a rule's output", sw(`"fallbackOutput": 1`, no, no, no), [4]bool{false, true, false, false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `{"nodes": [
	 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 ` + c.node + `,
	 {"name": "O0", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "O1", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "O2", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "O3", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
	 "connections": {
	  "S": {"main": [[{"node": "G", "type": "main", "index": 0}]]},
	  "G": {"main": [[{"node": "O0", "type": "main", "index": 0}], [{"node": "O1", "type": "main", "index": 0}], [{"node": "O2", "type": "main", "index": 0}], [{"node": "O3", "type": "main", "index": 0}]]}}}`
			g := BuildGraph(parseOne(t, src))
			for k, want := range c.want {
				name := fmt.Sprintf("O%d", k)
				if got := g.Reachable(g.Node(name)); got != want {
					t.Errorf("%s: reachable %v, want %v", name, got, want)
				}
			}
		})
	}
}

// TestLiteralGateThrows: the reason a literal test that always throws
// gives is the condition that throws.
func TestLiteralGateThrows(t *testing.T) {
	w := parseOne(t, gateWorkflow(`{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [0, 0], "parameters": {"conditions": `+
		litFilter("and", strictV2, litCond(`"a"`, `"a"`, "string", "equals"), litCond(`""`, `5`, "number", "equals"))+`}}`))
	g := BuildGraph(w)
	why, ok := g.FailsWhy(w.Node("G"))
	if !ok || !strings.Contains(why, `compares "" with 5 as number values`) {
		t.Errorf("FailsWhy = %q, %v", why, ok)
	}
}

// TestOwnCountGate: n8n runs a node only on items (workflow-execute.js
// prepareConnectionInputData), so in an If, Filter or Switch test the
// count of the node's own input ($input.all().length, $items().length)
// is at least 1, and a comparison of it that goes one way for every such
// count answers the same for every item. The items of another node, a
// field of the item and a count compared past 1 are left undecided.
func TestOwnCountGate(t *testing.T) {
	if2 := func(conds ...string) string {
		return `{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [0, 0], "parameters": {"conditions": ` + litFilter("and", strictV2, conds...) + `}}`
	}
	loose := func(cond string) string {
		return `{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [0, 0], "parameters": {"conditions": ` +
			litFilter("and", `"caseSensitive": true, "leftValue": "", "typeValidation": "loose", "version": 1`, cond) + `}}`
	}
	count := `"={{ $input.all().length }}"`
	single := func(left, typ, op string) string {
		return fmt.Sprintf(`{"id": "c", "leftValue": %s, "rightValue": "", "operator": {"type": %q, "operation": %q, "singleValue": true}}`, left, typ, op)
	}
	arr := func(op, right string) string {
		return fmt.Sprintf(`{"id": "c", "leftValue": "={{ $input.all() }}", "rightValue": %s, "operator": {"type": "array", "operation": %q, "rightType": "number"}}`, right, op)
	}
	v1 := func(dt, value1, op, value2 string) string {
		return fmt.Sprintf(`{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 1, "position": [0, 0], "parameters": {"conditions": {%q: [{"value1": %s, "operation": %q, "value2": %s}]}}}`, dt, value1, op, value2)
	}
	for _, c := range []struct {
		name          string
		node          string
		true_, false_ bool
	}{
		{"count gt 0", if2(litCond(count, `0`, "number", "gt")), true, false},
		{"count gt 0, loose", loose(litCond(count, `0`, "number", "gt")), true, false},
		{"count notEquals 0", if2(litCond(count, `0`, "number", "notEquals")), true, false},
		{"count equals 0", if2(litCond(count, `0`, "number", "equals")), false, true},
		{"count gte 1", if2(litCond(count, `1`, "number", "gte")), true, false},
		{"count lt 1", if2(litCond(count, `1`, "number", "lt")), false, true},
		{"count notEmpty", if2(single(count, "number", "notEmpty")), true, false},
		{"$items().length gt 0", if2(litCond(`"={{ $items().length }}"`, `0`, "number", "gt")), true, false},
		{"count gt 1 varies", if2(litCond(count, `1`, "number", "gt")), true, true},
		{"count equals 1 varies", if2(litCond(count, `1`, "number", "equals")), true, true},
		{"count lt 100 varies", if2(litCond(count, `100`, "number", "lt")), true, true},
		{"count gt 5 varies", if2(litCond(count, `5`, "number", "gt")), true, true},
		{"count equals 500000000 is not judged", if2(litCond(count, `500000000`, "number", "equals")), true, true},
		{"count against an expression", if2(litCond(count, `"={{ $json.n }}"`, "number", "gt")), true, true},
		{"count as a string is not judged", loose(litCond(count, `"0"`, "string", "notEquals")), true, true},
		{"comparison true", if2(single(`"={{ $input.all().length > 0 }}"`, "boolean", "true")), true, false},
		{"comparison, number first", if2(single(`"={{ 0 !== $input.all().length }}"`, "boolean", "true")), true, false},
		{"comparison === 0 false op", if2(single(`"={{ $input.all().length === 0 }}"`, "boolean", "false")), true, false},
		{"comparison exists", if2(single(`"={{ $input.all().length > 0 }}"`, "boolean", "exists")), true, false},
		{"comparison > 3 varies", if2(single(`"={{ $input.all().length > 3 }}"`, "boolean", "true")), true, true},
		{"items notEmpty", if2(single(`"={{ $input.all() }}"`, "array", "notEmpty")), true, false},
		{"items lengthGt 0", if2(arr("lengthGt", `0`)), true, false},
		{"items lengthGt 1 varies", if2(arr("lengthGt", `1`)), true, true},
		{"items contains is not judged", if2(`{"id": "c", "leftValue": "={{ $input.all() }}", "rightValue": "a", "operator": {"type": "array", "operation": "contains", "rightType": "any"}}`), true, true},
		{"another node's items vary", if2(litCond(`"={{ $('S').all().length }}"`, `0`, "number", "gt")), true, true},
		{"another node's items by $node vary", if2(litCond(`"={{ $node[\"S\"].json.items.length }}"`, `0`, "number", "gt")), true, true},
		{"a field of the item varies", if2(litCond(`"={{ $json.items.length }}"`, `0`, "number", "gt")), true, true},
		{"$items of another node varies", if2(litCond(`"={{ $items('S').length }}"`, `0`, "number", "gt")), true, true},
		{"filtered items vary", if2(litCond(`"={{ $input.all().filter(i => i.json.ok).length }}"`, `0`, "number", "gt")), true, true},
		{"text around the count", if2(litCond(`"=n {{ $input.all().length }}"`, `0`, "number", "gt")), true, true},
		{"and with an item test", if2(litCond(count, `0`, "number", "gt"), litCond(`"={{ $json.kind }}"`, `"a"`, "string", "equals")), true, true},
		{"and with an always-false count", if2(litCond(count, `0`, "number", "equals"), litCond(`"={{ $json.kind }}"`, `"a"`, "string", "equals")), false, true},
		{"If v1 count equal 0", v1("number", count, "equal", `0`), false, true},
		{"If v1 count larger 0", v1("number", `"={{ $items().length }}"`, "larger", `0`), true, false},
		{"If v1 count smaller 50 varies", v1("number", count, "smaller", `50`), true, true},
		{"If v1 comparison", v1("boolean", `"={{ $input.all().length > 0 }}"`, "equal", `true`), true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := BuildGraph(parseOne(t, gateWorkflow(c.node)))
			for name, want := range map[string]bool{"True": c.true_, "False": c.false_} {
				if got := g.Reachable(g.Node(name)); got != want {
					t.Errorf("%s: reachable %v, want %v", name, got, want)
				}
			}
		})
	}
}

// TestOwnCountSwitch: a Switch v3 rule on the count of its own input
// that always passes takes every item.
func TestOwnCountSwitch(t *testing.T) {
	src := `{"nodes": [
	 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 {"name": "G", "type": "n8n-nodes-base.switch", "typeVersion": 3.2, "position": [0, 0], "parameters": {"rules": {"values": [{"conditions": ` +
		litFilter("and", strictV2, litCond(`"={{ $input.all().length }}"`, `1`, "number", "gte")) + `}, {"conditions": ` +
		litFilter("and", strictV2, litCond(`"={{ $json.kind }}"`, `"a"`, "string", "equals")) + `}]}, "options": {}}},
	 {"name": "O0", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "O1", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
	 "connections": {
	  "S": {"main": [[{"node": "G", "type": "main", "index": 0}]]},
	  "G": {"main": [[{"node": "O0", "type": "main", "index": 0}], [{"node": "O1", "type": "main", "index": 0}]]}}}`
	g := BuildGraph(parseOne(t, src))
	for name, want := range map[string]bool{"O0": true, "O1": false} {
		if got := g.Reachable(g.Node(name)); got != want {
			t.Errorf("%s: reachable %v, want %v", name, got, want)
		}
	}
}

// TestLooksReadAsPattern: looksRead answers as the pattern it spells out.
func TestLooksReadAsPattern(t *testing.T) {
	re := regexp.MustCompile(`\{\{|\$[A-Za-z_(]`)
	alphabet := []byte("{}$(_aZ9 .é\\\"")
	r := rand.New(rand.NewPCG(22, 1))
	for range 200000 {
		b := make([]byte, r.IntN(9))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if s := string(b); looksRead(s) != re.MatchString(s) {
			t.Fatalf("looksRead(%q) = %v, the pattern %v", s, looksRead(s), re.MatchString(s))
		}
	}
}
