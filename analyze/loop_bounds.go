package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers that read a counter bounding a loop where IsGuard cannot:
// a Code node throwing on a stepped field, a number stepped to a limit, a
// work list drained until empty.

// countedLoop reports whether a counter the analysis does not see bounds a
// loop: one checked by a throwing Code node, a number stepped by a constant
// and compared with a limit, or a work list drained until it is empty.
func countedLoop(g *Graph, l *Loop) bool {
	return throwsOnCounter(g, l) || steppedToLimit(l) || drainsList(l) || grownToTotal(l) ||
		comparesStepped(l) || codeThrowsOnCount(g, l) || createsWhatIsMissing(g, l)
}

// createsWhatIsMissing reports whether the loop goes round only to create
// what a look-up did not find: a branch of the loop tests for absence (an
// empty result, a field that does not exist, a 404) and its output that
// stays in the loop leads straight to a create (an app node's write that
// creates, adds or appends), after which the loop looks again and finds
// it. The state advances: the next pass takes the other output.
func createsWhatIsMissing(g *Graph, l *Loop) bool {
	in := make(map[*n8nschema.Node]bool, len(l.Nodes))
	for _, n := range l.Nodes {
		in[n] = true
	}
	// The creates of the loop entered only when an absence test says the
	// thing is missing.
	cut := map[*n8nschema.Node]bool{}
	for _, n := range l.Nodes {
		if n.Disabled || !createsOne(n) {
			continue
		}
		only, any := true, false
		for _, e := range g.InOfType(n, ConnMain) {
			if !in[e.From] {
				continue
			}
			any = true
			absent, ok := absenceTest(e.From)
			if !ok || e.From.Type != n8nschema.TypeIf || (e.Output == 0) != absent {
				only = false
			}
		}
		if any && only {
			cut[n] = true
		}
	}
	if len(cut) == 0 {
		return false
	}
	// Without them the loop must not close: every way round creates.
	state := map[*n8nschema.Node]int{} // 1 on the path, 2 done
	var cyclic func(n *n8nschema.Node) bool
	cyclic = func(n *n8nschema.Node) bool {
		state[n] = 1
		for _, e := range g.OutOfType(n, ConnMain) {
			if !in[e.To] || cut[e.To] || g.dead(e) {
				continue
			}
			switch state[e.To] {
			case 1:
				return true
			case 0:
				if cyclic(e.To) {
					return true
				}
			}
		}
		state[n] = 2
		return false
	}
	for _, n := range l.Nodes {
		if !cut[n] && state[n] == 0 && cyclic(n) {
			return false
		}
	}
	return true
}

// absenceTest reads an If with one condition that tests whether something
// is missing: it returns absent true when the condition holds for a
// missing thing (empty, does not exist, isEmpty(), a 404 or "not found"),
// false when it holds for a present one (not empty, exists).
func absenceTest(n *n8nschema.Node) (absent, ok bool) {
	cs := n.Params().Get("conditions.conditions").Elems()
	if len(cs) != 1 {
		return false, false
	}
	c := cs[0]
	left, right := c.Get("leftValue").Str(), c.Get("rightValue").Str()
	switch c.Get("operator.operation").Str() {
	case "empty", "notExists":
		return true, true
	case "notEmpty", "exists":
		return false, true
	case "notContains":
		return true, true
	case "true":
		if strings.Contains(left, "isEmpty()") || strings.Contains(left, "length === 0") || strings.Contains(left, "length == 0") {
			return true, true
		}
	case "equals":
		r := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(right, "=")))
		if r == "404" || strings.Contains(r, "not found") || r == "not_found" {
			return true, true
		}
	}
	return false, false
}

