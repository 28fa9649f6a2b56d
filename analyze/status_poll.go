package analyze

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A status poll asks a job for its status and goes round again until the
// status says the job is over. Whether it ends depends on which statuses
// leave the loop: one that stays only on the statuses it names ("queued",
// "running") or that leaves on a failure as well as on success ends with
// the job, whatever the job does; one that leaves only on success
// ("completed") polls a failed job for ever.

// outcome is what a branch output lets through, in terms of literals that
// a condition compares data with: only those literals (any), every value
// but those (none), or something the analysis cannot read (other).
type outcome struct {
	kind int // outAny, outNone or outOther
	lits []string
}

const (
	outOther = iota
	outAny   // the output takes an item whose value is one of lits
	outNone  // the output takes an item whose value is none of lits
)

// endsWithJob reports whether a loop leaves on every terminal status of
// what it polls: a branch of the loop sends items back only on the
// statuses it names, the statuses that leave the loop include a failure
// (failed, error, cancelled, expired...) besides another one, or one of
// them ends a job whatever its outcome ("ended"). When it does not, and
// every way out of the loop's branches is a status of success
// (successStatus), it gives those statuses (only): a job that fails goes
// round for ever.
func endsWithJob(g *Graph, l *Loop) (ends bool, only []string) {
	in := make(map[*n8nschema.Node]bool, len(l.Nodes))
	for _, n := range l.Nodes {
		in[n] = true
		if n8nschema.Lookup(n.Type).Paid || len(g.SubNodes(n, "")) > 0 {
			// A model's verdict ("Finished", "pass") is no job's status:
			// a model may never give it.
			return false, nil
		}
	}
	var exits []string
	unread := false // a way out whose statuses are not read
	for _, n := range l.Nodes {
		if keepsPendingOnly(n) && leadsOnWithin(g, n, in) {
			return true, nil // only jobs at work go round
		}
		if n.Disabled || !n8nschema.IsBranch(n.Type) {
			continue
		}
		stays := map[int]bool{}
		for _, e := range g.OutOfType(n, ConnMain) {
			if in[e.To] && !e.Error {
				stays[e.Output] = true
			}
		}
		if len(stays) == 0 {
			continue
		}
		if low, ok := statusBelow(n); ok && stays[low] && len(stays) == 1 {
			return true, nil // round only while the status is below the end
		}
		outs := branchOutcomes(n)
		if len(outs) == 0 || testsDone(outs) && !googleOperation(g, n, in) {
			unread = true
			continue
		}
		stayOnly := true
		for o, oc := range outs {
			switch {
			case stays[o] && oc.kind == outAny && !slices.ContainsFunc(oc.lits, notPending):
			case stays[o]:
				stayOnly = false
			case oc.kind == outAny:
				exits = append(exits, oc.lits...)
			default:
				unread = true
			}
		}
		for o := range stays {
			if o >= len(outs) {
				stayOnly = false // an output the conditions do not describe
			}
		}
		if stayOnly {
			return true, nil
		}
	}
	failure, other, success := false, false, true
	for _, s := range exits {
		success = success && successStatus(s)
		switch {
		case neutralEnd(s) || apiEnd(l, s) || s == operationDone:
			return true, nil // every terminal status, failed or not
		case numeric(s):
			unread = true
		case failureStatus(s):
			failure = true
		default:
			other = true
		}
	}
	if failure && other {
		return true, nil
	}
	if other && success && !unread {
		return false, slices.Compact(slices.Sorted(slices.Values(exits)))
	}
	return false, nil
}

// operationDone stands for a test of a long-running operation's done
// flag: among the literals a status is compared with, it is no literal a
// condition can hold.
const operationDone = "\x00done"

// doneFieldRE is an item's done flag read whole: {{ $json.done }}.
var doneFieldRE = regexp.MustCompile(`^=?\{\{\s*\$json(?:\.done|\[\s*['"]done['"]\s*\])\s*\}\}$`)

// doneOutcome reads a condition that tests an item's done flag true or
// false: the true output takes the operations that are over (outAny
// operationDone) or those still at work (outNone).
func doneOutcome(left string, right n8nschema.Value, opType, op string) (outcome, bool) {
	if !doneFieldRE.MatchString(strings.TrimSpace(left)) {
		return outcome{}, false
	}
	over, ok := pendingTruth(false, right, opType, op)
	if !ok {
		return outcome{}, false
	}
	if over {
		return outcome{outAny, []string{operationDone}}, true
	}
	return outcome{outNone, []string{operationDone}}, true
}

