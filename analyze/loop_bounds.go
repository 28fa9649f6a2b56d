package analyze

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// What bounds a loop, decided here and nowhere else. The graph's cycle
// search (Graph.cycles) asks two questions: which outputs of a node are
// bounded passages that close no loop (boundedExits: a guard, a counter
// the cycle steps, Loop Over Items' loop output), and, for each loop left,
// what ends it (bound: the data's pages, a person, a counter read where
// no guard test sees it, the end of a polled job, which status_poll.go
// reads) and how long a trip waits. Cycles of executions (Amplify) ask
// counterGuard and testsAny.

// boundedExits says which main outputs of node u, which lies on a cycle,
// are bounded passages: all of them when u is a guard (IsGuard) or an If,
// Switch or Filter that compares a number its cycle steps by one
// (countsDown) or a flag its cycle derives from a counter (derivedGuard);
// for Loop Over Items, out is its loop output (-1 otherwise). The cycle's
// facts are read first: a counter test needs a field that the cycle steps
// or derives, and most cycles have none.
func (g *Graph) boundedExits(u int) (all bool, out int) {
	nd := g.Nodes[u]
	if nd.Type == n8nschema.TypeSplitInBatches {
		return false, sibLoopOutput(nd)
	}
	if n8nschema.IsBranch(nd.Type) {
		f := g.cycleFacts(g.comp[u])
		if len(f.stepped) > 0 && g.countsDown(u) || len(f.derived) > 0 && g.derivedGuard(u) {
			return true, -1
		}
	}
	return IsGuard(nd), -1
}

// bound decides what ends loop l, a cycle that no bounded passage cuts:
// nothing (Unbounded) when it calls out or when Loop Over Items' done
// output leads back; the data, when each pass asks for the next page
// (Paging); or what Bound names. It sets WaitS and Paced too.
func (g *Graph) bound(l *Loop) {
	l.Unbounded = len(l.Calls) > 0 || l.DoneBack != nil
	if l.Unbounded && l.DoneBack == nil {
		if p := g.pages(l); p != nil {
			// Each pass asks for the next page: fan-out, not a retry.
			l.Unbounded, l.Paging, l.Pager = false, true, p
			l.PagingCursor = !sendsRunIndexPage(p) && !countsPages(l)
		}
	}
	if l.Unbounded && l.DoneBack == nil {
		var only []string
		switch {
		case g.waitsForPerson(l.Nodes) != nil:
			l.Unbounded, l.Bound = false, "person"
		case countedLoop(g, l):
			l.Unbounded, l.Bound = false, "counter"
		case func() (ends bool) { ends, only = endsWithJob(g, l); return ends }():
			l.Unbounded, l.Bound = false, "status"
		case drainsRemote(g, l):
			l.Unbounded, l.Bound = false, "drain"
		case endsInTime(g, l):
			l.Unbounded, l.Bound = false, "time"
		default:
			l.LeavesOnly = only
		}
	}
	l.WaitS = tripWait(l)
	l.Paced = l.WaitS >= 3600
}

// Counters that bound a loop where IsGuard cannot see them: a Code node
// throwing on a stepped field, a number stepped to a limit, a work list
// drained until empty.

// countedLoop reports whether a counter the analysis does not see bounds a
// loop: one checked by a throwing Code node, a number stepped by a constant
// and compared with a limit, or a work list drained until it is empty.
func countedLoop(g *Graph, l *Loop) bool {
	return throwsOnCounter(g, l) || steppedToLimit(l) || drainsList(l) || grownToTotal(l) ||
		comparesStepped(l) || codeThrowsOnCount(g, l) || createsWhatIsMissing(g, l) || codeFlagsCarriedCount(g, l)
}

// codeFlagsCarriedCount reports whether a Code node of the loop steps a
// count by one, compares it and hands the result on as a flag that an If,
// Switch or Filter of the loop tests (done = tries >= 3), and the count
// really goes round: the node reads it from the item it receives and every
// node back to it hands its items on unchanged, or from its own previous
// output ($('Retry gate')…), or from the workflow's static data. A count
// read from a node that never carries it starts from zero on every pass,
// and the flag never flips.
func codeFlagsCarriedCount(g *Graph, l *Loop) bool {
	in := make(map[*n8nschema.Node]bool, len(l.Nodes))
	for _, n := range l.Nodes {
		in[n] = true
	}
	for _, c := range l.Nodes {
		if c.Disabled || !n8nschema.IsCode(c.Type) {
			continue
		}
		code := codeOf(c)
		if !stepsByOne(code) || !orderRE.MatchString(code) {
			continue
		}
		var flags []string
		for _, m := range flagRE.FindAllStringSubmatch(code, -1) {
			flags = append(flags, m[1]+m[2])
		}
		if len(flags) == 0 || !loopTestsField(l, flags) {
			continue
		}
		if countCarried(g, c, code, in) {
			return true
		}
	}
	return false
}

