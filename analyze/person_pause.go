package analyze

import (
	"github.com/stormcheck/stormcheck/n8nschema"
)

// pausesForPerson reports a slow step with no bound that is a pause for a
// person (n8nschema.HumanGate: a Wait resumed by a webhook or a form, which
// RS106 and RS504 read as a person's too). At the pause n8n ends the
// execution as waiting and saves it (n8n-core
// dist/execution-engine/workflow-execute.js: status "waiting"; the Wait
// node puts the execution to wait, nodes-base dist/nodes/Wait/Wait.node.js
// putExecutionToWait), so a parked run holds no worker and makes no call:
// its length does not decide how many runs call a dependency at once
// (scheduledRuns). The runs' calls before the pause overlap as the
// schedule's ticks and what the rest of the run takes decide (RunWorstMS
// leaves the pause out); the calls after it come as the person answers
// (personResumes).
func pausesForPerson(st SlowStep) bool {
	return st.Unbounded && st.Node != nil && !st.Node.Disabled && n8nschema.HumanGate(st.Node)
}

// personResumes is the executions a person's answers add to the runs
// schedules start: 1 when a run started at one of schedules can pause for
// a person (HumanGate: a send-and-wait message, a Wait for a webhook or a
// form) and call a dependency under n8n's retry after the pause, else 0.
// The person answers one parked run at a time, as a person's trigger starts
// one execution at a time (OnePersonPaces), so the resumed runs call it one
// after another, beside the runs the ticks start.
func personResumes(s *Set, w *n8nschema.Workflow, schedules []*n8nschema.Node) int {
	g := s.Graph(w)
	reach := ReachFrom(g, schedules...)
	seen := map[*n8nschema.Node]bool{}
	var queue []*n8nschema.Node
	for n := range reach {
		if n.Disabled || !n8nschema.HumanGate(n) {
			continue
		}
		for _, e := range g.Out(n) {
			if e.Type == ConnMain && !seen[e.To] && !g.dead(e) {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if op := s.operationOf(u); op != nil && op.Live && !u.Disabled && op.Dependency != "" && NodeRetried(op.Factors) {
			return 1
		}
		for _, sub := range g.SubNodes(u, "") {
			if !seen[sub] {
				seen[sub] = true
				queue = append(queue, sub)
			}
		}
		for _, e := range g.Out(u) {
			if e.Type == ConnMain && !seen[e.To] && !g.dead(e) {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return 0
}
