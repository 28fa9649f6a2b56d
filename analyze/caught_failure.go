package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A workflow can report its failures in-band: a Code node does the work in
// try/catch and, in the catch, emits the item with a flag set (success:
// false, and the error); an If or Switch on that flag sends the failed
// item to an alert. n8n sees no error, since the code caught it, but the
// owner is told.

// ReportsCaughtFailures returns the first Code node of g whose catch sets a
// flag (CatchFlags) that an If or Switch at most three hops after it tests,
// where some output of that condition reaches an alert or a log row
// (BestEffort) within three hops; nil when there is none.
func ReportsCaughtFailures(g *Graph) *n8nschema.Node {
	for _, c := range g.Nodes {
		if c.Disabled || !n8nschema.IsCode(c.Type) {
			continue
		}
		if caughtAndAlerted(g, c) {
			return c
		}
	}
	return nil
}

// caughtAndAlerted is ReportsCaughtFailures' test of one Code node c. The
// code is read for its flags only once an If or Switch is found after it:
// most Code nodes have none, and the catch pattern runs over all the code.
func caughtAndAlerted(g *Graph, c *n8nschema.Node) bool {
	var flags []string
	read := false
	seen := map[*n8nschema.Node]bool{c: true}
	next := []*n8nschema.Node{c}
	for d := 0; d < 3 && len(next) > 0; d++ {
		var more []*n8nschema.Node
		for _, u := range next {
			for _, e := range g.OutOfType(u, ConnMain) {
				m := e.To
				if seen[m] || e.Error || m.Disabled {
					continue
				}
				seen[m] = true
				more = append(more, m)
				if m.Type != n8nschema.TypeIf && m.Type != n8nschema.TypeSwitch {
					continue
				}
				if !read {
					flags, read = CatchFlags(codeOf(c)), true
					if len(flags) == 0 {
						return false
					}
				}
				if testsField(m, flags) && alertsWithin(g, m, 3) {
					return true
				}
			}
		}
		next = more
	}
	return false
}

// CatchFlags returns the fields a catch block of code sets to a literal
// boolean or fills with the error (success: false, ok = false, error:
// e.message): what the item that failed carries on.
func CatchFlags(code string) []string {
	var out []string
	for at := catchBlock(code, 0); at >= 0; at = catchBlock(code, at) {
		body := code[at:min(len(code), at+400)]
		if end := strings.Index(body, "}"); end >= 0 {
			body = body[:end]
		}
		for _, m := range catchFlagRE.FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

var catchFlagRE = lazyregexp.New(`["']?(\w+)["']?\s*[:=]\s*(?:false|true|\w+\.message|String\(\w+\)|\w+\.toString\(\))`)

// catchBlock returns where the body of the next catch block of code at or
// after from starts (past its "{"), or -1: the end of the next match of
// `\bcatch\s*(\(\s*\w*\s*\))?\s*\{` (TestCatchBlockAsPattern). A byte
// search for "catch", not the pattern, which Go runs over all the code.
func catchBlock(code string, from int) int {
	for {
		i := strings.Index(code[from:], "catch")
		if i < 0 {
			return -1
		}
		i += from
		from = i + len("catch")
		if i > 0 && ascii.IsWord(code[i-1]) {
			continue
		}
		j := skipSpace(code, from)
		if j < len(code) && code[j] == '(' {
			j = skipSpace(code, j+1)
			for j < len(code) && ascii.IsWord(code[j]) {
				j++
			}
			j = skipSpace(code, j)
			if j >= len(code) || code[j] != ')' {
				continue
			}
			j = skipSpace(code, j+1)
		}
		if j < len(code) && code[j] == '{' {
			return j + 1
		}
	}
}

// skipSpace returns the index of the first byte of s at or after i that
// \s does not match (space, \t, \n, \f, \r).
func skipSpace(s string, i int) int {
	for i < len(s) && ascii.IsSpace(s[i]) {
		i++
	}
	return i
}

// testsField reports whether a condition node reads one of the fields of
// the item: $json.success, $json["success"].
func testsField(m *n8nschema.Node, fields []string) bool {
	raw := m.Params().Raw()
	for _, f := range fields {
		if strings.Contains(raw, "json."+f) || strings.Contains(raw, `json[\"`+f) || strings.Contains(raw, "json['"+f) {
			return true
		}
	}
	return false
}

// alertsWithin reports whether an output of n reaches a best-effort write
// (an alert, a log row) within depth hops.
func alertsWithin(g *Graph, n *n8nschema.Node, depth int) bool {
	if depth == 0 {
		return false
	}
	for _, e := range g.OutOfType(n, ConnMain) {
		m := e.To
		if m.Disabled {
			continue
		}
		if w, _ := n8nschema.WriteOp(m); w && BestEffort(m) || alertsWithin(g, m, depth-1) {
			return true
		}
	}
	return false
}
