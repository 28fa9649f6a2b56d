package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// CalledOnSchedule reports a webhook t of w that workflows of the set call
// by an HTTP request, every one of them from runs that its schedules alone
// start (and people; a workflow nothing else calls, onClockOnly): the
// webhook runs when they call it, so its executions come at their pace, as
// their own runs do, not one per event of a service. What the callers' runs send at once, a
// request per item, is what their own items are (--items). A webhook its
// own runs call, or one no workflow of the set calls, keeps its own pace:
// the set holds its callers, as for PacesWithCallers.
func CalledOnSchedule(s *Set, w *n8nschema.Workflow, t *n8nschema.Node) bool {
	called := false
	for _, c := range s.CallsTo(w) {
		if !c.requests(t) {
			continue
		}
		if c.From == w || !onClockOnly(s, c.From) {
			return false
		}
		called = true
	}
	return called
}

// onClockOnly reports a workflow that only its schedules (and people)
// start: an enabled Schedule or Cron Trigger, no other trigger, and no
// workflow of the set calls it.
func onClockOnly(s *Set, w *n8nschema.Workflow) bool {
	k := s.Graph(w).sortedTriggers()
	return len(k.clock) > 0 && len(k.errs)+len(k.subs)+len(k.others) == 0 && !calledBy(s, w)
}