func testsDone(outs []outcome) bool {
	return slices.ContainsFunc(outs, func(o outcome) bool { return slices.Contains(o.lits, operationDone) })
}

// googleOperation reports whether the items branch n tests come straight
// from a Google API's answer (an HTTP Request of the loop, in, to
// *.googleapis.com: the Gemini API, Vertex AI, Google Cloud), whose
// long-running operation (google.longrunning.Operation) has done true once
// it is over, failed or not: the error or the response says which
// (docs/n8n-facts.md, part ET). A done a Code node sets means what its
// code says.
func googleOperation(g *Graph, n *n8nschema.Node, in map[*n8nschema.Node]bool) bool {
	fed := false
	for _, e := range g.InOfType(n, ConnMain) {
		if !in[e.From] {
			continue
		}
		u := strings.ToLower(strings.TrimPrefix(e.From.Params().Get("url").Str(), "="))
		if e.Error || e.From.Disabled || !n8nschema.IsHTTPRequest(e.From.Type) || !strings.HasSuffix(hostOf(u), ".googleapis.com") {
			return false
		}
		fed = true
	}
	return fed
}

// neutralEnd reports whether a status names the end of a job whatever
// its outcome: Anthropic's message batches and Vapi's calls end as
// "ended", failed or not, and the outcome is another field.
func neutralEnd(s string) bool {
	switch strings.ToLower(s) {
	case "ended", "finished", "terminated":
		return true
	}
	return false
}

// endStatuses are the statuses job APIs report when a job is over,
// however it ended, by the host polled: fal.ai's queue knows only
// IN_QUEUE, IN_PROGRESS and COMPLETED, and a failed request is COMPLETED
// too (its error comes with the result).
var endStatuses = map[string]string{"queue.fal.run": "completed"}

// apiEnd reports whether status s is the status the API a node of loop l
// polls reports for every end of a job (endStatuses).
func apiEnd(l *Loop, s string) bool {
	for _, n := range l.Nodes {
		if !n8nschema.IsHTTPRequest(n.Type) || n.Disabled {
			continue
		}
		u := strings.ToLower(strings.TrimPrefix(n.Params().Get("url").Str(), "="))
		if end, ok := endStatuses[hostOf(u)]; ok && strings.EqualFold(s, end) {
			return true
		}
	}
	return false
}

// notPending reports whether a literal that sends an item round again is
// not a job still at work: a failure (going round retries the job), a
// number such as a 429 (going round retries a refused request), or an
// operation that is done.
func notPending(s string) bool { return failureStatus(s) || numeric(s) || s == operationDone }

