package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A poll may name the statuses it goes round on inside one expression
// rather than in a condition per status: an If on
// {{ $input.all().filter(i => i.json.status === "IN_PROGRESS" ||
// i.json.status === "IN_QUEUE").length }} equal to 0, a Code node that
// returns only the items still queued. Such a guard sends items round
// only while the job is at work and lets every other status out,
// failures included, as a condition per pending status does
// (status_poll.go). A test that names a status the job ends in
// ("completed", "success") is left alone: whether it leaves on a failure
// depends on the statuses it does not name.

// pendingStatus reports whether a status literal names a job still at
// work: queued, pending, processing, running, in progress.
func pendingStatus(s string) bool {
	s = strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(s))
	switch s {
	case "queued", "inqueue", "enqueued", "pending", "processing", "inprogress", "running", "starting",
		"started", "submitted", "waiting", "scheduled", "created", "generating", "notstarted", "working", "busy":
		return true
	}
	return false
}

var (
	// A status field compared with a quoted literal: item.json.status ===
	// "IN_QUEUE", $json.state.toLowerCase() == 'running',
	// item.json['status'] == "queued" (JavaScript and Python).
	statusEqRE = lazyregexp.New(`(?i)(?:status|state)\w*['"]?\]?(?:\s*\.\s*(?:to(?:lower|upper)case|lower|upper)\(\))?\s*(?:===|==)\s*(['"])([\w -]{1,40})['"]`)
	// A list of quoted literals asked whether it holds a status:
	// ["queued", "running"].includes($json.status), or Python's
	// status in ("queued", "running").
	statusInRE = lazyregexp.New(`(?i)\[\s*((?:['"][\w -]{1,40}['"]\s*,?\s*)+)\]\s*\.includes\(\s*[^()]*?(?:status|state)\w*['"]?\]?\s*\)|(?:status|state)\w*['"]?\]?\)?\s+in\s*[\[(]\s*((?:['"][\w -]{1,40}['"]\s*,?\s*)+)[\])]`)
	quotedRE   = lazyregexp.New(`['"]([\w -]{1,40})['"]`)
	// Anything that turns or narrows a test: a negation, a conjunction, a
	// test that every item passes.
	notPendingShapeRE = lazyregexp.New(`!==|!=|![\s(\w$]|&&|\band\b|\bnot\b|\.every\(|(?:^|[^.\w])all\(`)
	equalsOpRE        = lazyregexp.New(`===|==`)
)

// pendingTest reads an expression or code that tests a status against
// pending literals only, joined by "or" and compared by equality: it
// returns those literals, or nil when the text tests anything else or
// tests in a way that is not read.
func pendingTest(s string) []string {
	if notPendingShapeRE.MatchString(s) {
		return nil
	}
	var lits []string
	eqs := 0
	for _, m := range statusEqRE.FindAllStringSubmatch(s, -1) {
		lits = append(lits, m[2])
		eqs++
	}
	if eqs != len(equalsOpRE.FindAllStringIndex(s, -1)) {
		return nil // an equality on something else
	}
	for _, m := range statusInRE.FindAllStringSubmatch(s, -1) {
		list := m[1] + m[2]
		for _, q := range quotedRE.FindAllStringSubmatch(list, -1) {
			lits = append(lits, q[1])
		}
	}
	if len(lits) == 0 {
		return nil
	}
	for _, l := range lits {
		if !pendingStatus(l) {
			return nil
		}
	}
	return lits
}

// countShapeRE finds a count of the items that pass a test:
// .filter(…).length, Python's len([… if …]).
var countShapeRE = lazyregexp.New(`\.filter\([\s\S]*\)\s*\.length|\blen\(\s*\[[\s\S]*\bif\b[\s\S]*\]\s*\)`)

// someShapeRE finds a test that any item passes: .some(…), any(…).
var someShapeRE = lazyregexp.New(`\.some\(|(?:^|[^.\w])any\(`)

// pendingOutcome reads one If or Filter condition whose left side is an
// expression that asks whether an item (or any item of the input) is at
// a pending status, or counts such items, and returns what the condition's
// true output takes: the pending statuses (outAny) or every other one
// (outNone). ok is false for anything else.
func pendingOutcome(left string, right n8nschema.Value, opType, op string) (outcome, bool) {
	if !strings.Contains(left, "{{") {
		return outcome{}, false
	}
	lits := pendingTest(left)
	if lits == nil {
		return outcome{}, false
	}
	some, ok := pendingTruth(countShapeRE.MatchString(left), right, opType, op)
	if !ok {
		return outcome{}, false
	}
	if some {
		return outcome{outAny, lits}, true
	}
	return outcome{outNone, lits}, true
}

// pendingTruth says whether a condition is true when something is
// pending: a count compared with zero (= 0, < 1, <= 0 are true when none
// is; > 0, >= 1, != 0 when some is), or a boolean tested true or false.
func pendingTruth(count bool, right n8nschema.Value, opType, op string) (some, ok bool) {
	if count {
		n, isNum := right.Num()
		if !isNum {
			return false, false
		}
		switch {
		case (op == "equals" || op == "equal") && n == 0, (op == "lt" || op == "smaller") && n == 1, (op == "lte" || op == "smallerEqual") && n == 0:
			return false, true
		case (op == "gt" || op == "larger") && n == 0, (op == "gte" || op == "largerEqual") && n == 1, (op == "notEquals" || op == "notEqual") && n == 0:
			return true, true
		}
		return false, false
	}
	switch op {
	case "true":
		return true, opType == "boolean"
	case "false":
		return false, opType == "boolean"
	case "equals", "equal", "notEquals", "notEqual":
		var want bool
		switch strings.ToLower(strings.TrimSpace(right.Str())) {
		case "true":
			want = true
		case "false":
		default:
			return false, false
		}
		if op == "notEquals" || op == "notEqual" {
			want = !want
		}
		return want, true
	}
	return false, false
}

// keepsPendingOnly reports a Code node whose own return hands on only the
// items at a pending status (return $input.all().filter(i =>
// ["queued", "running"].includes(i.json.status)), or Python's return
// [i for i in _input.all() if i.json.status in ("queued", "running")]):
// past it the loop carries only jobs at work and empties when each ends.
func keepsPendingOnly(n *n8nschema.Node) bool {
	if !n8nschema.IsCode(n.Type) || n.Disabled {
		return false
	}
	code := codeOf(n)
	at := n8nschema.TopLevelReturns(code)
	if len(at) != 1 {
		return false
	}
	ret := code[at[0]:]
	if end := strings.Index(ret, ";\n"); end >= 0 {
		ret = ret[:end]
	}
	if !strings.Contains(ret, ".filter(") && !(strings.Contains(ret, " for ") && strings.Contains(ret, " if ")) {
		return false
	}
	if someShapeRE.MatchString(ret) || countShapeRE.MatchString(ret) {
		return false
	}
	return pendingTest(ret) != nil
}
