package analyze

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Overlapping runs: n8n starts a scheduled run when the clock says so,
// whether or not the last run has finished. A run that can take longer
// than the interval lets the next one start beside it.

// OnClock reports a trigger that starts executions on a clock: a
// Schedule Trigger, Cron or Interval that registers a job (see
// registersNoJob for the ones that do not).
func OnClock(t *n8nschema.Node) bool {
	return n8nschema.IsScheduleTrigger(t.Type) && !registersNoJob(t)
}

// registersNoJob reports a clock trigger whose stored rule registers no
// job, so that only a run from the editor starts it. The Cron node maps
// triggerTimes.item || [] to cron jobs, and triggerTimes defaults to {}
// (nodes-base/dist/nodes/Cron/Cron.node.js trigger): a Cron with no trigger
// times (an export that wrote cronExpression or mode beside them) has none.
// The Schedule Trigger maps each of rule.interval to a job, filling in
// [{}] only when the list is missing (Schedule/ScheduleTrigger.node.js
// trigger): a rule with an empty interval list has none, while a missing
// or empty rule runs daily by default.
func registersNoJob(t *n8nschema.Node) bool {
	switch t.Type {
	case n8nschema.TypeCron:
		tt := t.Params().Get("triggerTimes")
		if !tt.Exists() {
			return true
		}
		if tt.Kind() != n8nschema.Object {
			return false // an expression: read at run time
		}
		item := tt.Get("item")
		return !item.Exists() || item.Kind() == n8nschema.Array && item.Len() == 0
	case n8nschema.TypeScheduleTrigger:
		iv := t.Params().Get("rule").Get("interval")
		return iv.Kind() == n8nschema.Array && iv.Len() == 0
	}
	return false
}

// ScheduleEveryMS is the shortest interval between the runs a schedule
// trigger starts, false when it cannot be read (a cron expression other
// than a step, an expression). Schedule Trigger rule.interval[]: field
// (days by default) with secondsInterval 30, minutesInterval 5,
// hoursInterval 1 by default, or cronExpression
// (nodes-base/nodes/Schedule/ScheduleTrigger.node.ts); the older Cron
// triggerTimes.item[] (everyMinute, everyHour, everyDay by default,
// everyWeek, everyMonth at 28 days, everyX value × unit) and
// Interval (interval 1 of unit seconds by default).
func ScheduleEveryMS(t *n8nschema.Node) (int, bool) {
	best, found := 0, false
	take := func(ms int) {
		if ms > 0 && (!found || ms < best) {
			best, found = ms, true
		}
	}
	num := func(v n8nschema.Value, def float64) (int, bool) {
		if !v.Exists() {
			return int(def), true
		}
		f, ok := v.Num()
		if !ok || f < 1 {
			return 0, false
		}
		return int(min(f, 1e6)), true
	}
	switch t.Type {
	case n8nschema.TypeScheduleTrigger:
		iv, _ := t.Param("rule.interval")
		for _, e := range iv.ElemsSeq() {
			field := e.Get("field").Str()
			if field == "" {
				field = "days"
			}
			if field == "cronExpression" {
				if ms, ok := cronStepMS(e.Get("expression").Str()); ok {
					take(ms)
				}
				continue
			}
			param, def := "", 1.0
			switch field {
			case "seconds":
				param, def = "secondsInterval", 30
			case "minutes":
				param, def = "minutesInterval", 5
			case "hours":
				param = "hoursInterval"
			case "days":
				param = "daysInterval"
			case "weeks":
				param = "weeksInterval"
			case "months":
				param = "monthsInterval"
			}
			if k, ok := num(e.Get(param), def); ok {
				take(k * unitMS(field))
			}
		}
	case n8nschema.TypeCron:
		items, _ := t.Param("triggerTimes.item")
		for _, e := range items.ElemsSeq() {
			switch e.Get("mode").Str() {
			case "everyMinute":
				take(60_000)
			case "everyHour":
				take(3_600_000)
			case "everyWeek": // n8n-workflow cron.js toCronExpression: "s m h * * weekday"
				take(7 * 86_400_000)
			case "everyMonth": // "s m h dayOfMonth * *"
				take(28 * 86_400_000)
			case "everyX":
				if k, ok := num(e.Get("value"), 2); ok {
					take(k * unitMS(e.Get("unit").Str()))
				}
			case "custom":
				if ms, ok := cronStepMS(e.Get("cronExpression").Str()); ok {
					take(ms)
				}
			default:
				take(86_400_000)
			}
		}
	case n8nschema.TypeInterval:
		u := t.Params().Get("unit").Str()
		if u == "" {
			u = "seconds"
		}
		if k, ok := num(t.Params().Get("interval"), 1); ok {
			take(k * unitMS(u))
		}
	}
	return best, found
}

