package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A loop that waits for a stored time to grow old ends with the clock: a
// debounce that goes round until the last message is 15 s old, a poll
// that gives up once it started 10 minutes ago. The clock ($now, $today,
// Date.now()) keeps advancing while the stored time stays, so a test that
// holds only while the stored time is recent (stored after $now minus an
// age, Date.now() − stored < age) turns false for good after that age,
// whatever the data does. Such a loop is bounded when every output of one
// of its conditions that stays in the loop is taken only while such a test
// holds; a loop that stays while the time is old goes round for ever.

// age is what a test on a stored time does as the clock advances: it
// holds only while the time is recent (ageRecent: it turns false for
// good), it holds once the time is old (ageOld: it turns true for good),
// or the analysis cannot say (ageOther).
type age int

const (
	ageOther age = iota
	ageRecent
	ageOld
)

func (a age) not() age {
	switch a {
	case ageRecent:
		return ageOld
	case ageOld:
		return ageRecent
	}
	return ageOther
}

// allOf combines tests joined by and: recent when one of them is (the
// whole turns false with it), old when all are.
func allOf(as []age) age {
	old := len(as) > 0
	for _, a := range as {
		if a == ageRecent {
			return ageRecent
		}
		old = old && a == ageOld
	}
	if old {
		return ageOld
	}
	return ageOther
}

// anyOf combines tests joined by or.
func anyOf(as []age) age {
	ns := make([]age, len(as))
	for i, a := range as {
		ns[i] = a.not()
	}
	return allOf(ns).not()
}

// endsInTime reports whether a condition of loop l sends items round again
// only while a stored time is recent, and no other node of the loop reads
// the clock (a time the loop itself refreshes from the clock never grows
// old).
func endsInTime(g *Graph, l *Loop) bool {
	in := make(map[*n8nschema.Node]bool, len(l.Nodes))
	for _, n := range l.Nodes {
		in[n] = true
		if !n.Disabled && !n8nschema.IsBranch(n.Type) && readsClock(n) {
			return false
		}
	}
	for _, n := range l.Nodes {
		if n.Disabled || !n8nschema.IsBranch(n.Type) {
			continue
		}
		outs := branchAges(n)
		if outs == nil {
			continue
		}
		stays, fades := false, true
		for _, e := range g.OutOfType(n, ConnMain) {
			if !in[e.To] || e.Error {
				continue
			}
			stays = true
			fades = fades && e.Output < len(outs) && outs[e.Output] == ageRecent
		}
		if stays && fades {
			return true
		}
	}
	return false
}

// readsClockIn reports whether s reads the current time in an expression
// or code: $now, $today, Date.now(), DateTime.now(), new Date(),
// DateTime.local(). It is the pattern
// `\$now\b|\$today\b|\bDate\.now\(\)|\bDateTime\.now\(\)|\bnew Date\(\s*\)|\bDateTime\.local\(\s*\)`
// as byte searches (TestReadsClockInAsPattern): "new Date(" with an
// argument, common in code, sent the pattern over all the code.
func readsClockIn(s string) bool {
	wordEnd := func(end int) bool { return end == len(s) || !ascii.IsWord(s[end]) }
	wordStart := func(i int) bool { return i == 0 || !ascii.IsWord(s[i-1]) }
	emptyCall := func(i int) bool { // "(" at i-1, then \s* and ")"
		for i < len(s) && ascii.IsSpace(s[i]) {
			i++
		}
		return i < len(s) && s[i] == ')'
	}
	return occurs(s, "$now", func(i int) bool { return wordEnd(i + len("$now")) }) ||
		occurs(s, "$today", func(i int) bool { return wordEnd(i + len("$today")) }) ||
		occurs(s, "Date.now()", wordStart) ||
		occurs(s, "DateTime.now()", wordStart) ||
		occurs(s, "new Date(", func(i int) bool { return wordStart(i) && emptyCall(i+len("new Date(")) }) ||
		occurs(s, "DateTime.local(", func(i int) bool { return wordStart(i) && emptyCall(i+len("DateTime.local(")) })
}

// occurs reports whether lit occurs in s at an index where ok holds.
func occurs(s, lit string, ok func(i int) bool) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], lit)
		if i < 0 {
			return false
		}
		if ok(from + i) {
			return true
		}
		from += i + 1
	}
}

func readsClock(n *n8nschema.Node) bool {
	found := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		found = v.Kind() == n8nschema.String && readsClockIn(v.Str())
		return !found
	})
	return found
}

// branchAges returns, by main output, what the clock does to the test that
// sends items there, or nil when no condition of n reads the clock.
func branchAges(n *n8nschema.Node) []age {
	p := n.Params()
	if !readsClock(n) {
		return nil
	}
	switch n.Type {
	case n8nschema.TypeIf, n8nschema.TypeFilter:
		var yes age
		if n.TypeVersion < 2 && n.Type == n8nschema.TypeIf {
			yes = v1Age(p)
		} else {
			yes = filterAge(p.Get("conditions"))
		}
		return []age{yes, yes.not()}
	case n8nschema.TypeSwitch:
		return switchAges(n)
	}
	return nil
}

// filterAge reads a v2 filter (If v2+, Filter, Switch v3 rule).
func filterAge(f n8nschema.Value) age {
	var as []age
	for _, c := range f.Get("conditions").ElemsSeq() {
		as = append(as, testAge(c.Get("leftValue").Str(), c.Get("rightValue").Str(), c.Get("operator.operation").Str()))
	}
	if f.Get("combinator").Str() == "or" {
		return anyOf(as)
	}
	return allOf(as)
}