// createsOne reports whether an app node creates a named thing: a write
// whose operation creates, adds or appends (a playlist, a folder, a row).
// A raw POST is not read as one: it may start a generation that fails
// again, and a paid call never is.
func createsOne(n *n8nschema.Node) bool {
	if strings.TrimSuffix(n.Type, "Tool") == n8nschema.TypeHTTPRequest || n8nschema.Lookup(n.Type).Paid {
		return false
	}
	write, op := n8nschema.WriteOp(n)
	if !write {
		return false
	}
	op = strings.ToLower(op[strings.LastIndexByte(op, '.')+1:])
	return strings.Contains(op, "create") || strings.Contains(op, "add") || strings.Contains(op, "append") ||
		strings.Contains(op, "insert")
}

// orderRE finds an ordering comparison in code or an expression (a >= b,
// i < max), not an arrow (=>).
var orderRE = lazyregexp.New(`[^=]>=?[^>]|<=?`)

// comparesStepped reports whether an If, Switch or Filter of the loop
// compares, inside an expression ({{ $json.poll_index >= $json.maxPolls
// }}), a field that a Set or Code node of the loop steps by one: a counter
// carried in the data and checked by a condition that IsGuard cannot read.
func comparesStepped(l *Loop) bool {
	stepped := map[string]bool{}
	for _, n := range l.Nodes {
		if !n.Disabled && (n.Type == n8nschema.TypeSet || n8nschema.IsCode(n.Type)) {
			stepFields(n, stepped)
		}
	}
	if len(stepped) == 0 {
		return false
	}
	found := false
	for _, n := range l.Nodes {
		if found || n.Disabled || !n8nschema.IsBranch(n.Type) {
			continue
		}
		n.Params().Scalars(func(v n8nschema.Value) bool {
			x := v.Str()
			if v.Kind() != n8nschema.String || !strings.Contains(x, "{{") || !orderRE.MatchString(x) {
				return true
			}
			eachIdent(x, func(id string) bool {
				found = found || stepped[id] && id != "json" && id != "length"
				return !found
			})
			return !found
		})
	}
	return found
}

// codeThrowsOnCount reports whether a Code node of the loop steps a count
// by one (kept in the data or in $getWorkflowStaticData), compares it and
// throws: the throw ends the loop once the count passes its limit, as the
// node's error leaves the loop (throwsOnCounter's test).
func codeThrowsOnCount(g *Graph, l *Loop) bool {
	in := map[*n8nschema.Node]bool{}
	for _, n := range l.Nodes {
		in[n] = true
	}
	for _, n := range l.Nodes {
		if n.Disabled || !n8nschema.IsCode(n.Type) {
			continue
		}
		code := codeOf(n)
		if !stepsByOne(code) || !orderRE.MatchString(code) || !strings.Contains(code, "throw") && !strings.Contains(code, "raise") {
			continue
		}
		if leavesLoopOnError(g, n, in) {
			return true
		}
	}
	return false
}

// leavesLoopOnError reports whether an error in n ends the loop: it stops
// the execution, or n's error output leads out.
func leavesLoopOnError(g *Graph, n *n8nschema.Node, in map[*n8nschema.Node]bool) bool {
	switch n.OnError {
	case "continueRegularOutput":
		return false
	case "continueErrorOutput":
		for _, e := range g.ErrorOutputs(n) {
			if !in[e.To] {
				return true
			}
		}
		return false
	}
	return true
}

// countsPages reports whether a Set or Code node of a paging loop steps a
// number (page + 1, offset += 100): the loop counts pages rather than
// following a cursor from the data, and an API that ignores the number
// answers the same page for ever.
func countsPages(l *Loop) bool {
	for _, n := range l.Nodes {
		if n.Disabled {
			continue
		}
		switch {
		case n.Type == n8nschema.TypeSet:
			stepped := false
			n.Params().Walk(func(rel string, v n8nschema.Value) {
				if strings.HasSuffix(rel, "value") && strings.Contains(v.Str(), "{{") && (stepsByOne(v.Str()) || stepByRE.MatchString(v.Str())) {
					stepped = true
				}
			})
			if stepped {
				return true
			}
		case n8nschema.IsCode(n.Type):
			if code := codeOf(n); stepsByOne(code) || strings.Contains(code, "+=") {
				return true
			}
		}
	}
	return false
}

