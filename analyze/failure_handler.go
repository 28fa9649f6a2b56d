package analyze

import (
	"regexp"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A workflow's own failure handling: the nodes that run for an item its
// work failed on. n8n sends such an item down an error output
// (onError continueErrorOutput, n8n-core workflow-execute.js
// handleNodeErrorOutput), or hands it on the regular output as
// {error: …} (continueRegularOutput); a Code node that catches the
// failure itself sets a flag on the item (success: false, parse_ok: false)
// and an If or Switch after it sends the item down the branch the workflow
// chose for failures. An alert or a log row there is the only record of
// that item's failure: the execution succeeds, so n8n shows nothing.

// HandlesFailure reports whether n runs only for items the workflow's work
// failed on: it is reached only through an error output (OnErrorPath), or
// each of its main inputs comes, within failureHops nodes, from such a
// path or from the output that a failed item takes of an If or Switch
// testing what the failure left on it (FailedItemOutput).
func (g *Graph) HandlesFailure(n *n8nschema.Node) bool {
	if g.OnErrorPath(n) {
		return true
	}
	i, ok := g.index(n)
	if !ok {
		return false
	}
	g.failureOnce.Do(g.failureFeds)
	return g.failureFed[i]
}

// failureHops bounds how far back HandlesFailure looks for the branch a
// failed item takes.
const failureHops = 3

// failureFeds decides for every node, once per graph, whether every
// enabled main input carries only failed items: an error output, a node
// on the error path, the failure output of a condition
// (FailedItemOutput), or a node fed only so, up to failureHops nodes
// back. One pass a depth, from the farthest: linear in the edges.
func (g *Graph) failureFeds() {
	out := make([]int, len(g.Nodes)) // FailedItemOutput, -1 for none
	for i, m := range g.Nodes {
		out[i] = -1
		if k, ok := g.FailedItemOutput(m); ok {
			out[i] = k
		}
	}
	deeper := make([]bool, len(g.Nodes)) // failureFed at depth d+1
	fed := make([]bool, len(g.Nodes))
	for d := failureHops; d >= 0; d-- {
		for i, n := range g.Nodes {
			fed[i] = false
			any := false
			for _, e := range g.InOfType(n, ConnMain) {
				if e.From.Disabled {
					continue
				}
				any = true
				j, _ := g.index(e.From)
				if e.Error || g.OnErrorPath(e.From) || out[j] == e.Output || deeper[j] {
					continue
				}
				any = false
				break
			}
			fed[i] = any
		}
		deeper, fed = fed, deeper
	}
	g.failureFed = deeper
}

// FailedItemOutput returns the output of an If (v2 conditions) or Switch
// (v3 rules) that an item the work before it failed on takes, when the
// condition decides it: it tests a flag a Code node at most failureHops
// nodes before it sets in a catch block (FailureFlags), or the error field
// of the item of a node before it that continues on failure to its regular
// output ({error: …}). Each condition is read as n8n's filter does
// (n8n-workflow node-parameters/filter-parameter.js): a boolean's "is
// true" fails for false, "exists" passes for any value.
func (g *Graph) FailedItemOutput(m *n8nschema.Node) (int, bool) {
	if m.Disabled || !(m.Type == n8nschema.TypeIf && m.TypeVersion >= 2 || m.Type == n8nschema.TypeSwitch && m.TypeVersion >= 3) {
		return 0, false
	}
	flags := g.failureFlagsBefore(m)
	if len(flags) == 0 {
		return 0, false
	}
	p := m.Params()
	if m.Type == n8nschema.TypeIf {
		r := conditionsTake(p.Get("conditions"), flags)
		switch r {
		case condPass:
			return 0, true
		case condFail:
			return 1, true
		}
		return 0, false
	}
	rules := p.Get("rules.values").Elems()
	for i, r := range rules {
		switch conditionsTake(r.Get("conditions"), flags) {
		case condPass:
			return i, true
		case condFail:
			continue
		}
		return 0, false // a rule it may or may not match decides nothing
	}
	switch fb := p.Get("options.fallbackOutput"); {
	case fb.Kind() == n8nschema.String && fb.Str() == "extra":
		return len(rules), true
	case fb.Kind() == n8nschema.Number:
		k, _ := fb.Num()
		return int(k), true
	}
	return 0, false // dropped: it matches no rule and there is no fallback
}

// failureFlagsBefore returns the fields a failed item carries into m, with
// the kind of value each holds (flagFalse, flagTrue, flagText): the flags
// of the catch blocks of the Code nodes at most failureHops nodes before
// m, and error when a node there continues on failure to its regular
// output.
func (g *Graph) failureFlagsBefore(m *n8nschema.Node) map[string]string {
	var flags map[string]string
	add := func(k, v string) {
		if flags == nil {
			flags = map[string]string{}
		}
		if _, ok := flags[k]; !ok {
			flags[k] = v
		}
	}
	seen := map[*n8nschema.Node]bool{m: true}
	next := []*n8nschema.Node{m}
	for d := 0; d < failureHops && len(next) > 0; d++ {
		var more []*n8nschema.Node
		for _, u := range next {
			for _, e := range g.InOfType(u, ConnMain) {
				c := e.From
				if seen[c] || e.Error || c.Disabled {
					continue
				}
				seen[c] = true
				more = append(more, c)
				if errorsOnMain(c) {
					add("error", flagText)
				}
				if n8nschema.IsCode(c.Type) {
					for k, v := range FailureFlags(codeOf(c)) {
						add(k, v)
					}
				}
			}
		}
		next = more
	}
	return flags
}

// The kinds of value a failure flag holds.
const (
	flagFalse = "false"
	flagTrue  = "true"
	flagText  = "text"
)

// catchValueRE matches a flag a catch block sets, and the value: a
// boolean literal or the error's message (CatchFlags' pattern, with the
// value kept).
var catchValueRE = lazyregexp.New(`["']?(\w+)["']?\s*[:=]\s*(false|true|\w+\.message|String\(\w+\)|\w+\.toString\(\))`)

// FailureFlags returns the fields the catch blocks of code set (CatchFlags)
// with the kind of value each holds, and the keys of an object the code
// returns bound to such a variable (parse_ok: parseOk after
// catch (err) { parseOk = false }).
func FailureFlags(code string) map[string]string {
	var out map[string]string
	var names []string // in the order found: the first value read wins
	for at := catchBlock(code, 0); at >= 0; at = catchBlock(code, at) {
		body := code[at:min(len(code), at+400)]
		if end := strings.Index(body, "}"); end >= 0 {
			body = body[:end]
		}
		for _, m := range catchValueRE.FindAllStringSubmatch(body, -1) {
			if out == nil {
				out = map[string]string{}
			}
			if _, ok := out[m[1]]; !ok {
				names = append(names, m[1])
			}
			switch m[2] {
			case "false":
				out[m[1]] = flagFalse
			case "true":
				out[m[1]] = flagTrue
			default:
				out[m[1]] = flagText
			}
		}
	}
	for _, name := range names {
		if !strings.Contains(code, name) {
			continue
		}
		v := out[name]
		re := regexp.MustCompile(`["']?(\w+)["']?\s*:\s*` + regexp.QuoteMeta(name) + `\b\s*[,}\n]`)
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			if _, ok := out[m[1]]; !ok {
				out[m[1]] = v
			}
		}
	}
	return out
}

