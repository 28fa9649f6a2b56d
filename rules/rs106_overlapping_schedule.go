package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs106 = &analyze.Rule{
	ID:    "RS106",
	Name:  "overlapping-schedule",
	Title: "a scheduled run can outlast the interval to the next one",
	Doc: `n8n starts a scheduled run when the clock says so, whether or not the last run has finished: the Schedule
Trigger's cron job emits on every tick (nodes-base/nodes/Schedule/ScheduleTrigger.node.ts), and nothing in n8n
waits for the previous execution. A run that can take longer than the interval (model calls, calls retried with
waits, Wait nodes) lets the next one start beside it; during an outage of a dependency, when every call runs to its
timeout and retries, the runs pile up, each one calling the failing service again and repeating every write and paid
call that the slower run has not yet made. stormcheck adds up, along the longest path of the run, what its slow steps
take at worst (a model call: attempts × calls × its timeout, an agent with no tool making one call, an output
parser adding none; a retried call: attempts × timeout + waits; a Wait: its time) and reports a schedule whose
interval is shorter. When those steps sit in the loop of a Loop Over Items (SplitInBatches, without options.reset),
the loop goes round once per batch of the items it is given (batchSize: 1 by default in v3, 10 in v1 and v2;
nodes-base/nodes/SplitInBatches/v3/SplitInBatchesV3.node.ts) and then leaves by its done output, so the figures
are one item's pass and what follows done: the message says what
each further item adds (its calls; its batch's Waits, which a pass spends even when every call is quick, and at how
many items they alone outlast the interval), and what each item's paid calls bill, with the number of items at which
a run reaches $0.50. A call that runs once is not counted, nor a step with no bound (RS504 speaks for those). A run
that pauses for a person (a Wait for a webhook or a form, a send-and-wait message) is saved at the pause with what
it marked, its workflow static data included (n8n-core execution-engine/workflow-execute.ts ends it as waiting and
runs workflowExecuteAfter; cli/src/execution-lifecycle/execution-lifecycle-hooks.ts saves the static data there):
only what comes before the first pause counts, in the run's length and in what an overlap repeats; what comes
after resumes at the person's pace. The rule is silent when settings.executionTimeout
is no longer than the interval (n8n stops the run before the next begins, though only between nodes) or when
something in the run looks like a lock (a node or parameter that names a lock, a mutex, a run in progress, or
lists the running executions). A warning when the run makes writes whose duplicate is a second record or harm (a charge, an order, a message to a
customer), or paid calls that may bill $0.50 or more per run at their ceiling (RS302's line; in a Loop Over Items,
for the items an execution is taken to carry, --items, 1 by default) or at a price stormcheck does not know; a note
otherwise: for cheap paid calls, for alerts to the team, for writes that
re-apply the same state (fields set on one record by id), and for writes whose endpoint says nothing of what they
create (a POST that starts a job on the owner's server may create nothing).`,
	Fix:       "Set executionTimeout below the interval, lengthen the interval, or take a lock at the start of the run (a row or key that says a run is going)",
	FixSafety: analyze.Unsafe,
	FixDoc: `Unsafe (--unsafe-fixes): it sets settings.executionTimeout to the schedule's interval, so that n8n stops a run
before the next one starts. n8n checks the timeout only before a node starts, so a node that is retrying finishes
first; and a run cut short leaves its work half done. It is not offered when the workflow has a timeout already
(longer than the interval: which to change is a decision), when the interval is longer than n8n's ceiling on
executionTimeout (3600 s), or when one call alone may take longer than the interval (the timeout would cut it
short, and RS504 would say so).`,
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"schedules", "timeouts"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		g := pass.Set.Graph(w)
		var schedules []*n8nschema.Node
		for _, t := range g.Triggers() {
			if !t.Disabled && analyze.OnClock(t) {
				schedules = append(schedules, t)
			}
		}
		// Schedules whose runs overlap are read together (GroupByReach), so
		// many chained schedules stay linear; the slowest step, a lock and a
		// mark are the group's.
		type group struct {
			analyze.ReachGroup
			slowest analyze.SlowStep
			before  analyze.Reach // what runs before a pause for a person
			guarded *bool         // a lock or a mark before the slowest step; read once
		}
		type run struct {
			*group
			worst int
		}
		runs := map[*n8nschema.Node]run{}
		for _, grp := range analyze.GroupByReach(g, schedules) {
			// A run that pauses for a person is saved at the pause, its
			// marks with it: the overlap is what comes before.
			before := analyze.BeforePause(g, grp.Triggers)
			worsts, slowest, ok := analyze.RunWorstMS(pass.Set, w, before, grp.Triggers)
			if !ok {
				continue
			}
			gr := &group{ReachGroup: grp, slowest: slowest, before: before}
			for i, t := range grp.Triggers {
				runs[t] = run{gr, worsts[i]}
			}
		}
		for _, t := range schedules {
			every, ok := analyze.ScheduleEveryMS(t)
			r, found := runs[t]
			if !ok || !found || r.worst <= every {
				continue
			}
			worst, slowest, reach := r.worst, r.slowest, r.Reach
			if to := w.Settings.ExecutionTimeout; to > 0 && to*1000 <= float64(every) {
				continue // n8n stops the run before the next starts
			}
			if r.guarded == nil {
				guarded := analyze.Locked(g, reach) || analyze.MarksBefore(pass.Set, w, r.Triggers, slowest.Node)
				r.guarded = &guarded
			}
			if *r.guarded {
				continue
			}
			rep := repeatedFromAll(pass, r.Triggers, r.before)
			// A Loop Over Items that holds slow steps goes round once per
			// batch of the items it is given: the figures are a pass's,
			// and a run's grow with the items.
			il, perItem := analyze.PerItemLoop(pass.Set, w, r.before)
			var inLoop map[*n8nschema.Node]bool
			if perItem {
				inLoop = map[*n8nschema.Node]bool{}
				for _, n := range g.Cycle(il.Node) {
					inLoop[n] = true
				}
			}
			sev := analyze.Note
			what := "calls the same services again"
			loud, eff := loudWrite(g, rep.writes)
			switch {
			case loud != nil:
				sev, what = analyze.Warning, fmt.Sprintf("may repeat what the slower run has not yet marked done: %q leaves %s", loud.Node.Name, eff.Duplicate)
			case len(rep.paid) > 0:
				what = "bills its paid call again"
				if len(rep.paid) > 1 {
					what = fmt.Sprintf("bills its %d paid calls again", len(rep.paid))
				}
				// RS302's line: a repeat that bills at most a few cents at
				// the ceiling of every call is a note.
				if spend, known := paidSpend(pass, rep.paid); known && spend < rs302NoteBelowUSD {
					per := fmt.Sprintf(", at most %s per run", usd(spend))
					if perItem {
						if p := loopSpend(pass, g, rep.paid, inLoop, il); p != "" {
							per = p
						}
					}
					what += per
				} else {
					sev = analyze.Warning
				}
			}
			var chain []analyze.Factor
			for op := range eachLiveOp(pass) {
				if op.Node == slowest.Node {
					chain = op.Factors
					break
				}
			}
			length := fmt.Sprintf("one run can take %s at worst (its slowest step: %s)", analyze.Duration(worst), slowest.Describe())
			if perItem {
				length = loopLength(il, every, worst, slowest)
			}
			pass.Report(analyze.Diagnostic{Node: t, Pos: t.Pos, Severity: sev,
				Message: fmt.Sprintf("schedule %q starts a run every %s, and %s; nothing stops the next run from starting beside it (no executionTimeout within the interval, no lock), and each overlapping run %s",
					t.Name, analyze.Duration(every), length, what),
				Chain:  chain,
				Repair: func(r analyze.Repairer) (*analyze.Repair, error) { return r.ScheduleTimeout(w, t) }})
			return // one finding per workflow: the first schedule that overlaps
		}
	},
}

