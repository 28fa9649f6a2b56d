package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs103 = &analyze.Rule{
	ID:    "RS103",
	Name:  "unbounded-loop",
	Title: "a loop through an external call has no guard",
	Doc: `A cycle of connections inside one workflow that passes through an external call runs until the call
succeeds, and every pass gets a fresh retry budget: an error output wired back to the node's own input, or
an If that sends a 429 through a Wait and back to the request. When the dependency stays down, that is an
endless stream of requests (n8n issue #14807: an error output wired to the same HTTP node, 20k calls,
€270). n8n's executor does not stop graph cycles. A loop is bounded when an If, Switch or Filter in it
tests $runIndex or a counter (a field named like one, a number that a node of the loop steps by one, or
a flag that a Set node of the loop computes from $runIndex), when a Code node of the loop throws on a
counter stepped by one (the "try the next model" fallback, a count kept in the data or in workflow static
data), when a condition compares such a counter inside an expression ({{ $json.polls >= 40 }}), when a number stepped by a constant is
compared with a fixed limit, a count of what was fetched is compared with the total the response gives, or a
work list is drained (shift, pop) until it is empty, when a Code node sets a flag from such a counter that a
condition of the loop tests and the count really goes round (from the node's own previous output, workflow
static data, or its input through nodes that keep the items; a count read from a node that never carries it
starts from zero on every pass), when the loop goes round only to create what a look-up
did not find (an If tests for absence and its output leads to an app node's create, then the look-up again)
or to renew a session or token that a 404, a 401 or "invalid token" says is gone (a POST to …/startChat or
…/token that stops the run when it fails, then the call again with what it got), or when it is the
loop output of Loop Over Items (one pass per batch). A status poll that leaves on every terminal status it
tests (it loops back only on the statuses it names, it leaves on a failure as well as on success, or on a
status such as "ended" that ends a job whatever its outcome, as fal.ai's queue reports COMPLETED for a
failed request too, or on the done flag of a Google API's long-running operation, true once it is over,
failed or not; a model's verdict is no status; or, for a status that is a number, it goes round only
while the status is below a threshold, Number($json.status) >= 3 or {{ $json.error ? 4 : $json.status }} >= 3,
since job APIs number their statuses pending ones first, so every status from the threshold up leaves) ends
with the job and is a note; one that leaves only on success polls a failed job for ever, and the finding names the statuses it leaves on. A drain over a remote
query is a note too: each pass lists what is left (an HTTP GET, an SQL SELECT, an app's getAll), removes every
listed item by its id (a delete, a POST to …/{id}/trash, an SQL UPDATE of a column the SELECT filters on, a mark
as read of unread mail, a label added to mail listed without it), and the loop leaves when the list comes back empty (a condition tests emptiness or a
done flag, or the listing app node outputs no item for an empty list): the next query does not list what the
pass removed (Gmail's messages.list leaves out the trash), so the loop ends with the data, and a failed call
with no onError stops the execution rather than going round again. A loop that goes round only while a stored
time is recent is a note as well: a condition compares a date or timestamp from the data with the current time
($now, $today, Date.now(), DateTime.now()) and a fixed age (a debounce that goes round until the last message's
date is before $now.minus(15, 'seconds'), a deadline such as Date.now() - startedAt < 600000), and only the side that
holds while the time is recent goes back; the clock advances, so the test turns false for good (a loop that
goes back while the time is old goes round for ever, and one whose nodes read the clock themselves may refresh
the time). Severity follows what one trip costs: a trip that bills a model call (its own, an agent's
or chain's model, a called sub-workflow's), sends a message or repeats a write that leaves a second effect is an
error; a trip whose calls only read, re-apply one state or are refused as configured holds the execution and a
worker for ever but costs no money, a warning. A loop whose every
trip waits 30 s or more is a warning: it calls at most twice a minute. A loop that only a manual run reaches (a
Manual Trigger and no other enabled trigger leads to it, in a workflow no other workflow of the set calls) is a
note, as RS504 judges it: the person who clicked watches the run go round in the editor and can stop it. Loop Over Items with its done
output wired back to its own input never ends either (n8n issue #21817), when it runs a second time: its
first run sends the batch on the loop output and answers on done only when it runs again, so with the loop
output unwired nothing after done runs, and a cycle that only such a done output leads to (a nested Loop
Over Items hanging off the outer one's done) is dead work, not a loop. When the done output comes back through
nodes that hand each item on at once (a No Op, an Edit Fields; not a Wait) to a Loop Over Items v3 that does not reset, each
pass answers on done with every item it has processed plus the ones it is given again (processedItems =
processed + input, nodes-base SplitInBatches/v3/SplitInBatchesV3.node.js), so the items double until n8n runs
out of memory, within seconds (observed on n8n 2.41.1 with three items: the process died after ~20 s); a manual
run executes in n8n's main process, whose crash stops every execution it runs, so that is a warning even when
only a manual run reaches it. A loop that no trigger's run reaches is
not reported either (the node that should feed it has no outgoing connection, or only a dead output leads
to it): it never goes round, as RS010 leaves out a node no enabled trigger reaches; nor is one every path to
which passes a node that fails on every run (RS010's facts): no run gets there, and RS010 reports that node.
Two loops are not reported: a loop that fetches the next page (a node of the loop sets a page or cursor field
that the call sends, or the call's URL is the next-page link a response of the loop gave, such as the Graph
API's paging.next, which the last page leaves out) is
fan-out, reported by RS105 when nothing caps the pages, and a loop that waits for a person's answer on
each pass (a form, a Wait resumed by webhook or form, a send-and-wait message) runs only as often as
someone sends the work back. An agent wired as its own tool (an ai_tool connection back to itself, directly
or through other agent tools) recurses the same way: maxIterations bounds each level, nothing bounds the depth.
When the call fails on every pass (RS010's facts: a model its provider shut down) and its error output
leads only back to it, the loop never ends, and the finding says so. Where the workflow has no executionTimeout,
the only deadline n8n puts on an execution and unlimited unless set (EXECUTIONS_TIMEOUT=-1, @n8n/config
executions.config.ts), the finding says that nothing stops the loop but a person: RS504, which reports a call
that runs with no deadline, leaves to this rule a call whose only unbounded cause is a loop reported here.`,
	Fix:        "Add a guard to the loop: an If that tests {{ $runIndex }} (or a counter) against a small limit and leaves the loop with an error when it is reached, and set executionTimeout in the workflow settings",
	FixDoc:     "None: a loop needs an exit condition that fits its data; stormcheck cannot write one. A timeout would not remove the finding (the loop keeps no guard), so none is set here either.",
	Severity:   analyze.Error,
	Confidence: analyze.High,
	Tags:       []string{"loops"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		var costs map[*analyze.Loop]analyze.PassCost // decided once, for the first loop reported
		w := pass.Workflow
		// noDeadline says of a loop with no executionTimeout that nothing
		// else stops it (RS504 leaves the loop to this rule). It names no
		// repair: a repair removes its finding, and a timeout leaves the
		// loop unguarded.
		noDeadline := func(d *analyze.Diagnostic) {
			if w.Settings.ExecutionTimeout <= 0 {
				d.Message += "; the workflow has no executionTimeout, so nothing stops it but a person"
			}
		}
		for _, l := range g.Loops {
			if !g.Entered(l) {
				// No run gets there: nothing a trigger starts leads to it,
				// or a node before it fails on every run (RS010 reports it).
				continue
			}
			if msg, ok := boundedByData[l.Bound]; ok {
				n := l.Calls[0]
				pass.Report(analyze.Diagnostic{Node: n, Pos: n.Pos, Severity: analyze.Note, Detail: l.Bound,
					Message: fmt.Sprintf(msg, n.Name, loopPath(l.Nodes))})
				continue
			}
			if !l.Unbounded {
				continue
			}
			if l.DoneBack != nil {
				d := analyze.Diagnostic{Node: l.DoneBack, Pos: l.DoneBack.Pos, Detail: "done-back",
					Message: fmt.Sprintf("node %q sends its done output back to its own input: the loop starts over for ever", l.DoneBack.Name)}
				if analyze.DoneBackDoubles(l) {
					// It grows until n8n runs out of memory, within seconds:
					// the person who started it cannot stop it in time.
					d.Message += ", and each pass hands back every item it has processed with the ones it gets, so the items double until n8n runs out of memory, which stops every execution of the process"
					if watched(pass, d.Node) {
						d.Severity = analyze.Warning
						d.Message += " (a manual run executes in n8n's main process)"
					}
					pass.Report(d)
					continue
				}
				noDeadline(&d)
				byHand(pass, &d)
				pass.Report(d)
				continue
			}
			n := l.Calls[0]
			d := analyze.Diagnostic{Node: n, Pos: n.Pos,
				Message: fmt.Sprintf("node %q runs in a loop (%s) that no guard bounds: %q leads back to %q with no $runIndex or counter check",
					n.Name, loopPath(l.Nodes), l.Back.Name, l.Head.Name)}
			if l.Recursive {
				d.Message = fmt.Sprintf("node %q is wired as its own tool (%s): every call may call it again, and no depth limit stops the recursion",
					n.Name, loopPath(l.Nodes))
			}
			if len(l.LeavesOnly) > 0 {
				q := make([]string, len(l.LeavesOnly))
				for i, s := range l.LeavesOnly {
					q[i] = strconv.Quote(s)
				}
				d.Message += "; it leaves only on the status " + strings.Join(q, " or ") + ", so a job that ends otherwise (failed, cancelled) polls for ever"
			}
			for _, op := range pass.Set.OperationsOf(pass.Workflow) {
				if op.Node == n {
					d.Chain = op.Factors
				}
			}
			if l.WaitS >= 30 {
				// Spaced polls cost one call per wait, not a flood.
				d.Severity = analyze.Warning
			}
			if !watched(pass, n) {
				if costs == nil {
					costs = pass.Set.LoopPassCosts(pass.Workflow)
				}
				switch c := costs[l]; c.Kind {
				case "":
					// A pass that only reads (or calls what is refused)
					// holds a worker, not money: the execution never ends.
					d.Severity = analyze.Warning
					d.Message += ": no pass bills, sends or leaves a second record, so the execution holds a worker, not money"
				default:
					d.Message += fmt.Sprintf(": every pass %s (%q)", passCostWords[c.Kind], c.Node.Name)
				}
			}
			noDeadline(&d)
			if _, back := errorsLoopBack(g, n); back {
				if _, fails := g.FailsWhy(n); fails {
					// Not a loop that may end: every pass is refused.
					d.Message += fmt.Sprintf("; %q fails on every call (RS010), so every pass goes round again and the loop never ends", n.Name)
				}
			}
			byHand(pass, &d)
			pass.Report(d)
		}
	},
}