// grownToTotal reports whether a Set node of the loop adds to a field from
// its own value (sofar = sofar + results.length) and a number condition of
// the loop compares that field with a total the data gives (sofar >= {{
// $json.total }}): a count of what was fetched against the total the
// response announced ends with the data.
func grownToTotal(l *Loop) bool {
	grown := map[string]bool{}
	for _, n := range l.Nodes {
		if n.Type != n8nschema.TypeSet || n.Disabled {
			continue
		}
		p := n.Params()
		p.Walk(func(rel string, v n8nschema.Value) {
			base, ok := strings.CutSuffix(rel, "value")
			if !ok || !strings.Contains(v.Str(), "{{") || !strings.Contains(v.Str(), "+") {
				return
			}
			if name := p.Get(base + "name").Str(); name != "" && containsWord(v.Str(), name) {
				grown[name] = true
			}
		})
	}
	if len(grown) == 0 {
		return false
	}
	found := false
	conditionsOf(l, func(left, right, typ, op string) {
		if found || typ != "number" {
			return
		}
		switch op {
		case "lt", "lte", "gt", "gte":
		default:
			return
		}
		for _, pair := range [][2]string{{left, right}, {right, left}} {
			if !strings.Contains(pair[1], "{{") {
				continue
			}
			for f := range grown {
				if containsWord(pair[0], f) && !containsWord(pair[1], f) {
					found = true
				}
			}
		}
	})
	return found
}

// throwsOnCounter reports whether a loop is bounded by a counter that a
// Code node checks by throwing: a Set node of the loop steps a field by
// one (index + 1), and a Code node of the loop, or a Code sub-node of one
// of its nodes (a model selector, a custom tool), reads that field and
// throws. The throw ends the loop: the execution stops, or the error
// output leads out of it. This is the "try the next model" fallback: the
// index runs off the end of the list (IsGuard covers a Code node
// that throws on $runIndex).
func throwsOnCounter(g *Graph, l *Loop) bool {
	in := map[*n8nschema.Node]bool{}
	for _, n := range l.Nodes {
		in[n] = true
	}
	var counters []string
	for _, n := range l.Nodes {
		if n.Type != n8nschema.TypeSet || n.Disabled {
			continue
		}
		n.Params().Walk(func(rel string, v n8nschema.Value) {
			if !strings.HasSuffix(rel, ".value") || !strings.Contains(v.Str(), "{{") || !stepsByOne(v.Str()) {
				return
			}
			base := strings.TrimSuffix(rel, "value")
			if name := n.Params().Get(base + "name").Str(); name != "" {
				counters = append(counters, name)
			}
		})
	}
	if len(counters) == 0 {
		return false
	}
	throwsOn := func(code *n8nschema.Node) bool {
		src := ""
		for _, k := range []string{"jsCode", "functionCode", "pythonCode", "code.supplyData.code", "code.execute.code"} {
			if v, ok := code.Param(k); ok {
				src += v.Str()
			}
		}
		if !strings.Contains(src, "throw") && !strings.Contains(src, "raise") {
			return false
		}
		for _, c := range counters {
			if containsWord(src, c) {
				return true
			}
		}
		return false
	}
	for _, n := range l.Nodes {
		if n.Disabled {
			continue
		}
		cands := append([]*n8nschema.Node{n}, g.SubNodes(n, "")...)
		for _, c := range cands {
			if !n8nschema.IsCode(c.Type) && !n8nschema.IsAICode(c.Type) {
				continue
			}
			if !throwsOn(c) {
				continue
			}
			// The throw must leave the loop: the node stops the execution,
			// or its error output leads out.
			switch n.OnError {
			case "continueRegularOutput":
				continue
			case "continueErrorOutput":
				out := false
				for _, e := range g.ErrorOutputs(n) {
					out = out || !in[e.To]
				}
				if !out {
					continue
				}
			}
			return true
		}
	}
	return false
}

