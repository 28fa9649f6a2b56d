package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// RunsAtOnce is how many executions of w can run at the same time when
// its schedules alone start it: per Schedule Trigger, one when a run ends
// before the next tick (or an executionTimeout within the interval or a
// lock stops it), else as many ticks as its longest run spans. n8n starts
// a run on every tick whether or not the last one ended (RS106 reports a
// run that can outlast its interval), and nothing else starts such a
// workflow. It is 0 when the instance's concurrency decides instead:
// something other than a schedule or a person starts w, a workflow of the
// set calls it, a run has a step with no bound, or a schedule's interval
// is not known.
func RunsAtOnce(s *Set, w *n8nschema.Workflow) int {
	g := s.Graph(w)
	var schedules []*n8nschema.Node
	for _, t := range g.Triggers() {
		switch {
		case t.Disabled || ByHand(t):
		case OnClock(t):
			schedules = append(schedules, t)
		default:
			return 0
		}
	}
	if len(schedules) == 0 || calledBy(s, w) {
		return 0
	}
	runs := 0
	for _, grp := range GroupByReach(g, schedules) {
		for _, st := range SlowSteps(s, w, grp.Reach) {
			if st.Unbounded {
				return 0
			}
		}
		worsts, _, slow := RunWorstMS(s, w, grp.Reach, grp.Triggers)
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