// loudWrite returns the write among writes whose duplicate costs the most,
// when that is a second record or worse in kind: a record someone must
// delete, or harm. A write whose endpoint says nothing of what it creates
// (a bodyless POST that starts a job on the owner's server, a claim) may
// create nothing, and a team alert is a nuisance: those alone make a note.
func loudWrite(g *analyze.Graph, writes []*analyze.Operation) (*analyze.Operation, analyze.Effect) {
	var best *analyze.Operation
	var bestEff analyze.Effect
	for _, op := range writes {
		eff := analyze.ConsequenceIn(g, op.Node)
		if eff.Consequence != analyze.Harm && eff.Consequence != analyze.SecondRecord {
			continue
		}
		if best == nil || eff.Consequence > bestEff.Consequence {
			best, bestEff = op, eff
		}
	}
	return best, bestEff
}

// loopLength says how long a run takes when its slow steps sit in a Loop
// Over Items: worst counts one item's pass and what lies outside the
// loop; each further item adds its calls, each further batch its Waits,
// which a pass spends even when every call is quick (a Wait holds a
// batch once), and so say how many items outlast the interval.
func loopLength(il analyze.ItemLoop, every, worst int, slowest analyze.SlowStep) string {
	calls := il.PassMS - il.WaitMS
	out := fmt.Sprintf("one run can take %s at worst with one item in loop %q, %s more for each further one", analyze.Duration(worst), il.Node.Name, analyze.Duration(il.PassMS))
	if il.Batch != 1 && il.WaitMS > 0 {
		batch := "batch"
		if il.Batch > 1 {
			batch = fmt.Sprintf("batch of %d", il.Batch)
		}
		out = fmt.Sprintf("one run can take %s at worst with one item in loop %q, %s more for each further item and %s for each further %s", analyze.Duration(worst), il.Node.Name, analyze.Duration(calls), analyze.Duration(il.WaitMS), batch)
	}
	out += fmt.Sprintf(" (its slowest step: %s), so its length grows with the items the loop is given", slowest.Describe())
	if il.WaitMS > 0 && il.Batch > 0 {
		passes := every/il.WaitMS + 1
		out += fmt.Sprintf(": its Waits hold each pass %s, so %d items outlast the interval even when every call is quick", analyze.Duration(il.WaitMS), (passes-1)*il.Batch+1)
	}
	return out
}