// boundedByData are the notes for loops that end with what they read, by
// Loop.Bound: a poll ends when the job it polls does, failed or not; a
// drain ends when each pass has removed what it listed; a wait for a
// stored time to grow old ends with the clock.
var boundedByData = map[string]string{
	"status": "node %q polls in a loop (%s) that ends on every terminal status it tests, failures included, but no guard caps the passes if the job never ends",
	"drain":  "node %q runs in a loop (%s) that lists items, takes each out of the next list by its id and leaves when the list comes back empty: it ends when the data is drained, but no guard caps the passes",
	"time":   "node %q runs in a loop (%s) that goes round only while a stored time is younger than a fixed age against the current time: the clock ends it, but no guard caps the passes",
}

// passCostWords say what one pass of a loop leaves, by PassCost.Kind.
var passCostWords = map[string]string{
	"spend":   "bills a model call",
	"message": "sends a message to people",
	"write":   "repeats a write",
}

// byHand makes d a note when only a manual run reaches its node: the
// person who clicked watches the run go round in the editor and stops it,
// as RS504 judges the same loop.
func byHand(pass *analyze.Pass, d *analyze.Diagnostic) {
	if watched(pass, d.Node) {
		d.Severity = analyze.Note
		d.Message += " (only a manual run reaches it: the person who started it watches it go round)"
	}
}