// unitMS is the length of a schedule's unit in milliseconds (0 for a unit
// n8n does not define; a month counts 28 days, the shortest).
func unitMS(unit string) int {
	switch unit {
	case "seconds":
		return 1000
	case "minutes":
		return 60_000
	case "hours":
		return 3_600_000
	case "days":
		return 86_400_000
	case "weeks":
		return 7 * 86_400_000
	case "months":
		return 28 * 86_400_000
	}
	return 0
}

// cronStepRE matches a cron field that runs every step: "*", "*/5", "0/5".
var cronStepRE = lazyregexp.New(`^(\*|0)(/(\d+))?$`)

// cronStepMS reads the interval of a cron expression whose first field
// that is not a fixed value steps evenly: "*/5 * * * *" every 5 minutes,
// "0 */2 * * *" every 2 hours, "*/30 * * * * *" every 30 seconds, "0 9 1 * *"
// every month (28 days, the shortest month). A list or a range is not read.
func cronStepMS(expr string) (int, bool) {
	fs := strings.Fields(strings.TrimPrefix(expr, "="))
	units := []int{60_000, 3_600_000, 86_400_000}
	if len(fs) == 6 {
		units = append([]int{1000}, units...)
	} else if len(fs) != 5 {
		return 0, false
	}
	for i, u := range units {
		f := fs[i]
		if _, err := strconv.Atoi(f); err == nil {
			continue // a fixed value: the step is in a longer field
		}
		m := cronStepRE.FindStringSubmatch(f)
		if m == nil || m[1] == "0" && m[3] == "" {
			return 0, false
		}
		step := 1
		if m[3] != "" {
			step, _ = strconv.Atoi(m[3])
		}
		if step < 1 {
			return 0, false
		}
		// A step past its field's range fires once a cycle; capped so
		// that an absurd one cannot overflow.
		return min(step, maxCronStep) * u, true
	}
	// Every field down to the day of the month is fixed: the month field
	// steps ("0 9 1 * *" monthly), at least 28 days apart, unless a day of
	// the week is set too, which cron ORs with the day of the month.
	mon, dow := fs[len(fs)-2], fs[len(fs)-1]
	if m := cronStepRE.FindStringSubmatch(mon); m != nil && m[1] == "*" && (dow == "*" || dow == "?") {
		step := 1
		if m[3] != "" {
			step, _ = strconv.Atoi(m[3])
		}
		if step >= 1 {
			return min(step, maxCronStep) * 28 * 86_400_000, true
		}
	}
	return 0, false
}

// maxCronStep bounds a cron field's step: no field's range is larger.
const maxCronStep = 1000

// RunWorstMS is how long runs started at starts, which reach reach, can
// take at worst, each along its longest path of main connections: the
// slow steps of SlowSteps (a model call's, a retried call's or a Wait's
// worst), a sub-node's counted at its root. Unbounded steps are left out:
// RS504 speaks for them, and a wait for a person is not a storm. It
// returns the slowest step among reach too, and false when there is none.
// One walk serves all the starts (GroupByReach's groups), so many chained
// schedules stay linear.
func RunWorstMS(s *Set, w *n8nschema.Workflow, reach Reach, starts []*n8nschema.Node) ([]int, SlowStep, bool) {
	return runWorstMS(s, w, reach, starts, false)
}

// failingRunWorstMS is RunWorstMS while the calls fail
// (failingSlowSteps): how long the runs last in the outage of a dependency
// they call, what RunsAtOnce and ClockTicksOf count the runs in flight by.
func failingRunWorstMS(s *Set, w *n8nschema.Workflow, reach Reach, starts []*n8nschema.Node) ([]int, SlowStep, bool) {
	return runWorstMS(s, w, reach, starts, true)
}

