package analyze

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// weekMS is one week in milliseconds: the period over which a schedule
// that fires at fixed times of the day or week repeats.
const weekMS = 7 * 86_400_000

// ClockTicks is when runs of a workflow its schedules alone start can be
// in flight, over one week of wall-clock time in Zone (ClockTicksOf).
type ClockTicks struct {
	// Zone is the time zone the schedules read: the workflow's
	// settings.timezone, else its instance's default ("instance:" and the
	// instance, an export that names none being of none known).
	Zone string
	// Busy are the spans of the week, in ms from Sunday 00:00, sorted and
	// apart, within which its runs can be in flight: two workflows of one
	// zone none of whose spans meet never have runs in flight together.
	Busy [][2]int
}

// ClockTicksOf is when w's runs can be in flight, for a workflow only its
// Schedule Triggers start (and its own Error Triggers, whose runs follow
// its failed ones), none of whose triggers is a person's, another
// workflow's call or another's failure, that calls no sub-workflow (whose
// run its own would wait for) and whose every schedule fires at fixed
// times of the day or week; nil otherwise. n8n turns a schedule into a
// cron expression (nodes-base/dist/nodes/Schedule/GenericFunctions.js
// toCronExpression): "days" fire at triggerAtHour:triggerAtMinute each
// day, "weeks" on each of triggerAtDay, "hours" at triggerAtMinute each
// hour, an interval larger than one firing on some of those ticks only
// (recurrenceCheck), and the second is drawn from the workflow's and the
// node's ids (stableInt), so each tick falls within one minute. The hour
// and minute left out of an export are 0: n8n fills in a parameter's
// default before the trigger reads it (n8n-workflow/dist/esm/workflow.js,
// NodeHelpers.getNodeParameters with returnDefaults), and both default to
// 0 (ScheduleTrigger.node.js). A run is in flight from its tick until its
// worst duration while its calls fail (failingRunWorstMS) has passed, the
// steps that are not slow taken as quick, as RunsAtOnce takes them; a
// pause for a person is left out, as scheduledRuns leaves it
// (pausesForPerson: a parked run calls nothing; what it calls once
// resumed is ResumedCalls'). Minutes, months, seconds and
// cron expressions are not read, nor is a run that goes round a loop
// (its length grows with the items). Wall-clock time is read as it is: the
// hour a daylight-saving change skips or repeats is not.
func ClockTicksOf(s *Set, w *n8nschema.Workflow) *ClockTicks {
	g := s.Graph(w)
	k := g.sortedTriggers()
	if len(k.clock) == 0 || len(k.subs) > 0 || len(k.others) > 0 || calledBy(s, w) {
		return nil
	}
	for _, c := range s.CallsFrom(w) {
		if c.Kind == CallExecute || c.Kind == CallTool {
			return nil
		}
	}
	var busy [][2]int
	for _, grp := range GroupByReach(g, k.clock) {
		for _, st := range failingSlowSteps(s, w, grp.Reach) {
			if st.Unbounded && !pausesForPerson(st) {
				return nil
			}
		}
		// A loop's run grows with its items, which the export does not
		// give (a Loop Over Items' pass per item).
		for _, n := range grp.Reach.Nodes() {
			if g.InCycle(n) {
				return nil
			}
		}
		worsts, _, slow := failingRunWorstMS(s, w, grp.Reach, grp.Triggers)
		for i, t := range grp.Triggers {
			ticks, ok := fixedTicks(t)
			if !ok {
				return nil
			}
			last := 60_000 // the tick's minute
			if slow {
				last = min(last+worsts[i], weekMS)
			}
			for _, at := range ticks {
				busy = append(busy, [2]int{at, at + last})
			}
		}
	}
	zone := strings.Clone(w.Value.Get("settings.timezone").Str())
	if zone == "" || zone == "DEFAULT" {
		zone = "instance:" + InstanceOf(w)
	}
	return &ClockTicks{Zone: zone, Busy: mergeSpans(busy)}
}

// mergeSpans folds spans over the week: a span that passes the week's end
// goes on at its start, and spans that meet become one.
func mergeSpans(in [][2]int) [][2]int {
	var out [][2]int
	for _, sp := range in {
		switch {
		case sp[1]-sp[0] >= weekMS:
			out = append(out, [2]int{0, weekMS})
		case sp[1] > weekMS:
			out = append(out, [2]int{sp[0], weekMS}, [2]int{0, sp[1] - weekMS})
		default:
			out = append(out, sp)
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
	merged := out[:0]
	for _, sp := range out {
		if n := len(merged); n > 0 && sp[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// fixedTicks are the minutes of the week (in ms from Sunday 00:00) at
// which a Schedule Trigger can fire, when each of its rules fires at fixed
// times of the day or week (ClockTicksOf).
func fixedTicks(t *n8nschema.Node) ([]int, bool) {
	if t.Type != n8nschema.TypeScheduleTrigger {
		return nil, false
	}
	iv, _ := t.Param("rule.interval")
	if iv.Len() == 0 {
		return nil, false
	}
	var out []int
	for _, e := range iv.ElemsSeq() {
		field := e.Get("field").Str()
		if field == "" {
			field = "days"
		}
		minute, ok := whole(e.Get("triggerAtMinute"), 59)
		if !ok {
			return nil, false
		}
		switch field {
		case "hours":
			for h := range 7 * 24 {
				out = append(out, h*3_600_000+minute*60_000)
			}
			continue
		case "days", "weeks":
		default:
			return nil, false
		}
		hour, ok := whole(e.Get("triggerAtHour"), 23)
		if !ok {
			return nil, false
		}
		days := []int{0, 1, 2, 3, 4, 5, 6}
		if field == "weeks" {
			days = []int{0} // triggerAtDay's default: Sunday
			if d := e.Get("triggerAtDay"); d.Exists() {
				days = nil
				for _, v := range d.ElemsSeq() {
					n, ok := whole(v, 6)
					if !ok {
						return nil, false
					}
					days = append(days, n)
				}
				if len(days) == 0 {
					days = []int{0, 1, 2, 3, 4, 5, 6} // none named: every day ("*")
				}
			}
		}
		for _, d := range days {
			out = append(out, d*86_400_000+hour*3_600_000+minute*60_000)
		}
	}
	return out, true
}

// whole reads a whole number from 0 to most, 0 when absent (the
// schedule's hour, minute and day default to 0).
func whole(v n8nschema.Value, most int) (int, bool) {
	if !v.Exists() {
		return 0, true
	}
	f, ok := v.Num()
	if !ok || f < 0 || f > float64(most) || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}