func numeric(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// successStatus reports whether a status literal names a job that ended
// well (succeeded, completed, done, ready, finished): a literal of another
// kind ("false" of a has_more flag) is no job's status.
func successStatus(s string) bool {
	s = strings.ToLower(s)
	for _, w := range []string{"succe", "complet", "done", "ready", "finish"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// failureStatus reports whether a status literal names a job that ended
// without success: the terminal failure states of job APIs.
func failureStatus(s string) bool {
	s = strings.ToLower(s)
	for _, w := range []string{"fail", "error", "cancel", "expire", "reject", "abort", "timeout", "timed_out", "denied", "stopped", "not_found", "missing", "invalid"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// branchOutcomes returns, by main output, what an If, Filter or Switch
// sends there, or nil when its conditions are not literal tests.
func branchOutcomes(n *n8nschema.Node) []outcome {
	p := n.Params()
	switch n.Type {
	case n8nschema.TypeIf, n8nschema.TypeFilter:
		var yes outcome
		if n.TypeVersion < 2 && n.Type == n8nschema.TypeIf {
			yes = v1Outcome(p)
		} else {
			yes = filterOutcome(p.Get("conditions"))
		}
		if yes.kind == outOther {
			return nil
		}
		// A Filter drops what fails: that leaves the loop too.
		return []outcome{yes, negate(yes)}
	case n8nschema.TypeSwitch:
		return switchOutcomes(n)
	}
	return nil
}

func negate(o outcome) outcome {
	switch o.kind {
	case outAny:
		return outcome{outNone, o.lits}
	case outNone:
		return outcome{outAny, o.lits}
	}
	return o
}

// filterOutcome reads a v2 filter (If v2+, Filter, Switch v3 rule):
// conditions that all test one value against literals, combined so that
// the result is a set of literals (equals … or equals …) or its complement
// (not equals … and not equals …).
func filterOutcome(f n8nschema.Value) outcome {
	or := f.Get("combinator").Str() == "or"
	var cs []n8nschema.Value
	for _, c := range f.Get("conditions").ElemsSeq() {
		pass, ok := eqPrefixTruth(c)
		switch {
		case !ok:
			cs = append(cs, c)
		case pass == or:
			// true in an or, false in an and: it decides the test.
			if or {
				return outcome{outNone, nil}
			}
			return outcome{outAny, nil}
		}
		// Otherwise it drops out, as true does from an and.
	}
	if len(cs) == 0 {
		return outcome{}
	}
	if len(cs) == 1 {
		c := cs[0]
		left, right, typ, op := c.Get("leftValue").Str(), c.Get("rightValue"), c.Get("operator.type").Str(), c.Get("operator.operation").Str()
		if oc, ok := pendingOutcome(left, right, typ, op); ok {
			return oc
		}
		if oc, ok := doneOutcome(left, right, typ, op); ok {
			return oc
		}
	}
	var conds []literalTest
	for _, c := range cs {
		conds = append(conds, literalTest{c.Get("leftValue").Str(), c.Get("rightValue").Str(), c.Get("operator.operation").Str()})
	}
	return combine(conds, or)
}

// v1Outcome reads If v1's conditions (conditions.string and .number,
// combineOperation all or any; nodes-base/nodes/If/V1), each missing
// operation at its type's default (v1Operation: a number's is smaller).
func v1Outcome(p n8nschema.Value) outcome {
	var all []n8nschema.Value
	typ := ""
	for _, k := range []string{"string", "number", "boolean"} {
		if cs := p.Get("conditions." + k).Elems(); len(cs) > 0 {
			all, typ = append(all, cs...), k
		}
	}
	if len(all) == 1 {
		c := all[0]
		op := v1Operation(typ, c.Get("operation").Str())
		if oc, ok := pendingOutcome(c.Get("value1").Str(), c.Get("value2"), "", op); ok {
			return oc
		}
	}
	var conds []literalTest
	for _, k := range []string{"conditions.string", "conditions.number"} {
		for _, c := range p.Get(k).ElemsSeq() {
			op := v1Operation(strings.TrimPrefix(k, "conditions."), c.Get("operation").Str())
			conds = append(conds, literalTest{c.Get("value1").Str(), c.Get("value2").Str(), op})
		}
	}
	if len(conds) == 0 {
		return outcome{}
	}
	return combine(conds, p.Get("combineOperation").Str() == "any")
}

// switchOutcomes reads a Switch in rules mode: v3 (rules.values, each a
// filter, output by position; options.fallbackOutput) and v1/v2 (value1
// compared with each rule's value2, rules.rules[].output; fallbackOutput).
// disjointRules reports rules that each let through only literals no
// other rule names: a status equals SUCCESS, ERROR, PENDING. A status
// matches one of them at most, so a Switch that sends an item down every
// rule it matches (options.allMatchingOutputs) routes it as one that
// takes the first.
func disjointRules(rules []outcome) bool {
	seen := map[string]bool{}
	for _, r := range rules {
		if r.kind != outAny || len(r.lits) == 0 {
			return false
		}
		for _, l := range r.lits {
			if seen[l] {
				return false
			}
		}
		for _, l := range r.lits {
			seen[l] = true
		}
	}
	return true
}

func switchOutcomes(n *n8nschema.Node) []outcome {
	t, ok := switchRules(n, filterOutcome, func(left, right, op string) outcome {
		return combine([]literalTest{{left, right, op}}, false)
	})
	if !ok || t.allMatch && !disjointRules(t.rules) {
		return nil
	}
	rules, at, fallback, size := t.rules, t.at, t.fallback, t.outputs
	outs := make([]outcome, size)
	set := make([]bool, size)
	var all []string
	for i, r := range rules {
		if r.kind != outAny {
			return nil
		}
		all = append(all, r.lits...)
		o := at[i]
		if set[o] {
			outs[o].lits = append(outs[o].lits, r.lits...)
		} else {
			outs[o], set[o] = r, true
		}
	}
	if fallback >= 0 {
		if set[fallback] {
			outs[fallback] = outcome{}
		} else {
			outs[fallback], set[fallback] = outcome{outNone, all}, true
		}
	}
	for i := range outs {
		if !set[i] {
			outs[i] = outcome{outAny, nil} // nothing goes there
		}
	}
	return outs
}

// literalTest is one condition: a value compared with another by op.
type literalTest struct{ left, right, op string }

// combine turns conditions into an outcome when each compares an
// expression with a literal: positive tests joined by or (or one alone)
// take those literals, negative tests joined by and (or one alone) take
// everything else.
func combine(conds []literalTest, or bool) outcome {
	pos, neg := 0, 0
	var lits []string
	for _, c := range conds {
		lit, ok := literalOf(c.left, c.right)
		if !ok {
			return outcome{}
		}
		switch c.op {
		case "equals", "equal", "contains", "startsWith", "endsWith":
			pos++
		case "notEquals", "notEqual", "notContains", "notStartsWith", "notEndsWith":
			neg++
		default:
			return outcome{}
		}
		lits = append(lits, lit)
	}
	switch {
	case pos > 0 && neg == 0 && (or || pos == 1):
		return outcome{outAny, lits}
	case neg > 0 && pos == 0 && (!or || neg == 1):
		return outcome{outNone, lits}
	}
	return outcome{}
}

// literalOf returns the literal side of a comparison whose other side is
// an expression: ={{ $json.status }} against "completed".
func literalOf(a, b string) (string, bool) {
	isExpr := func(s string) bool { return strings.Contains(s, "{{") }
	if isExpr(b) {
		a, b = b, a
	}
	b = strings.TrimSpace(strings.TrimPrefix(b, "="))
	if !isExpr(a) || isExpr(b) || b == "" {
		return "", false
	}
	return b, true
}

// statusRE finds a status field in an expression ($json.status,
// $json.job_state, jobStatus), not an HTTP statusCode.
var statusRE = regexp.MustCompile(`(?i)(status|state)\b`)

// statusBelow reads an If or Filter whose one condition compares a status
// field with a number (Number($json.status) >= 3, or {{ $json.error ? 4 :
// $json.status }} >= 3, which maps an error into the range) and returns
// the output that takes the statuses below the threshold. Job APIs number
// their statuses in the order a job goes through them, pending ones
// first, so a loop that goes round only below the threshold leaves on
// every status from it up, failures as well as success.
func statusBelow(n *n8nschema.Node) (int, bool) {
	p := n.Params()
	var left, op string
	var right n8nschema.Value
	switch {
	case n.Type == n8nschema.TypeIf && n.TypeVersion < 2:
		cs := p.Get("conditions.number").Elems()
		if len(cs) != 1 || p.Get("conditions.string").Len() > 0 || p.Get("conditions.boolean").Len() > 0 {
			return 0, false
		}
		left, op, right = cs[0].Get("value1").Str(), cs[0].Get("operation").Str(), cs[0].Get("value2")
	case n.Type == n8nschema.TypeIf || n.Type == n8nschema.TypeFilter:
		cs := p.Get("conditions.conditions").Elems()
		if len(cs) != 1 {
			return 0, false
		}
		left, op, right = cs[0].Get("leftValue").Str(), cs[0].Get("operator.operation").Str(), cs[0].Get("rightValue")
	default:
		return 0, false
	}
	if !strings.Contains(left, "{{") || !statusRE.MatchString(left) || right.IsExpr() {
		return 0, false
	}
	if countShapeRE.MatchString(left) || strings.ContainsAny(left, `'"`) {
		return 0, false // a count of items or a test of a literal, not a status number
	}
	if _, ok := right.Num(); !ok {
		return 0, false
	}
	switch op {
	case "gt", "gte", "larger", "largerEqual":
		return 1, true // true above, false below
	case "lt", "lte", "smaller", "smallerEqual":
		return 0, true
	}
	return 0, false
}

// leadsOnWithin reports whether a main output of n leads to a node of the
// loop (in).
func leadsOnWithin(g *Graph, n *n8nschema.Node, in map[*n8nschema.Node]bool) bool {
	for _, e := range g.OutOfType(n, ConnMain) {
		if in[e.To] && !e.Error {
			return true
		}
	}
	return false
}
