package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A Webhook wired into the same first nodes as a Schedule Trigger of its
// workflow runs the scheduled job now: the nodes it feeds are written for
// the schedule's item (a timestamp and the date's parts:
// nodes-base/nodes/Schedule/ScheduleTrigger.node.js emits {timestamp,
// "Readable date", …}), so they take nothing from the request, and a
// person calls it when the job should not wait for its hour. Its runs come
// one at a time, when someone wants them.

// runsNow reports whether webhook t runs a schedule's job now: every node
// its main outputs feed (a Respond to Webhook aside) is run by an enabled
// schedule of the workflow too, and none of those nodes reads the request
// body. Read once per webhook of the graph.
func (g *Graph) runsNow(t *n8nschema.Node) bool {
	g.runNowOnce.Do(func() {
		g.runNow = map[*n8nschema.Node]bool{}
		var schedules []*n8nschema.Node
		for _, tr := range g.Triggers() {
			if !tr.Disabled && OnClock(tr) {
				schedules = append(schedules, tr)
			}
		}
		if len(schedules) == 0 {
			return
		}
		reach := g.walk(false, schedules)
		for _, tr := range g.Triggers() {
			if tr.Type == n8nschema.TypeWebhook {
				g.runNow[tr] = feedsOnly(g, tr, reach)
			}
		}
	})
	return g.runNow[t]
}

// feedsOnly reports whether the nodes t's main outputs feed (but a
// Respond to Webhook) are all in reach, at least one, and none reads t's
// request body.
func feedsOnly(g *Graph, t *n8nschema.Node, reach Reach) bool {
	fed := false
	for _, e := range g.Out(t) {
		if e.Type != ConnMain || e.To.Disabled || e.To.Type == n8nschema.TypeRespondToWebhook {
			continue
		}
		if !reach.Has(e.To) || readsRequest(e.To, t) {
			return false
		}
		fed = true
	}
	return fed
}

// readsRequest reports whether a node reads the body of t's request, in
// an expression or in code.
func readsRequest(n, t *n8nschema.Node) bool {
	found := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		if found || v.Kind() != n8nschema.String || !strings.Contains(v.Str(), "body") {
			return true
		}
		x := readPaths(v.Str())
		found = readsBody(x, t) || strings.Contains(x, "json.body")
		return true
	})
	return found
}