func runWorstMS(s *Set, w *n8nschema.Workflow, reach Reach, starts []*n8nschema.Node, failing bool) ([]int, SlowStep, bool) {
	g := s.Graph(w)
	weight, _, slowest, found := slowWeights(s, w, reach, failing)
	if !found {
		return nil, SlowStep{}, false
	}
	memo := map[*n8nschema.Node]int{}
	onPath := map[*n8nschema.Node]bool{}
	var longest func(n *n8nschema.Node) int
	longest = func(n *n8nschema.Node) int {
		if v, ok := memo[n]; ok {
			return v
		}
		onPath[n] = true
		best, round := 0, 0
		// A Loop Over Items goes round its loop, then leaves by done:
		// a run takes a pass (one item's) and what comes after.
		sib := n.Type == n8nschema.TypeSplitInBatches && g.InCycle(n)
		for _, e := range g.Out(n) {
			if e.Type != ConnMain || onPath[e.To] {
				continue
			}
			if v := longest(e.To); sib && !e.Error && e.Output == sibLoopOutput(n) && g.SameCycle(n, e.To) {
				round = max(round, v)
			} else {
				best = max(best, v)
			}
		}
		onPath[n] = false
		memo[n] = min(weight[n]+round+best, AttemptCap)
		return memo[n]
	}
	out := make([]int, len(starts))
	for i, t := range starts {
		out[i] = longest(t)
	}
	return out, slowest, true
}

// slowWeights is, per node of reach, what its bounded slow steps take at
// worst (a sub-node's counted at the first node of the main graph it runs
// within, mainRoots, as RunAttempts reads it: a tool's model at the agent
// that calls the tool), the Waits' share apart too,
// with the slowest step; false when there is none.
func slowWeights(s *Set, w *n8nschema.Workflow, reach Reach, failing bool) (weight, waits map[*n8nschema.Node]int, slowest SlowStep, found bool) {
	g := s.Graph(w)
	weight, waits = map[*n8nschema.Node]int{}, map[*n8nschema.Node]int{}
	for _, st := range slowSteps(s, w, reach, failing) {
		if st.Unbounded {
			continue
		}
		n := st.Node
		if r := g.Root(n); r != nil && g.IsSubNode(n) {
			n = r
			if rs := mainRoots(g, st.Node); len(rs) > 0 {
				n = rs[0] // (a tool's model: the agent the tool serves)
			}
		}
		weight[n] = min(weight[n]+st.WorstMS, AttemptCap)
		if n.Type == n8nschema.TypeWait {
			waits[n] = min(waits[n]+st.WorstMS, AttemptCap)
		}
		if !found || st.WorstMS > slowest.WorstMS {
			slowest, found = st, true
		}
	}
	return weight, waits, slowest, found
}

// ItemLoop is a Loop Over Items (SplitInBatches) whose loop holds slow
// steps: it goes round once per batch of the items it is given
// (n8n-nodes-base SplitInBatches/v3/SplitInBatchesV3.node.js: batchSize,
// 1 by default; 10 in v1 and v2), so a run's length, and what it calls and
// bills, grow with those items.
type ItemLoop struct {
	Node *n8nschema.Node
	// Batch is the items per pass; 0 when an expression sets it.
	Batch int
	// PassMS is what one pass's slow steps take at worst, along its
	// longest way round; WaitMS the Waits on that way, which every pass
	// that takes it spends even when every call is quick.
	PassMS, WaitMS int
}

