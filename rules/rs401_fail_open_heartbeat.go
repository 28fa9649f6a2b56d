package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs401 = &analyze.Rule{
	ID:    "RS401",
	Name:  "fail-open-heartbeat",
	Title: "a heartbeat is sent only on the success path",
	Doc: `A progress or liveness signal ("heartbeat", "progress", "batch 3 of 10", "still running") posted to a
chat, a dashboard or a status URL only when a step succeeds fails open: when the work stalls, loops or
retries for hours, the signal simply stops, the last message stays green, and nobody is alerted by a
message that does not come. A dead-man's-switch service (Healthchecks.io / hc-ping.com, Cronitor, Better
Stack heartbeats, Uptime Kuma push, Dead Man's Snitch, Opsgenie or PagerDuty heartbeats) fails closed: it
alerts when the ping does not arrive in time. stormcheck does not report a workflow that already pings
one, nor a signal that also runs on an error path. A heartbeat is a signal that repeats: one sent inside a
loop, or a status post named as such in a scheduled workflow; a one-off message that mentions "progress"
(a welcome e-mail, a row of results) is not, nor a row that a scheduled run adds to a table (a "progress"
sheet of results) outside a loop.`,
	Fix:        "Ping a dead-man's-switch service when the work completes (it alerts when the ping is late), or also send the signal from the error path",
	FixDoc:     "None: a heartbeat that fires on failure needs a new branch in the workflow.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"observability"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		// Only a signal that repeats is reported (below): the others'
		// wording is not read, and a dead-man's switch anywhere is looked
		// for only once there is one.
		periodic := periodicReach(g)
		var beats []*n8nschema.Node
		var words []n8nschema.Heartbeat
		for _, n := range g.Nodes {
			if n.Disabled || !periodic.Has(n) && !g.InCycle(n) || !g.Reachable(n) {
				continue
			}
			// Outside a loop a word in a message is not reported (below):
			// only the name and the URL are read.
			read := n8nschema.HeartbeatNamed
			if g.InCycle(n) {
				read = n8nschema.HeartbeatOf
			}
			h, ok := read(n)
			if !ok {
				continue
			}
			if h.Switch != nil {
				return // a dead-man's switch watches the workflow
			}
			beats = append(beats, n)
			words = append(words, h)
		}
		if len(beats) == 0 {
			return
		}
		for _, n := range g.Nodes {
			if !n.Disabled && g.Reachable(n) && n8nschema.PingsSwitch(n) {
				return
			}
		}
		fromErr := errorReach(g)
		for i, n := range beats {
			if fromErr[n] {
				continue
			}
			// A heartbeat repeats: within the run (a loop reports batch
			// after batch) or run after run (a schedule). A message sent once
			// per submission or request that happens to say "progress" (a
			// welcome e-mail, a results row) is content, not a signal anyone
			// waits for; a word in a message counts only inside a loop.
			if !g.InCycle(n) && (words[i].Where == "message" || !periodic.Has(n) || recordsRow(n)) {
				continue
			}
			work := workBefore(pass, g, n)
			if work == nil {
				continue
			}
			pass.Report(analyze.Diagnostic{
				Node: n, Pos: n.Pos,
				Message: fmt.Sprintf("node %q sends a progress signal (%q in its %s) only after %q succeeds: when the work stalls or retries, the last report stays green and nothing alerts",
					n.Name, words[i].Word, words[i].Where, work.Name),
				Confidence: words[i].Conf,
			})
		}
	},
}

// tableStores are the nodes that keep rows: a row they add in a
// scheduled run (a "progress" sheet of results) is a record, not a
// signal that somebody watches for.
var tableStores = map[string]bool{"n8n-nodes-base.googleSheets": true, "n8n-nodes-base.airtable": true,
	"n8n-nodes-base.notion": true, "n8n-nodes-base.postgres": true, "n8n-nodes-base.mySql": true,
	"n8n-nodes-base.supabase": true, "n8n-nodes-base.nocoDb": true, "n8n-nodes-base.baserow": true,
	"n8n-nodes-base.microsoftExcel": true, "n8n-nodes-base.dataTable": true}

// recordsRow reports whether n adds a row to a table (append, create,
// insert, upsert).
func recordsRow(n *n8nschema.Node) bool {
	if !tableStores[strings.TrimSuffix(n.Type, "Tool")] {
		return false
	}
	write, op := n8nschema.WriteOp(n)
	if !write {
		return false
	}
	op = strings.ToLower(op)
	return strings.Contains(op, "append") || strings.Contains(op, "create") || strings.Contains(op, "insert") || strings.Contains(op, "upsert") || strings.Contains(op, "add")
}

// errorReach marks the nodes reachable from an error output or an Error
// Trigger along main connections.
func errorReach(g *analyze.Graph) map[*n8nschema.Node]bool {
	seen := map[*n8nschema.Node]bool{}
	var queue []*n8nschema.Node
	for _, e := range g.Edges {
		if e.Error && !seen[e.To] {
			seen[e.To] = true
			queue = append(queue, e.To)
		}
	}
	for _, n := range g.Nodes {
		if n.Type == n8nschema.TypeErrorTrigger && !seen[n] {
			seen[n] = true
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.OutOfType(u, analyze.ConnMain) {
			if !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return seen
}

// periodicReach marks the nodes that a schedule's executions run: their
// signals are expected at every tick. One walk from every schedule.
func periodicReach(g *analyze.Graph) analyze.Reach {
	var clocks []*n8nschema.Node
	for _, t := range g.Triggers() {
		if !t.Disabled && analyze.OnClock(t) {
			clocks = append(clocks, t)
		}
	}
	if len(clocks) == 0 {
		return analyze.Reach{} // most workflows: nothing to walk
	}
	return analyze.ReachFrom(g, clocks...)
}

// workBefore returns the nearest external or paid call upstream of n (the
// work the heartbeat reports on), or nil when there is none.
func workBefore(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node) *n8nschema.Node {
	calls := map[*n8nschema.Node]bool{}
	for _, op := range pass.Set.OperationsOf(pass.Workflow) {
		if op.Node != n {
			calls[op.Node] = true
			for _, r := range g.Roots(op.Node) {
				calls[r] = true
			}
		}
	}
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.InOfType(u, analyze.ConnMain) {
			if seen[e.From] {
				continue
			}
			if calls[e.From] {
				return e.From
			}
			seen[e.From] = true
			queue = append(queue, e.From)
		}
	}
	return nil
}