// conditionsOf calls f with every condition of the If, Switch and Filter
// nodes of a loop (v2 conditions: leftValue, operator, rightValue).
func conditionsOf(l *Loop, f func(left, right, opType, op string)) {
	for _, n := range l.Nodes {
		if !n8nschema.IsBranch(n.Type) || n.Disabled {
			continue
		}
		p := n.Params()
		p.Walk(func(rel string, v n8nschema.Value) {
			if !strings.HasSuffix(rel, "operator.operation") {
				return
			}
			base := strings.TrimSuffix(rel, "operator.operation")
			f(p.Get(base+"leftValue").Str(), p.Get(base+"rightValue").Str(), p.Get(base+"operator.type").Str(), v.Str())
		})
	}
}

// steppedToLimit reports whether a Set node of the loop steps a number by a
// constant ({{ $json.limitKNN + 5 }}) and a condition of the loop compares
// that number with a fixed limit (limitKNN <= 100): the loop ends when the
// number passes it (analyze's guards see steps of one).
func steppedToLimit(l *Loop) bool {
	stepped := map[string]bool{}
	for _, n := range l.Nodes {
		if n.Type != n8nschema.TypeSet || n.Disabled {
			continue
		}
		n.Params().Walk(func(rel string, v n8nschema.Value) {
			if !strings.HasSuffix(rel, ".value") {
				return
			}
			if !strings.Contains(v.Str(), "}}") {
				return // what stepByRE needs
			}
			for _, m := range stepByRE.FindAllStringSubmatch(v.Str(), -1) {
				stepped[m[1]] = true
			}
		})
	}
	if len(stepped) == 0 {
		return false
	}
	found := false
	conditionsOf(l, func(left, right, typ, op string) {
		if found || typ != "number" {
			return
		}
		switch op {
		case "lt", "lte", "gt", "gte":
		default:
			return
		}
		for _, pair := range [][2]string{{left, right}, {right, left}} {
			if _, err := strconv.ParseFloat(strings.TrimPrefix(pair[1], "="), 64); err != nil {
				continue
			}
			for _, w := range identWords(pair[0]) {
				if stepped[w] {
					found = true
				}
			}
		}
	})
	return found
}

// stepByRE matches a field stepped by a constant: limit + 5, left - 1.
var stepByRE = lazyregexp.New(`([A-Za-z_]\w*)\s*[+-]\s*\d+(\.\d+)?\s*\}\}`)

// drainsList reports whether a Code node of the loop takes one element off
// a list every trip (desired_path.shift()) and a condition of the loop tests
// that list for emptiness: the loop ends when the list runs out.
func drainsList(l *Loop) bool {
	drained := map[string]bool{}
	for _, n := range l.Nodes {
		if !n8nschema.IsCode(n.Type) || n.Disabled {
			continue
		}
		for _, k := range []string{"jsCode", "functionCode"} {
			v, _ := n.Param(k)
			if code := v.Str(); !strings.Contains(code, "shift") && !strings.Contains(code, "pop") && !strings.Contains(code, "slice") {
				continue // what drainRE needs
			}
			for _, m := range drainRE.FindAllStringSubmatch(v.Str(), -1) {
				drained[m[1]+m[3]] = true
			}
		}
	}
	if len(drained) == 0 {
		return false
	}
	found := false
	conditionsOf(l, func(left, right, typ, op string) {
		if found {
			return
		}
		switch op {
		case "empty", "notEmpty", "lengthEquals", "lengthLt", "lengthLte", "lengthGt", "lengthGte":
		default:
			if typ != "number" || !strings.Contains(left+right, ".length") {
				return
			}
		}
		for _, w := range identWords(left + " " + right) {
			if drained[w] {
				found = true
			}
		}
	})
	return found
}

// drainRE matches a work list consumed by one element: list.shift(),
// list.pop(), list = list.slice(1).
var drainRE = lazyregexp.New(`([A-Za-z_]\w*)\s*\.\s*(shift|pop)\s*\(\s*\)|([A-Za-z_]\w*)\s*\.\s*slice\s*\(\s*1\s*\)`)

