package analyze

import (
	"math"
	"slices"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// maxPersonTriggers is the most triggers one person paces that RunsAtOnce
// counts, one execution each; past it the instance's concurrency decides.
const maxPersonTriggers = 8

// RunsAtOnce is how many executions of w can run at the same time when
// its schedules alone start it: per Schedule Trigger, one when a run ends
// before the next tick (or an executionTimeout within the interval or a
// lock stops it), else as many ticks as its longest run spans. n8n starts
// a run on every tick whether or not the last one ended (RS106 reports a
// run that can outlast its interval), and nothing else starts such a
// workflow. An error workflow (an Error Trigger) is started by the
// workflows that name it: ErrorRunsAtOnce. It is 0 when the instance's
// concurrency decides instead: something other than a schedule, a person
// or failed runs of such workflows starts w, a workflow of the set calls
// it, a run has a step with no bound, or a schedule's interval is not
// known. A run lasts as long as it does while the calls fail
// (failingRunWorstMS): the runs that can overlap in an outage are those
// whose failing calls take their timeouts and retries' waits, and a call
// with no client timeout that hangs makes no more attempts, so it bounds
// nothing it strains; a loop or a Wait with no bound still has none. A sub-workflow that only its callers start runs as many at once
// as they do when each call waits for it (CalledRunsAtOnce). A trigger
// one person paces (OnePersonPaces: a person's chat, bot, form or link)
// adds one execution: that person's runs come one after another, as they
// act, not together when a dependency fails; persons is that part of runs.
// A scheduled run that pauses for a person (a send-and-wait message, a
// Wait for a webhook or a form) has no bound on its length, but a parked
// run calls nothing (pausesForPerson): its ticks overlap as the rest of
// the run takes. Its calls after the pause add one execution at the
// person's pace to the dependencies they call only (ResumedCalls), which
// runs leaves out. An error workflow's or a sub-workflow's own runs
// (ErrorRunsAtOnce, CalledRunsAtOnce) are not excused the pause: one
// that pauses leaves them to the fleet; a namer's or caller's runs that
// resume add one execution (namerPace).
func RunsAtOnce(s *Set, w *n8nschema.Workflow) (runs, persons int) {
	g := s.Graph(w)
	k := g.sortedTriggers()
	if persons = k.personRuns(g); persons < 0 {
		return 0, 0
	}
	sub := len(k.subs) > 0
	if !sub && len(k.clock) == 0 && len(k.errs) == 0 && !calledBy(s, w) {
		return persons, persons
	}
	if runs = clockStarts(s, w, k.clock, k.errs, sub); runs == 0 {
		return 0, 0
	}
	return min(runs+persons, AttemptCap), persons
}

// A triggerSort is a workflow's enabled triggers sorted by what starts
// their runs, each list in file order: the one reading that RunsAtOnce,
// namerPace, onClockOnly, WaitedBy, splitStarts and markIdleErrorTriggers
// share, so that they cannot disagree on what a trigger is.
type triggerSort struct {
	hand   []*n8nschema.Node // a person in the editor (ByHand)
	clock  []*n8nschema.Node // a clock (OnClock)
	errs   []*n8nschema.Node // Error Triggers: failed runs of the workflows that name it
	subs   []*n8nschema.Node // Execute Workflow Triggers: the workflows that call it
	others []*n8nschema.Node // the rest: a service, or one person (personRuns)
}

// sortedTriggers is g's triggerSort, sorted once per graph.
func (g *Graph) sortedTriggers() *triggerSort {
	g.sortOnce.Do(func() {
		k := &g.sorted
		for _, t := range g.Triggers() {
			switch {
			case t.Disabled:
			case ByHand(t):
				k.hand = append(k.hand, t)
			case OnClock(t):
				k.clock = append(k.clock, t)
			case t.Type == n8nschema.TypeErrorTrigger:
				k.errs = append(k.errs, t)
			case t.Type == n8nschema.TypeExecuteWorkflowTrigger:
				k.subs = append(k.subs, t)
			default:
				k.others = append(k.others, t)
			}
		}
	})
	return &g.sorted
}

// unattended returns the triggers that start runs with no person in the
// editor, Error Triggers aside.
func (k *triggerSort) unattended() []*n8nschema.Node {
	return slices.Concat(k.clock, k.subs, k.others)
}

// personRuns is the runs at once the other triggers add, one each, when
// one person paces each of them (OnePersonPaces): that person's runs come
// one after another, as they act; -1 when one is not. Many entry points
// are an API's, not one person's; and asking each who paces it walks the
// runs it starts, so past maxPersonTriggers it is -1, which keeps this
// linear.
func (k *triggerSort) personRuns(g *Graph) int {
	if len(k.others) > maxPersonTriggers {
		return -1
	}
	for _, t := range k.others {
		if !OnePersonPaces(g, t) {
			return -1
		}
	}
	return len(k.others)
}

// clockStarts is RunsAtOnce for the runs schedules, Error Triggers and
// callers start.
func clockStarts(s *Set, w *n8nschema.Workflow, schedules, errs []*n8nschema.Node, sub bool) int {
	if sub || len(schedules) == 0 && len(errs) == 0 && calledBy(s, w) {
		runs := CalledRunsAtOnce(s, w)
		if runs == 0 || len(errs) > 0 {
			return 0
		}
		if len(schedules) > 0 {
			more := scheduledRuns(s, w, schedules)
			if more == 0 {
				return 0
			}
			runs = min(runs+more, AttemptCap)
		}
		return runs
	}
	if len(errs) == 0 {
		if len(schedules) == 0 || calledBy(s, w) {
			return 0
		}
		return scheduledRuns(s, w, schedules)
	}
	runs := ErrorRunsAtOnce(s, w, errs)
	if runs == 0 || len(schedules) == 0 {
		return runs
	}
	if more := scheduledRuns(s, w, schedules); more > 0 {
		return min(runs+more, AttemptCap)
	}
	return 0
}

// ErrorRunsAtOnce is how many runs of error workflow w, started at its
// Error Triggers errs, can be in flight at once. n8n starts an error
// workflow once per failed execution of a workflow whose
// settings.errorWorkflow names it, after that execution ended
// (n8n/dist/execution-lifecycle/execute-error-workflow.js, from the
// workflowExecuteAfter hook), so its runs follow the namers' failed runs:
// per namer, its own runs at once (RunsAtOnce), times the ticks of the
// namer's shortest interval an error run spans. It is 0 (the fleet
// decides) when the set shows no namer (the callers are not known), when
// a namer's pace is not known, or when another workflow calls w.
// A workflow that names no other error workflow (or names itself) is its
// own namer: n8n runs its own Error Trigger after each of its failed runs
// (execute-error-workflow.ts, the "internal error workflow" branch), so
// those runs follow its schedules, not the fleet.
func ErrorRunsAtOnce(s *Set, w *n8nschema.Workflow, errs []*n8nschema.Node) int {
	var namers []*n8nschema.Workflow
	for _, c := range s.CallsTo(w) {
		switch {
		case c.From == w || c.Kind == CallN8nAPI:
		case c.Kind == CallErrorWorkflow:
			namers = append(namers, c.From)
		default:
			return 0 // also an Execute Workflow's or a tool's sub-workflow
		}
	}
	own := w.Settings.ErrorWorkflow == "" || w.Settings.ErrorWorkflow == w.ID
	if own && len(s.Graph(w).sortedTriggers().clock) > 0 {
		namers = append(namers, w)
	}
	if len(namers) == 0 {
		return 0
	}
	reach := ReachFrom(s.Graph(w), errs...)
	for _, st := range failingSlowSteps(s, w, reach) {
		if st.Unbounded {
			return 0
		}
	}
	worst := 0
	if ws, _, slow := failingRunWorstMS(s, w, reach, errs); slow {
		for _, v := range ws {
			worst = max(worst, v)
		}
	}
	runs := 0
	for _, nw := range namers {
		n, persons, every := namerPace(s, nw, nw == w)
		if n == 0 {
			return 0
		}
		if worst > every {
			n = MulSat(n, (worst+every-1)/every)
		}
		runs = min(runs+n+persons, AttemptCap) // a person's next run waits for the last
	}
	return runs
}

// namerPace is how many runs of a workflow that names an error workflow
// its schedules can have in flight at once, the one run a person's trigger
// adds each (persons: a person's next run waits for the last, so these
// are not multiplied by the ticks a long run spans) and its shortest
// schedule interval, 0 when
// its schedules and people alone do not start it (and, when self, its own
// Error Triggers, whose runs follow the failed ones).
func namerPace(s *Set, w *n8nschema.Workflow, self bool) (runs, persons, every int) {
	g := s.Graph(w)
	k := g.sortedTriggers()
	if len(k.clock) == 0 || len(k.subs) > 0 || len(k.errs) > 0 && !self || calledBy(s, w) {
		return 0, 0, 0
	}
	persons = k.personRuns(g)
	runs = scheduledRuns(s, w, k.clock) // 0 when an interval is not known
	if persons < 0 || runs == 0 {
		return 0, 0, 0
	}
	if len(ResumedCalls(s, w)) > 0 {
		persons++ // a run parked on a person resumes as they answer, and may fail
	}
	every = math.MaxInt
	for _, t := range k.clock {
		e, _ := ScheduleEveryMS(t)
		every = min(every, e)
	}
	return runs, persons, every
}

// scheduledRuns is RunsAtOnce for a workflow that only schedules and
// people start.
func scheduledRuns(s *Set, w *n8nschema.Workflow, schedules []*n8nschema.Node) int {
	g := s.Graph(w)
	runs := 0
	for _, grp := range GroupByReach(g, schedules) {
		for _, st := range failingSlowSteps(s, w, grp.Reach) {
			if st.Unbounded && !pausesForPerson(st) {
				return 0
			}
		}
		worsts, _, slow := failingRunWorstMS(s, w, grp.Reach, grp.Triggers)
		for i, t := range grp.Triggers {
			every, known := ScheduleEveryMS(t)
			if !known || every <= 0 {
				return 0
			}
			n := 1
			if slow && worsts[i] > every {
				if to := w.Settings.ExecutionTimeout; !(to > 0 && to*1000 <= float64(every)) && !Locked(g, grp.Reach) {
					n = (worsts[i] + every - 1) / every
				}
			}
			runs = min(runs+n, AttemptCap)
		}
	}
	return runs
}

// CalledRunsAtOnce is how many runs of sub-workflow w the set's calls can
// have in flight at once when each of them waits for the run it starts
// (waitingCallers): w runs at most as many at once as its callers do, when
// their schedules and people alone start them (namerPace). It is 0 (the
// fleet decides) when waitingCallers gives none or a caller's pace is not
// known. A call the set cannot resolve may start w too: the set-wide rules
// check for one (WorkflowSummary.CallerPaced).
func CalledRunsAtOnce(s *Set, w *n8nschema.Workflow) int {
	callers := waitingCallers(s, w)
	if len(callers) == 0 {
		return 0
	}
	// A caller's run lasts at least as long as the run it waits for: as
	// for an error workflow, each caller's runs at once are multiplied by
	// the ticks of its interval that w's longest run spans.
	start := subworkflowStart(w)
	reach := ReachFrom(s.Graph(w), start...)
	for _, st := range failingSlowSteps(s, w, reach) {
		if st.Unbounded {
			return 0
		}
	}
	worst := 0
	if ws, _, slow := failingRunWorstMS(s, w, reach, start); slow {
		for _, v := range ws {
			worst = max(worst, v)
		}
	}
	runs := 0
	for _, c := range callers {
		n, persons, every := s.pace(c)
		if n == 0 {
			return 0
		}
		if worst > every {
			n = MulSat(n, (worst+every-1)/every)
		}
		runs = min(runs+n+persons, AttemptCap) // a person's next run waits for the last
	}
	return runs
}

// waitingCallers returns, each once, the workflows whose calls start
// sub-workflow w when every such call is an Execute Workflow node that
// waits for the run it starts: the node awaits its sub-execution, item
// after item, unless options.waitForSubWorkflow is false (n8n-nodes-base
// ExecuteWorkflow.node.js, execute), and an execution runs one node at a
// time, so each execution of a caller has at most one run of w in flight.
// Nil when another call starts w: one that does not wait, an agent's tool
// (a model may call a tool several times at once), w itself. The n8n API
// node starts no execution.
func waitingCallers(s *Set, w *n8nschema.Workflow) []*n8nschema.Workflow {
	var out []*n8nschema.Workflow
	seen := map[*n8nschema.Workflow]bool{}
	for _, c := range s.CallsTo(w) {
		switch {
		case c.Kind == CallN8nAPI:
		case c.From == w || c.Kind != CallExecute || c.NoWait:
			return nil
		case !seen[c.From]:
			seen[c.From] = true
			out = append(out, c.From)
		}
	}
	return out
}

// pace is namerPace of w, read once per set: a caller may start many
// sub-workflows, each of which asks it.
func (s *Set) pace(w *n8nschema.Workflow) (runs, persons, every int) {
	if p, ok := s.paces[w]; ok {
		return p[0], p[1], p[2]
	}
	runs, persons, every = namerPace(s, w, false)
	if s.paces == nil {
		s.paces = map[*n8nschema.Workflow][3]int{}
	}
	s.paces[w] = [3]int{runs, persons, every}
	return runs, persons, every
}