// v1Age reads If v1's dateTime, number and boolean conditions
// (nodes-base/nodes/If/V1: after is value1 > value2, before value1 <
// value2; combineOperation all or any).
func v1Age(p n8nschema.Value) age {
	var as []age
	for range p.Get("conditions.string").ElemsSeq() {
		as = append(as, ageOther) // a string test does not follow the clock
	}
	for _, k := range []string{"conditions.dateTime", "conditions.number", "conditions.boolean"} {
		for _, c := range p.Get(k).ElemsSeq() {
			op := c.Get("operation").Str()
			if k == "conditions.boolean" {
				// value1 equal (or notEqual) to a boolean value2.
				b := c.Get("value2").True()
				if op == "notEqual" {
					b = !b
				}
				op = map[bool]string{true: "true", false: "false"}[b]
			}
			as = append(as, testAge(c.Get("value1").Str(), c.Get("value2").Str(), op))
		}
	}
	if p.Get("combineOperation").Str() == "any" {
		return anyOf(as)
	}
	return allOf(as)
}

// switchAges reads a Switch in rules mode (v3: rules.values, first match
// wins unless options.allMatchingOutputs, options.fallbackOutput; v1 and
// v2: value1 against each rule's value2, rules.rules[].output,
// fallbackOutput).
func switchAges(n *n8nschema.Node) []age {
	t, ok := switchRules(n, filterAge, testAge)
	if !ok {
		return nil
	}
	rules, at, fallback, size, first := t.rules, t.at, t.fallback, t.outputs, !t.allMatch
	// Each output starts with nothing going there (recent: it holds for
	// no time at all) and takes the union (or) of what reaches it.
	outs := make([]age, size)
	reach := make([][]age, size)
	for i, r := range rules {
		taken := r
		if first {
			// Rule i takes an item only when no earlier rule did.
			prior := []age{r}
			for _, q := range rules[:i] {
				prior = append(prior, q.not())
			}
			taken = allOf(prior)
		}
		reach[at[i]] = append(reach[at[i]], taken)
	}
	if fallback >= 0 {
		none := make([]age, len(rules))
		for i, r := range rules {
			none[i] = r.not()
		}
		reach[fallback] = append(reach[fallback], allOf(none))
	}
	for o := range outs {
		outs[o] = ageRecent
		if len(reach[o]) > 0 {
			outs[o] = anyOf(reach[o])
		}
	}
	return outs
}

// testAge reads one comparison: a value that grows with the clock
// ($now.minus(15, 'seconds'), Date.now() − stored) against one that does
// not, by a dateTime, number or boolean operation. A boolean test reads a
// comparison written inside the expression ({{ Date.now() - $json.ts >
// 15000 }}).
func testAge(left, right, op string) age {
	switch op {
	case "true", "false":
		a := exprAge(left)
		if op == "false" {
			a = a.not()
		}
		return a
	case "before", "beforeOrEquals", "lt", "lte", "smaller", "smallerEqual":
		return orderAge(left, right, true)
	case "after", "afterOrEquals", "gt", "gte", "larger", "largerEqual":
		return orderAge(left, right, false)
	}
	return ageOther
}

// orderAge reads left < right (less) or left > right: when the clock
// makes one side grow and the other side is fixed, fixed < growing holds
// once the time is old, fixed > growing only while it is recent.
func orderAge(left, right string, less bool) age {
	l, r := clockTrend(left), clockTrend(right)
	if l != 0 {
		// Put the fixed side on the left.
		l, r, less = r, l, !less
	}
	if l != 0 || r == 0 {
		return ageOther
	}
	if less == (r > 0) {
		return ageOld
	}
	return ageRecent
}

// clockTrend says whether a side grows with the clock (1), shrinks with
// it (-1: expiresAt − Date.now(), a time's diff to $now) or stays (0).
// A side that is neither plain nor readable is taken to stay only when it
// does not read the clock at all.
func clockTrend(s string) int {
	if !readsClockIn(s) {
		return 0
	}
	if minusClockRE.MatchString(s) || diffToClockRE.MatchString(s) {
		return -1
	}
	return 1
}

var (
	// minusClockRE matches the clock subtracted from something.
	minusClockRE = lazyregexp.New(`-\s*(?:\$now|\$today|Date\.now\(\)|DateTime\.now\(\)|new Date\(\s*\))`)
	// diffToClockRE matches a Luxon diff taken to the clock: x.diff($now)
	// is x − now.
	diffToClockRE = lazyregexp.New(`\.diff\(\s*(?:\$now|\$today|DateTime\.now\(\))`)
	// comparisonRE splits an expression holding one comparison.
	comparisonRE = lazyregexp.New(`^([^<>=!&|?]+?)\s*(<=|>=|<|>)\s*([^<>=!&|?]+)$`)
)

// exprAge reads an expression that is one comparison of a value that
// grows with the clock against one that does not.
func exprAge(s string) age {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "="))
	if !strings.HasPrefix(s, "{{") || !strings.HasSuffix(s, "}}") || strings.Count(s, "{{") != 1 {
		return ageOther
	}
	m := comparisonRE.FindStringSubmatch(strings.TrimSpace(s[2 : len(s)-2]))
	if m == nil {
		return ageOther
	}
	return orderAge(m[1], m[3], m[2][0] == '<')
}
