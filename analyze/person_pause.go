package analyze

import (
	"slices"

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
// (scheduledRuns, ClockTicksOf). The runs' calls before the pause overlap
// as the schedule's ticks and what the rest of the run takes decide
// (RunWorstMS leaves the pause out); the calls after it come as the person
// answers (ResumedCalls).
func pausesForPerson(st SlowStep) bool {
	return st.Unbounded && st.Node != nil && !st.Node.Disabled && n8nschema.HumanGate(st.Node)
}

// pauseSides walks what runs started at starts reach, along main
// connections that can carry an item (an edge that never does, dead, is
// not followed: nothing behind it runs) and to the sub-nodes of every
// root: before holds what a run reaches before it pauses for a person
// (n8nschema.HumanGate, enabled, not one of starts), the pausing nodes
// included; after what it reaches once a person's answer resumes it. A
// node on both sides (a branch that passes no pause leads to it, and
// one that does) is in both. One walk of at most two visits per node
// serves BeforePause and ResumedCalls, so that they cannot disagree.
func pauseSides(g *Graph, starts []*n8nschema.Node) (before, after Reach) {
	before, after = g.newReach(), g.newReach()
	type visit struct {
		n     *n8nschema.Node
		after bool
	}
	queue := make([]visit, 0, len(starts))
	see := func(n *n8nschema.Node, late bool) {
		side := &before
		if late {
			side = &after
		}
		if side.add(n) {
			queue = append(queue, visit{n, late})
		}
	}
	for _, t := range starts {
		see(t, false)
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, s := range g.SubNodes(v.n, "") {
			see(s, v.after)
		}
		late := v.after || !v.n.Disabled && n8nschema.HumanGate(v.n) && !slices.Contains(starts, v.n)
		for _, e := range g.Out(v.n) {
			if e.Type == ConnMain && !g.dead(e) {
				see(e.To, late)
			}
		}
	}
	return before, after
}

// ResumedCalls is, for a workflow its schedules start, the dependencies
// (DependencyIdentity) its runs call under n8n's retry (NodeRetried) once
// a person's answer resumes them: after a pause for a person (HumanGate: a
// send-and-wait message, a Wait for a webhook or a form; pauseSides). The
// person answers one parked run at a time, as a person's trigger starts
// one execution at a time (OnePersonPaces), so the resumed runs call each
// of these one after another, beside the runs the ticks start: one
// execution more for each, and for no other dependency. Nil when none.
func ResumedCalls(s *Set, w *n8nschema.Workflow) map[string]bool {
	g := s.Graph(w)
	k := g.sortedTriggers()
	if len(k.clock) == 0 {
		return nil
	}
	_, after := pauseSides(g, k.clock)
	var out map[string]bool
	for _, n := range after.Nodes() {
		op := s.operationOf(n)
		if op == nil || !op.Live || n.Disabled || op.Dependency == "" || op.Spec == nil || !NodeRetried(op.Factors) {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[DependencyIdentity(op)] = true
	}
	return out
}