// loopSpend says what an overlapping run bills when paid calls sit in a
// Loop Over Items: theirs once per item (a batch's items each get their
// call), the others' once, and at how many items a run's ceiling reaches
// RS302's line. The severity stays with the items an execution is taken
// to carry (--items).
func loopSpend(pass *analyze.Pass, g *analyze.Graph, paid []*analyze.Operation, inLoop map[*n8nschema.Node]bool, il analyze.ItemLoop) string {
	var loop, rest []*analyze.Operation
	for _, op := range paid {
		n := op.Node
		for k := 0; k < 8 && g.IsSubNode(n) && g.Root(n) != nil; k++ {
			n = g.Root(n) // a model under a parser under an agent: the agent
		}
		if inLoop[n] {
			loop = append(loop, op)
		} else {
			rest = append(rest, op)
		}
	}
	perItem, ok := paidSpend(pass, loop)
	once, ok2 := paidSpend(pass, rest)
	if len(loop) == 0 || !ok || !ok2 || perItem <= 0 {
		return ""
	}
	// SpendPerExecution counts --items items a run: take one's back.
	items := float64(max(pass.Options.Items, 1))
	perItem /= items
	once /= items
	n := int((rs302NoteBelowUSD-once)/perItem) + 1
	return fmt.Sprintf(", at most %s for each item in loop %q: a run of %d items may bill $%.2f or more", usd(perItem), il.Node.Name, max(n, 1), rs302NoteBelowUSD)
}