// How a condition (or a list of them) treats the failed item.
const (
	condOther = iota // it reads none of the failure's fields
	condPass
	condFail
	condUnknown
)

// conditionsTake returns whether a filter value (v2: combinator and
// conditions) passes the failed item whose fields are flags.
func conditionsTake(f n8nschema.Value, flags map[string]string) int {
	or := f.Get("combinator").Str() == "or"
	if c := f.Get("combinator"); c.Exists() && (c.Kind() != n8nschema.String || c.IsExpr()) {
		return condUnknown
	}
	conds := f.Get("conditions").Elems()
	pass, fail, reads := 0, 0, 0
	for _, c := range conds {
		switch conditionTakes(c, flags) {
		case condPass:
			pass++
			reads++
		case condFail:
			fail++
			reads++
		case condUnknown:
			reads++
		}
	}
	switch {
	case reads == 0:
		return condOther
	case !or && fail > 0, or && fail == len(conds):
		return condFail
	case or && pass > 0, !or && pass == len(conds):
		return condPass
	}
	return condUnknown
}

// conditionTakes returns whether one v2 condition passes the failed item:
// condOther when it does not read one of its flags.
func conditionTakes(c n8nschema.Value, flags map[string]string) int {
	key, ok := readKey(c)
	if !ok {
		return condOther
	}
	v, ok := flags[key]
	if !ok {
		return condOther
	}
	op := c.Get("operator.operation")
	if op.Kind() != n8nschema.String {
		return condUnknown
	}
	is := func(b bool) int {
		if b {
			return condPass
		}
		return condFail
	}
	switch op.Str() {
	case "exists":
		return condPass
	case "notExists":
		return condFail
	case "true":
		if v == flagText {
			return condUnknown
		}
		return is(v == flagTrue)
	case "false":
		if v == flagText {
			return condUnknown
		}
		return is(v == flagFalse)
	case "notEmpty":
		// A boolean is not empty when it exists (filter-parameter.js,
		// case 'boolean'); a message, when it is not "".
		if v == flagText || c.Get("operator.type").Str() == "boolean" {
			return condPass
		}
	case "empty":
		if v == flagText || c.Get("operator.type").Str() == "boolean" {
			return condFail
		}
	case "equals", "notEquals":
		if v == flagText {
			return condUnknown
		}
		r := c.Get("rightValue")
		var want string
		switch {
		case r.Kind() == n8nschema.Bool && r.True():
			want = flagTrue
		case r.Kind() == n8nschema.Bool:
			want = flagFalse
		case r.Kind() == n8nschema.String && (r.Str() == "true" || r.Str() == "false"):
			want = r.Str()
		default:
			return condUnknown
		}
		return is((v == want) == (op.Str() == "equals"))
	}
	return condUnknown
}