// flagRE finds a field a Code node sets from a comparison: { stop: n >= 3 },
// item.json.done = tries > max.
var flagRE = lazyregexp.New(`(?:([A-Za-z_]\w*)\s*:\s*[^,;{}\n]*?[<>]=?[^,;{}\n]*|\.([A-Za-z_]\w*)\s*=\s*[^=;\n][^;\n]*?[<>]=?)`)

// loopTestsField reports whether a condition node of the loop reads one of
// the fields.
func loopTestsField(l *Loop, fields []string) bool {
	found := false
	for _, n := range l.Nodes {
		if found || n.Disabled || !n8nschema.IsBranch(n.Type) {
			continue
		}
		n.Params().Scalars(func(v n8nschema.Value) bool {
			x := v.Str()
			if !strings.Contains(x, "{{") {
				return true
			}
			for _, f := range fields {
				if strings.Contains(x, "."+f) || strings.Contains(x, `"`+f+`"`) || strings.Contains(x, "'"+f+"'") {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// countCarried reports whether the count Code node c steps comes back to
// it round the loop: from its own previous output, from workflow static
// data, or from its input when the nodes of the loop between its output
// and its input hand items on unchanged (conditions, waits, Set nodes that
// keep the other fields).
func countCarried(g *Graph, c *n8nschema.Node, code string, in map[*n8nschema.Node]bool) bool {
	if strings.Contains(code, "$('"+c.Name+"')") || strings.Contains(code, `$("`+c.Name+`")`) ||
		strings.Contains(code, "getWorkflowStaticData") {
		return true
	}
	if !strings.Contains(code, "$json") && !strings.Contains(code, "$input") && !strings.Contains(code, "items[") &&
		!strings.Contains(code, "item.json") {
		return false
	}
	// Every way from c's output back to c within the loop keeps the items.
	seen := map[*n8nschema.Node]bool{c: true}
	queue := []*n8nschema.Node{c}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.OutOfType(u, ConnMain) {
			if !in[e.To] || seen[e.To] {
				continue
			}
			seen[e.To] = true
			if !keepsItems(e.To) {
				return false
			}
			queue = append(queue, e.To)
		}
	}
	return true
}

// keepsItems reports whether a node hands on the items it gets with their
// fields: a condition, a Wait, a No Op, a Set that keeps the other fields.
func keepsItems(n *n8nschema.Node) bool {
	switch n.Type {
	case n8nschema.TypeIf, n8nschema.TypeSwitch, n8nschema.TypeFilter, n8nschema.TypeNoOp, n8nschema.TypeWait:
		return true
	case n8nschema.TypeSet:
		p := n.Params()
		return p.Get("includeOtherFields").True() || p.Get("include").Str() == "all" ||
			n.TypeVersion < 3 && !p.Get("keepOnlySet").True()
	}
	return false
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
		if n.Disabled || !createsOne(n) && !renewsSession(n) {
			continue
		}
		only, any := true, false
		for _, e := range g.InOfType(n, ConnMain) {
			if !in[e.From] {
				continue
			}
			any = true
			if !missingBranch(e) {
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

// missingBranch reports whether edge e leaves an If or Switch on the
// output taken when something is missing (absenceTest): an If's true or
// false output as its test reads, a Switch rule that matches a 404, a
// "not found" or an invalid or expired session or token.
func missingBranch(e *Edge) bool {
	if e.Error {
		return false
	}
	switch n := e.From; n.Type {
	case n8nschema.TypeIf:
		absent, ok := absenceTest(n)
		if !ok && n.TypeVersion < 2 {
			absent, ok = v1AbsenceTest(n)
		}
		return ok && (e.Output == 0) == absent
	case n8nschema.TypeSwitch:
		outs := switchOutcomes(n)
		if e.Output >= len(outs) || outs[e.Output].kind != outAny || len(outs[e.Output].lits) == 0 {
			return false
		}
		for _, l := range outs[e.Output].lits {
			if !missingWord(l) {
				return false
			}
		}
		return true
	}
	return false
}

// missingWord reports whether a literal a condition compares with names a
// missing resource or a credential no longer valid: 404, 401, "not
// found", "invalid token", "expired", "unauthorized".
func missingWord(s string) bool {
	s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(s, "=")))
	if s == "404" || s == "401" || s == "410" {
		return true
	}
	for _, w := range []string{"not found", "not_found", "notfound", "invalid", "expired", "unauthorized", "unauthenticated"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// v1AbsenceTest reads If v1's single condition that tests for something
// missing: a status equal to 404, or a boolean test that an error message
// includes "invalid token" or "not found" (value2 true).
func v1AbsenceTest(n *n8nschema.Node) (absent, ok bool) {
	var conds []n8nschema.Value
	for _, k := range []string{"conditions.boolean", "conditions.string", "conditions.number"} {
		conds = append(conds, n.Params().Get(k).Elems()...)
	}
	if len(conds) != 1 {
		return false, false
	}
	c := conds[0]
	op := c.Get("operation").Str()
	v1, v2 := c.Get("value1").Str(), c.Get("value2").Str()
	if op != "" && op != "equal" && op != "contains" {
		return false, false
	}
	if missingWord(v2) {
		return true, true
	}
	if t := strings.TrimSpace(strings.Trim(strings.TrimPrefix(v2, "="), "{} ")); t == "true" || c.Get("value2").True() {
		if i := strings.Index(v1, "includes("); i >= 0 && missingWord(strings.Trim(v1[i+len("includes("):], `"') }`)) {
			return true, true
		}
	}
	return false, false
}

// sessionWords name what a recovery call renews: a session, a chat, a
// token, a login.
var sessionWords = map[string]bool{"session": true, "sessions": true, "token": true, "refresh": true,
	"login": true, "signin": true, "auth": true, "authenticate": true, "reauth": true, "start": true,
	"startchat": true, "chat": true, "reconnect": true}

// renewsSession reports whether a node opens a new session or token (a
// POST to …/startChat, …/sessions, …/token, or a node named "Refresh
// access token") and stops the run when it fails: after it the loop
// calls again with what it got, and finds what was missing. A recovery
// that fails ends the run rather than going round.
func renewsSession(n *n8nschema.Node) bool {
	if !n8nschema.IsHTTPRequest(n.Type) || n8nschema.HTTPMethod(n) != "POST" ||
		n.OnError == "continueRegularOutput" || n.OnError == "continueErrorOutput" || n.OnError == "" && n.ContinueOnFail {
		return false
	}
	if _, ok := n8nschema.HTTPModelCallOf(n); ok {
		return false
	}
	words := append(splitWords(n.Name), urlVerbs(n)...)
	for _, w := range words {
		if sessionWords[w] {
			return true
		}
	}
	return false
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
	return numberOrderings(l, func(side, other string) bool {
		if !strings.Contains(other, "{{") {
			return false
		}
		for f := range grown {
			if containsWord(side, f) && !containsWord(other, f) {
				return true
			}
		}
		return false
	})
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

// numberOrderings reports whether f holds for a number condition of the
// loop that orders its two sides (lt, lte, gt, gte), asked of both sides
// in turn: f(left, right), then f(right, left).
func numberOrderings(l *Loop, f func(side, other string) bool) bool {
	found := false
	conditionsOf(l, func(left, right, typ, op string) {
		if found || typ != "number" {
			return
		}
		switch op {
		case "lt", "lte", "gt", "gte":
			found = f(left, right) || f(right, left)
		}
	})
	return found
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
	return numberOrderings(l, func(side, other string) bool {
		if _, err := strconv.ParseFloat(strings.TrimPrefix(other, "="), 64); err != nil {
			return false
		}
		for _, w := range identWords(side) {
			if stepped[w] {
				return true
			}
		}
		return false
	})
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
// form, a Wait resumed by webhook or form, a send-and-wait message, a
// Merge held for one: heldForPerson), or nil.
func (g *Graph) waitsForPerson(ns []*n8nschema.Node) *n8nschema.Node {
	for _, n := range ns {
		if g.heldForPerson(n) {
			return n
		}
	}
	return nil
}

// heldForPerson reports whether n's items wait for a person's answer: n
// is a person's gate (personGate), or a Merge that gives nothing unless
// both its inputs bring items (needsBothInputs) and one of them is fed
// only past a person's gate. A cycle through the Merge's other input then
// goes round once per answer too: in v1 order the Merge holds the first
// input until the second comes, and run without it (requiredInputs 1,
// n8n-core execution-engine/workflow-execute.js) it outputs nothing.
func (g *Graph) heldForPerson(n *n8nschema.Node) bool {
	if personGate(n) {
		return true
	}
	if !needsBothInputs(n) {
		return false
	}
	for _, e := range g.InOfType(n, ConnMain) {
		if !e.From.Disabled && g.onlyPastPerson(e.From) {
			return true
		}
	}
	return false
}

// needsBothInputs reports a Merge (v3) whose output is empty when one of
// its inputs brings no item: combine by all combinations ("if (!input1 ||
// !input2) return"), by position without unpaired items (Math.min of the
// input lengths), or by matching fields keeping matches (the default),
// nodes-base/nodes/Merge/v3/actions/mode/combineAll.js, combineByPosition.js
// and combineByFields.js. alwaysOutputData turns that nothing into one
// empty item, which runs what follows.
func needsBothInputs(n *n8nschema.Node) bool {
	if n.Type != "n8n-nodes-base.merge" || n.TypeVersion < 3 || n.Disabled || n.AlwaysOutputData {
		return false
	}
	p := n.Params()
	if p.Get("mode").Str() != "combine" {
		return false
	}
	switch by := p.Get("combineBy").Str(); by {
	case "combineAll":
		return true
	case "combineByPosition":
		return !p.Get("options.includeUnpaired").True()
	case "", "combineByFields":
		j := p.Get("joinMode").Str()
		return j == "" || j == "keepMatches"
	}
	return false
}

// onlyPastPerson reports whether every path of main connections that
// leads to n starts past a person's gate: no node that nothing feeds (a
// trigger, a start) reaches n without crossing one. One walk forward per
// graph answers it for every node.
func (g *Graph) onlyPastPerson(n *n8nschema.Node) bool {
	g.ungatedOnce.Do(func() {
		g.ungated = map[*n8nschema.Node]bool{}
		var queue []*n8nschema.Node
		for _, m := range g.Nodes {
			if len(g.InOfType(m, ConnMain)) == 0 && !personGate(m) {
				g.ungated[m] = true
				queue = append(queue, m)
			}
		}
		for len(queue) > 0 {
			m := queue[0]
			queue = queue[1:]
			for _, e := range g.OutOfType(m, ConnMain) {
				if !g.ungated[e.To] && !personGate(e.To) {
					g.ungated[e.To] = true
					queue = append(queue, e.To)
				}
			}
		}
	})
	return !g.ungated[n]
}

// personGate reports whether n holds every item that passes it until a
// person answers (n8nschema.HumanGate): a loop inside one execution and a
// cycle of executions (a self-restart) through it both go round once per
// answer, at the person's pace. A disabled node passes its items on at
// once, so it waits for no one.
func personGate(n *n8nschema.Node) bool { return !n.Disabled && n8nschema.HumanGate(n) }

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
	return (i > 0 && ascii.IsWord(s[i-1])) != (i < len(s) && ascii.IsWord(s[i]))
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

// bounds reports whether following e out of node u is a bounded passage:
// the loop output of Loop Over Items, or any output of a guard.
func (g *Graph) bounds(u int, e *Edge) bool {
	n := g.Nodes[u]
	if n.Type == n8nschema.TypeSplitInBatches {
		return e.Output == sibLoopOutput(n)
	}
	return IsGuard(n)
}

// guardRE matches what a loop guard tests: the node's run index or a
// counter carried in the data; counterRE only the latter.
var (
	// count is a word of its own, snake_case or the tail of a camelCase
	// name ($workflow.redraftLoopCount), never inside "account".
	guardRE   = lazyregexp.New(`(?i)\$runIndex|\brunIndex\b|attempt|retr(y|ies)|counter|\bcount\b|_count\b|\bcount_|(?-i:[a-z0-9]Count\b)|tries|iteration|depth`)
	counterRE = lazyregexp.New(`(?i)attempt|retr(y|ies)|counter|\bcount\b|_count\b|\bcount_|(?-i:[a-z0-9]Count\b)|tries|iteration|depth`)
)

// IsGuard reports whether n bounds a loop through it: an If, Switch or
// Filter whose conditions test $runIndex or a counter, or a Code node that
// reads $runIndex and throws.
func IsGuard(n *n8nschema.Node) bool {
	switch {
	case n8nschema.IsBranch(n.Type):
	case n8nschema.IsCode(n.Type):
		code := codeOf(n)
		return strings.Contains(code, "$runIndex") && (strings.Contains(code, "throw") || strings.Contains(code, "raise"))
	default:
		return false
	}
	return testsExpr(n, guardRE)
}

// counterGuard reports whether n is an If, Switch or Filter that tests a
// counter carried in the data (not $runIndex, which starts at 0 in every
// execution): it bounds cycles across executions as well.
func counterGuard(n *n8nschema.Node) bool {
	return n8nschema.IsBranch(n.Type) && testsExpr(n, counterRE)
}

// guardWords holds, in lower case, a word that every match of guardRE and
// counterRE contains; keep it in step with them. testsExpr runs the
// regexes only on expressions that hold one: (?i) alternations are slow.
var guardWords = []string{"runindex", "attempt", "retr", "count", "tries", "iteration", "depth"}

func mayTestGuard(s string) bool {
	for _, w := range guardWords {
		if containsLower(s, w) {
			return true
		}
	}
	return strings.Contains(s, "\u017f") // ſ folds to s under (?i)
}

// containsLower reports whether s holds w (lower-case ASCII) in any
// ASCII case, without the copy strings.ToLower makes.
func containsLower(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for j < len(w) && s[i+j]|0x20 == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

// testsExpr reports whether an expression in n's parameters matches re.
func testsExpr(n *n8nschema.Node, re *lazyregexp.Regexp) bool {
	found := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		found = v.Kind() == n8nschema.String && strings.Contains(v.Str(), "{{") && mayTestGuard(v.Str()) && re.MatchString(v.Str())
		return !found
	})
	return found
}

// stepRE matches a step of one in an expression or code: n + 1, n - 1,
// n += 1, n++ or n--.
var stepRE = lazyregexp.New(`\+\+|--|[+-]=?\s*1\b`)

// stepsByOne reports whether stepRE matches s, scanning the bytes: the
// regexp ran over every Code node of every cycle.
func stepsByOne(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '+' && c != '-' {
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == c {
			return true // ++ or --
		}
		if j < len(s) && s[j] == '=' {
			j++
		}
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f' || s[j] == '\r') {
			j++
		}
		if j < len(s) && s[j] == '1' && (j+1 == len(s) || !ascii.IsWord(s[j+1])) {
			return true
		}
	}
	return false
}

// propRE picks the property names an expression reads: $json.result,
// $json["count"], $('Node').item.json.pages_left.
var propRE = lazyregexp.New(`(?:\.|\[\s*["'])([A-Za-z_]\w*)`)

// countsDown reports whether node u is an If, Switch or Filter that
// compares a number which another node of its cycle steps by one (a Set
// or Code node computing count + 1 or left - 1): a counter that bounds the
// loop even when it is not named like one. It is called only for nodes on
// a cycle.
func (g *Graph) countsDown(u int) bool {
	fields := numericFields(g.Nodes[u])
	if len(fields) == 0 {
		return false
	}
	stepped := g.cycleFacts(g.comp[u]).stepped
	for _, f := range fields {
		if stepped[f] {
			return true
		}
	}
	return false
}

// cycleFacts is what the Set and Code nodes of one cycle compute, read
// once per component so that each guard of a large cycle costs a lookup,
// not a pass over every node (a regular expression per guard, node and
// field made 100 Ifs and 100 Code nodes on one cycle take a minute).
type cycleFacts struct {
	// stepped holds every field f for which some node steps(f).
	stepped map[string]bool
	// derived holds the Set fields computed as a comparison of $runIndex
	// or a counter (see derivedGuard).
	derived map[string]bool
}

func (g *Graph) cycleFacts(c int32) *cycleFacts {
	if g.facts == nil {
		g.facts = map[int32]*cycleFacts{}
	}
	if f := g.facts[c]; f != nil {
		return f
	}
	if g.compNodes == nil {
		g.compNodes = map[int32][]int{}
		for v := range g.Nodes {
			if c := g.comp[v]; g.cyclic[c] {
				g.compNodes[c] = append(g.compNodes[c], v)
			}
		}
	}
	f := &cycleFacts{stepped: map[string]bool{}, derived: map[string]bool{}}
	for _, v := range g.compNodes[c] {
		nd := g.Nodes[v]
		if nd.Disabled || nd.Type != n8nschema.TypeSet && !n8nschema.IsCode(nd.Type) {
			continue
		}
		g.factScans++
		stepFields(nd, f.stepped)
		if nd.Type == n8nschema.TypeSet {
			for _, a := range nd.Params().Get("assignments.assignments").ElemsSeq() {
				val := a.Get("value").Str()
				if strings.Contains(val, "{{") && mayTestGuard(val) && guardRE.MatchString(val) && compareRE.MatchString(val) {
					f.derived[a.Get("name").Str()] = true
				}
			}
		}
	}
	g.facts[c] = f
	return f
}

// numericFields returns the property names that the numeric conditions
// of an If, Switch or Filter read: leftValue and rightValue of conditions
// whose operator type is "number" (If v2+, Switch v3, Filter), value1 and
// value2 of If v1's conditions.number and of Switch v1/v2 on numbers.
func numericFields(n *n8nschema.Node) []string {
	if !n8nschema.IsBranch(n.Type) {
		return nil
	}
	var out []string
	add := func(v n8nschema.Value) {
		if v.Kind() == n8nschema.String && strings.Contains(v.Str(), "{{") {
			for _, m := range propRE.FindAllStringSubmatch(v.Str(), -1) {
				switch m[1] {
				case "json", "item", "first", "last", "all", "length", "params":
					continue
				}
				out = append(out, m[1])
			}
		}
	}
	p := n.Params()
	p.Walk(func(rel string, v n8nschema.Value) {
		switch {
		case strings.HasSuffix(rel, "operator.type") && v.Str() == "number":
			base := strings.TrimSuffix(rel, "operator.type")
			add(p.Get(base + "leftValue"))
			add(p.Get(base + "rightValue"))
		case strings.HasPrefix(rel, "conditions.number.") && (strings.HasSuffix(rel, ".value1") || strings.HasSuffix(rel, ".value2")):
			add(v)
		}
	})
	if p.Get("dataType").Str() == "number" {
		add(p.Get("value1"))
	}
	return out
}

// stepFields adds to out every field f that a Set or Code node steps by
// one: a Set field named f, or whose value reads f, computed with + 1 or
// - 1; for a Code node whose code steps something by one, every word of
// the code (f is a word of it as \bf\b matches).
func stepFields(n *n8nschema.Node, out map[string]bool) {
	switch {
	case n.Type == n8nschema.TypeSet:
		pair := func(name, value n8nschema.Value) {
			if v := value.Str(); strings.Contains(v, "{{") && stepsByOne(v) {
				out[name.Str()] = true
				words(v, out)
			}
		}
		for _, a := range n.Params().Get("assignments.assignments").ElemsSeq() {
			pair(a.Get("name"), a.Get("value"))
		}
		n.Params().Get("values").Each(func(_ string, typed n8nschema.Value) bool {
			for _, a := range typed.ElemsSeq() {
				pair(a.Get("name"), a.Get("value"))
			}
			return true
		})
	case n8nschema.IsCode(n.Type):
		if code := codeOf(n); stepsByOne(code) {
			words(code, out)
		}
	}
}

// words adds the maximal runs of ASCII word characters of s to out: the
// strings w for which \bw\b matches in s.
func words(s string, out map[string]bool) {
	for i := 0; i < len(s); {
		if !ascii.IsWord(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && ascii.IsWord(s[j]) {
			j++
		}
		out[s[i:j]] = true
		i = j
	}
}

// codeOf is the source of a Code or Function node.
func codeOf(n *n8nschema.Node) string {
	code := ""
	for _, k := range []string{"jsCode", "functionCode", "pythonCode"} {
		if v, ok := n.Param(k); ok {
			code += v.Str()
		}
	}
	return code
}

// cursorRE matches the names a page or cursor travels under.
var cursorRE = lazyregexp.New(`(?i)^(page|pages|page_?(num|number|no|index|info|token|cursor)|next_?(page|page_?token|cursor|token|url|link|start)|cursor|offset|start|skip|after|starting_?after|continuation(_?token)?|bookmark|since_?id|scroll_?id)$`)

// cursorName reports whether cursorRE matches s. Every name it matches
// starts with one of the letters below (or a non-ASCII letter that folds
// to one) and is short, which most strings fail at once.
func cursorName(s string) bool {
	return len(s) > 0 && len(s) <= 64 && (strings.IndexByte("pncosabPNCOSAB", s[0]) >= 0 || s[0] >= 0x80) && cursorRE.MatchString(s)
}

// identRE splits code and expressions into identifiers.
var identRE = lazyregexp.New(`[A-Za-z_]\w*`)

// eachIdent calls fn with every match of identRE in s, in order, until fn
// returns false; it scans the bytes instead of collecting the matches.
func eachIdent(s string, fn func(id string) bool) {
	for i := 0; i < len(s); {
		c := s[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && ascii.IsWord(s[j]) {
			j++
		}
		if !fn(s[i:j]) {
			return
		}
		i = j
	}
}

// pages returns the node that asks for the next page when a loop walks
// pages, or nil. A loop walks pages when a Set or Code node of the loop
// produces a page or cursor field (cursorRE) that an expression in a
// calling node of the loop reads, when a calling node sends its own
// $runIndex as the page (?page={{ $runIndex + 1 }}), when it sends a
// cursor read from another node of the loop (cursorFromLoop), or when its
// URL is the next-page link a response gave (nextLinkFromLoop). Each pass
// then asks for a different page, as HTTP pagination does
// (docs/n8n-behaviour.md#other-repeats), until the data runs out.
func (g *Graph) pages(l *Loop) *n8nschema.Node {
	for _, n := range l.Calls {
		if sendsRunIndexPage(n) {
			return n
		}
	}
	set := map[string]bool{}
	for _, n := range l.Nodes {
		switch {
		case n.Type == n8nschema.TypeSet:
			n.Params().Walk(func(rel string, v n8nschema.Value) {
				if strings.HasSuffix(rel, ".name") && cursorName(v.Str()) {
					set[strings.ToLower(v.Str())] = true
				}
			})
		case n8nschema.IsCode(n.Type):
			eachIdent(codeOf(n), func(id string) bool {
				if cursorName(id) {
					set[strings.ToLower(id)] = true
				}
				return true
			})
		}
	}
	// One step on: a Set field of the loop built from a cursor (url =
	// https://example.com{{ $json.page }}) carries it too.
	for _, n := range l.Nodes {
		if n.Type != n8nschema.TypeSet || len(set) == 0 {
			continue
		}
		n.Params().Walk(func(rel string, v n8nschema.Value) {
			base, ok := strings.CutSuffix(rel, "value")
			if !ok || !strings.Contains(v.Str(), "{{") {
				return
			}
			eachIdent(v.Str(), func(id string) bool {
				if set[strings.ToLower(id)] {
					if name := n.Params().Get(base + "name").Str(); name != "" {
						set[strings.ToLower(name)] = true
					}
					return false
				}
				return true
			})
		})
	}
	if n := g.cursorFromLoop(l); n != nil {
		return n
	}
	if n := nextLinkFromLoop(l); n != nil {
		return n
	}
	if len(set) == 0 {
		return nil
	}
	for _, n := range l.Calls {
		found := false
		n.Params().Scalars(func(v n8nschema.Value) bool {
			if found || v.Kind() != n8nschema.String || !strings.Contains(v.Str(), "{{") {
				return true
			}
			eachIdent(v.Str(), func(id string) bool {
				found = set[strings.ToLower(id)]
				return !found
			})
			return true
		})
		if found {
			return n
		}
	}
	return nil
}

// pageWordRE finds a page parameter in a URL or value: ?page=, &offset=.
var pageWordRE = lazyregexp.New(`(?i)\b(page|offset|start|skip|cursor)\b`)

// sendsRunIndexPage reports whether n sends its $runIndex as the page: in
// a value that names a page (?page={{ $runIndex + 1 }}), or as the value
// of a query or body parameter whose name is a page or cursor.
func sendsRunIndexPage(n *n8nschema.Node) bool {
	found := false
	p := n.Params()
	p.Walk(func(rel string, v n8nschema.Value) {
		if found || v.Kind() != n8nschema.String || !strings.Contains(v.Str(), "$runIndex") {
			return
		}
		if pageWordRE.MatchString(v.Str()) {
			found = true
		} else if base, ok := strings.CutSuffix(rel, "value"); ok && cursorName(p.Get(base+"name").Str()) {
			found = true
		}
	})
	return found
}

// compareRE matches a comparison in an expression.
var compareRE = lazyregexp.New(`[<>]=?|[!=]==?`)

// derivedGuard reports whether node u is an If, Switch or Filter that
// tests a field which a Set node of its cycle computes as a comparison of
// $runIndex or a counter (should_stop = {{ $runIndex >= depth }}): the
// guard is one step removed, but it bounds the loop all the same.
func (g *Graph) derivedGuard(u int) bool {
	n := g.Nodes[u]
	if !n8nschema.IsBranch(n.Type) {
		return false
	}
	read := map[string]bool{}
	n.Params().Scalars(func(v n8nschema.Value) bool {
		if v.Kind() == n8nschema.String && strings.Contains(v.Str(), "{{") {
			for _, m := range propRE.FindAllStringSubmatch(v.Str(), -1) {
				read[m[1]] = true
			}
		}
		return true
	})
	if len(read) == 0 {
		return false
	}
	derived := g.cycleFacts(g.comp[u]).derived
	for f := range read {
		if derived[f] {
			return true
		}
	}
	return false
}

// nodeRefRE finds the nodes an expression reads by name: $('Get ID') or
// $node["Get ID"].
var nodeRefRE = lazyregexp.New(`\$\(\s*['"]([^'"]+)['"]\s*\)|\$node\[\s*["']([^"']+)["']\s*\]`)

// nodeRefs calls fn with each node x reads by name (nodeRefRE) and the
// place in x just past that read.
func nodeRefs(x string, fn func(name string, end int)) {
	for _, m := range nodeRefRE.FindAllStringSubmatchIndex(x, -1) {
		if m[2] >= 0 {
			fn(x[m[2]:m[3]], m[1])
		} else {
			fn(x[m[4]:m[5]], m[1])
		}
	}
}

// exprRest is what follows x[end:] up to the end of its {{ }}.
func exprRest(x string, end int) string {
	rest := x[end:]
	if e := strings.Index(rest, "}}"); e >= 0 {
		rest = rest[:e]
	}
	return rest
}

// cursorFromLoop returns a calling node of the loop that sends a page
// or cursor parameter (a parameter or query field named like one: after,
// page, offset) whose value reads another node of the loop by name: the
// cursor comes back round the loop (a last id saved and read again).
func (g *Graph) cursorFromLoop(l *Loop) *n8nschema.Node {
	in := map[string]bool{}
	for _, n := range l.Nodes {
		in[n.Name] = true
	}
	for _, n := range l.Calls {
		found := false
		p := n.Params()
		p.Walk(func(rel string, v n8nschema.Value) {
			if found || !strings.Contains(v.Str(), "{{") {
				return
			}
			key := rel[strings.LastIndexByte(rel, '.')+1:]
			if base, ok := strings.CutSuffix(rel, "value"); ok {
				key = p.Get(base + "name").Str()
			}
			if !cursorName(key) {
				return
			}
			for _, m := range nodeRefRE.FindAllStringSubmatch(v.Str(), -1) {
				if ref := m[1] + m[2]; ref != n.Name && in[ref] {
					found = true
				}
			}
		})
		if found {
			return n
		}
	}
	return nil
}

// nextLinkRE matches an expression that is a whole URL read from a
// response's next-page link, at the end of the path: paging.next
// (Facebook's Graph API), paging.next.link (HubSpot), @odata.nextLink
// (Microsoft Graph), next_page_url, links.next.href.
var nextLinkRE = lazyregexp.New(`(?i)^=?\s*\{\{[^{}]*?(?:\.|\[\s*["'])(?:@odata\.)?next(?:_?page)?(?:_?(?:url|link|href|uri))?(?:["']\s*\])?(?:(?:\.|\[\s*["'])(?:link|href|url)(?:["']\s*\])?)?\s*\}\}\s*$`)

// nextLinkFromLoop returns a calling node of the loop whose URL is the
// next-page link a response gave, read from a node of the loop by name or
// from the item it receives ($json): each pass requests the page the last
// one pointed to, and the API leaves the link out on the last page, so the
// loop ends with the data.
func nextLinkFromLoop(l *Loop) *n8nschema.Node {
	for _, n := range l.Calls {
		u, ok := n.Param("url")
		if !ok || u.Kind() != n8nschema.String || !nextLinkRE.MatchString(u.Str()) {
			continue
		}
		x := u.Str()
		if strings.Contains(x, "$json") {
			return n
		}
		for _, m := range nodeRefRE.FindAllStringSubmatch(x, -1) {
			if ref := m[1] + m[2]; ref != n.Name && slices.ContainsFunc(l.Nodes, func(o *n8nschema.Node) bool { return o.Name == ref }) {
				return n
			}
		}
	}
	return nil
}

// DoneBackDoubles reports a DoneBack loop whose items double on each
// pass: a Loop Over Items (v3) with no reset returns on done every item
// it has processed plus the ones it is given again (processedItems =
// processed + input, nodes-base SplitInBatches/v3/SplitInBatchesV3.node.js
// execute), and every other node of the cycle hands each item on at once
// (a No Op, an Edit Fields), so the done output grows N, 2N, 4N… until
// n8n runs out of memory. A crash of the main process, where a manual run
// executes, stops every execution it runs.
func DoneBackDoubles(l *Loop) bool {
	n := l.DoneBack
	if n == nil || n.TypeVersion < 3 {
		return false
	}
	if r := n.Params().Get("options.reset"); r.True() || r.IsExpr() {
		return false // each pass starts over with what it is given
	}
	for _, m := range l.Nodes {
		switch {
		case m == n, m.Type == n8nschema.TypeNoOp:
		case m.Type == n8nschema.TypeSet && !m.ExecuteOnce:
		default:
			// A Wait spaces the passes (a long one parks the run in the
			// database), a Set that runs once hands on one item: the
			// run goes round for ever, but not within seconds.
			return false
		}
	}
	return true
}