// PerItemLoop returns the Loop Over Items among reach whose pass takes the
// longest at worst, when a pass holds a bounded slow step (SlowSteps); one
// with options.reset (a loop that starts over on new input, as a pager
// does) is left out. False when there is none.
func PerItemLoop(s *Set, w *n8nschema.Workflow, reach Reach) (ItemLoop, bool) {
	g := s.Graph(w)
	var sibs []*n8nschema.Node
	for _, n := range reach.Nodes() {
		if n.Type == n8nschema.TypeSplitInBatches && !n.Disabled && g.InCycle(n) {
			if r := n.Params().Get("options.reset"); r.Kind() == n8nschema.Missing || r.Kind() == n8nschema.Bool && !r.True() {
				sibs = append(sibs, n)
			}
		}
	}
	if len(sibs) == 0 {
		return ItemLoop{}, false
	}
	// reach is a map: file order makes the loop named among equals the
	// same on every run.
	slices.SortFunc(sibs, func(a, b *n8nschema.Node) int {
		i, _ := g.index(a)
		j, _ := g.index(b)
		return i - j
	})
	weight, waits, _, found := slowWeights(s, w, reach, false)
	if !found {
		return ItemLoop{}, false
	}
	var best ItemLoop
	ok := false
	for _, sib := range sibs {
		i, _ := g.index(sib)
		// The longest way round: from sib's loop output back to sib,
		// inside its cycle.
		memo := map[*n8nschema.Node][2]int{}
		onPath := map[*n8nschema.Node]bool{sib: true}
		var longest func(n *n8nschema.Node) [2]int
		longest = func(n *n8nschema.Node) [2]int {
			if v, ok := memo[n]; ok {
				return v
			}
			onPath[n] = true
			var most [2]int
			for _, e := range g.Out(n) {
				if j, in := g.index(e.To); e.Type == ConnMain && in && g.comp[j] == g.comp[i] && !onPath[e.To] {
					if v := longest(e.To); v[0] > most[0] {
						most = v
					}
				}
			}
			onPath[n] = false
			v := [2]int{min(weight[n]+most[0], AttemptCap), min(waits[n]+most[1], AttemptCap)}
			memo[n] = v
			return v
		}
		var pass [2]int
		for _, e := range g.Out(sib) {
			if j, in := g.index(e.To); e.Type == ConnMain && !e.Error && e.Output == sibLoopOutput(sib) && in && g.comp[j] == g.comp[i] {
				if v := longest(e.To); v[0] > pass[0] {
					pass = v
				}
			}
		}
		if pass[0] == 0 || ok && pass[0] <= best.PassMS {
			continue
		}
		best, ok = ItemLoop{Node: sib, Batch: loopBatch(sib), PassMS: pass[0], WaitMS: pass[1]}, true
	}
	return best, ok
}

// loopBatch is the items a Loop Over Items (SplitInBatches) hands on per
// pass: its batchSize, 1 by default in v3 and 10 in v1 and v2
// (n8n-nodes-base SplitInBatches/v3/SplitInBatchesV3.node.js L51-58,
// v2/SplitInBatchesV2.node.js L29-34); 0 when an expression sets it.
func loopBatch(sib *n8nschema.Node) int {
	batch := 1
	if sib.TypeVersion < 3 {
		batch = 10
	}
	if v, set := sib.Param("batchSize"); set {
		if f, num := v.Num(); num && f >= 1 {
			batch = int(f)
		} else {
			batch = 0
		}
	}
	return batch
}

// OneItemPerRun reports a node whose every main input is the loop output
// of an enabled Loop Over Items (SplitInBatches) that hands on one item
// per pass (loopBatch 1, v3's default): each run of the node gets one
// item, so in one execution its calls go out one after another, a pass
// apart, never side by side, however many items the execution carries
// (SplitInBatchesV3.node.js execute: returnItems is items.splice(0,
// batchSize) on each pass).
func OneItemPerRun(g *Graph, n *n8nschema.Node) bool {
	fed := false
	for _, e := range g.In(n) {
		if e.Type != ConnMain {
			continue
		}
		sib := e.From
		if e.Error || sib.Type != n8nschema.TypeSplitInBatches || sib.Disabled || e.Output != sibLoopOutput(sib) || loopBatch(sib) != 1 {
			return false
		}
		fed = true
	}
	return fed
}

// BeforePause returns what runs started at starts reach before they pause
// for a person (n8nschema.HumanGate: a Wait for a webhook or a form, a
// send-and-wait message), the pausing nodes and the sub-nodes of every
// root included. At the pause n8n ends the execution as waiting
// (n8n-core execution-engine/workflow-execute.ts: status "waiting", then
// workflowExecuteAfter) and saves it with the workflow's static data
// (cli/src/execution-lifecycle/execution-lifecycle-hooks.ts
// hookFunctionsSave): what the run marked by then, in a table or in
// $getWorkflowStaticData, a run that starts later finds; what comes
// after resumes at the person's pace, not the clock's (ResumedCalls: both
// read one walk, pauseSides, which follows no dead edge).
func BeforePause(g *Graph, starts []*n8nschema.Node) Reach {
	before, _ := pauseSides(g, starts)
	return before
}