// identWords splits an expression into identifiers.
func identWords(s string) []string { return identRE.FindAllString(s, -1) }

// waitsForPerson returns a node of the loop that waits for a person (a
// form, a Wait resumed by webhook or form, a send-and-wait message), or nil.
func waitsForPerson(ns []*n8nschema.Node) *n8nschema.Node {
	for _, n := range ns {
		if n8nschema.HumanGate(n) {
			return n
		}
	}
	return nil
}

// tripWait returns the longest time in seconds that a Wait node of the
// loop holds each trip (resume after a time interval; v1 defaults to 1
// hour, v1.1 to 5 seconds, nodes-base/nodes/Wait), 0 when none does. A
// loop that waits an hour or more is a scheduler: what it spends is
// bounded per day by its pace.
func tripWait(l *Loop) float64 {
	longest := 0.0
	for _, n := range l.Nodes {
		if n.Type != n8nschema.TypeWait || n.Disabled {
			continue
		}
		r, _ := n.Param("resume")
		if r.Str() != "" && r.Str() != "timeInterval" {
			continue
		}
		amount, unit := 1.0, "hours"
		if n.TypeVersion >= 1.1 {
			amount, unit = 5, "seconds"
		}
		if v, ok := n.Param("amount"); ok {
			f, isNum := v.Num()
			if !isNum {
				continue // an expression decides
			}
			amount = f
		}
		if v, ok := n.Param("unit"); ok {
			unit = v.Str()
		}
		secs := map[string]float64{"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}[unit]
		longest = max(longest, amount*secs)
	}
	return longest
}

// containsWord reports whether w, a counter's name (never empty), occurs
// in s between word boundaries, as the pattern \b + QuoteMeta(w) + \b
// matches (a boundary is where an ASCII word byte, [0-9A-Za-z_], meets a
// byte that is not one, or an end): a pattern compiled per counter and per
// Code node was quadratic in what a workflow names.
func containsWord(s, w string) bool {
	if w == "" {
		return false
	}
	for at := 0; ; at++ {
		i := strings.Index(s[at:], w)
		if i < 0 {
			return false
		}
		at += i
		if wordBoundary(s, at) && wordBoundary(s, at+len(w)) {
			return true
		}
	}
}

// wordBoundary reports whether \b matches at byte i of s.
func wordBoundary(s string, i int) bool {
	return (i > 0 && isWordByte(s[i-1])) != (i < len(s) && isWordByte(s[i]))
}

// steppedDownInputs returns the inputs that a sub-workflow call passes as
// a number stepped by a constant ({{ $json.n - 1 }}): a recursion that
// carries it toward a base case that a condition of the callee tests
// (n <= 1) ends, each call a step nearer.
func steppedDownInputs(n *n8nschema.Node) []string {
	if n.Type != n8nschema.TypeExecuteWorkflow || n.Disabled {
		return nil
	}
	var out []string
	n.Params().Get("workflowInputs.value").Each(func(k string, v n8nschema.Value) bool {
		if s := v.Str(); strings.Contains(s, "}}") && stepByRE.MatchString(s) {
			out = append(out, k)
		}
		return true
	})
	return out
}

// testsAny reports whether an If, Switch or Filter compares one of fields
// as a number (numericFields) or in an ordering inside an expression.
func testsAny(n *n8nschema.Node, fields map[string]bool) bool {
	if len(fields) == 0 || !n8nschema.IsBranch(n.Type) {
		return false
	}
	for _, f := range numericFields(n) {
		if fields[f] {
			return true
		}
	}
	found := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		x := v.Str()
		if v.Kind() == n8nschema.String && strings.Contains(x, "{{") && orderRE.MatchString(x) {
			eachIdent(x, func(id string) bool {
				found = found || fields[id]
				return !found
			})
		}
		return !found
	})
	return found
}