// lockRE matches what names a lock or a check for a run still going.
var lockRE = lazyregexp.New(`(?i)\b(lock|locked|locking|mutex|semaphore)\b|already[ _-]?running|is[ _-]?running|in[ _-]?progress|"status":\s*"running"`)

// namesLock is lockRE.MatchString(s) with byte tests (TestNamesLockAsPattern):
// the pattern's shortest literal without case ("loc", which "block" and
// "location" hold) sent it over all the parameters of many nodes. A text
// with the long s or the Kelvin sign, which fold to s and k, is left to
// the pattern.
func namesLock(s string) bool {
	if strings.Contains(s, "\u017f") || strings.Contains(s, "\u212a") {
		return lockRE.MatchString(s)
	}
	for i := 0; i < len(s); i++ {
		switch s[i] | 0x20 {
		case 'l', 'm', 's': // a whole word
			if i > 0 && ascii.IsWord(s[i-1]) {
				continue
			}
			for _, w := range [...]string{"lock", "locked", "locking", "mutex", "semaphore"} {
				if ascii.HasPrefixFold(s[i:], w) && (i+len(w) == len(s) || !ascii.IsWord(s[i+len(w)])) {
					return true
				}
			}
		case 'r':
			if !ascii.HasPrefixFold(s[i:], "running") {
				continue
			}
			if afterSep(s[:i], "already") || afterSep(s[:i], "is") {
				return true
			}
			if i > 0 && s[i-1] == '"' && ascii.HasPrefixFold(s[i:], `running"`) {
				j := i - 1
				for j > 0 && ascii.IsSpace(s[j-1]) {
					j--
				}
				if ascii.HasSuffixFold(s[:j], `"status":`) {
					return true
				}
			}
		case 'p':
			if ascii.HasPrefixFold(s[i:], "progress") && afterSep(s[:i], "in") {
				return true
			}
		}
	}
	return false
}

// afterSep reports whether s ends with w[ _-]? in any case of w.
func afterSep(s, w string) bool {
	if n := len(s); n > 0 && (s[n-1] == ' ' || s[n-1] == '_' || s[n-1] == '-') && ascii.HasSuffixFold(s[:n-1], w) {
		return true
	}
	return ascii.HasSuffixFold(s, w)
}

// Locked reports whether a node the run reaches looks like a lock: its
// name or parameters speak of a lock, a mutex, a run in progress, or list
// the running executions.
func Locked(g *Graph, reach Reach) bool {
	for i, n := range g.Nodes {
		if reach.Has(n) && g.lock(i) {
			return true
		}
	}
	return false
}

// lock reports whether g.Nodes[i] looks like a lock, decided once per node
// of the graph: RS106 and RunsAtOnce ask it of the same runs, and the
// pattern reads every byte of a node's parameters.
func (g *Graph) lock(i int) bool {
	g.locksOnce.Do(func() {
		g.locks = make([]bool, len(g.Nodes))
		g.lockOnce = make([]sync.Once, len(g.Nodes))
	})
	g.lockOnce[i].Do(func() {
		n := g.Nodes[i]
		g.locks[i] = !n.Disabled && (namesLock(n.Name) || namesLock(n.Params().Raw()))
	})
	return g.locks[i]
}

// MarksBefore reports whether the run changes the state of what it works
// on before its slow step: a write that re-applies state (an update, a
// PATCH: "sent = true") on the way from one of starts to slow. A run that starts
// beside it then finds that work marked and passes it by.
func MarksBefore(s *Set, w *n8nschema.Workflow, starts []*n8nschema.Node, slow *n8nschema.Node) bool {
	g := s.Graph(w)
	if r := g.Root(slow); r != nil && g.IsSubNode(slow) {
		slow = r
		if rs := mainRoots(g, r); len(rs) > 0 {
			slow = rs[0] // as slowWeights weighs it
		}
	}
	on := map[*n8nschema.Node]bool{}
	for _, n := range Between(g, starts, slow) {
		on[n] = true
	}
	for _, op := range s.OperationsOf(w) {
		if on[op.Node] && op.Consequence() == SameState {
			return true
		}
	}
	return false
}
