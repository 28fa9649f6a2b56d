package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs504 = &analyze.Rule{
	ID:    "RS504",
	Name:  "no-deadline",
	Title: "retries or loops run with no deadline that stops them",
	Doc: `settings.executionTimeout is the only deadline n8n puts on an execution, and it is unlimited unless set
(EXECUTIONS_TIMEOUT=-1, @n8n/config executions.config.ts). A workflow whose calls can run without bound
(an unguarded loop, a self-restart, unlimited pagination) and has no executionTimeout runs until someone
stops it; a call whose only unbounded cause is an unguarded loop a run enters is left to RS103, which reports
the loop and says that no executionTimeout stops it. Where a timeout is set, it is soft: n8n checks it before each node starts, so a node that is
retrying finishes all its attempts first. stormcheck does the arithmetic per call: attempts × the
per-attempt timeout (HTTP Request's runtime default is 300 s, OpenAI-family models' 60 s) plus the waits
between node retries, and reports a call whose worst case alone is longer than the workflow's timeout. A
self-restart starts a new execution each time, which no executionTimeout stops: RS102 reports it, and
this rule says that nothing else will. Where the restart reaches the call only past an If, Switch, Filter or
classifier of the cycle, it is not reported: the restarted run repeats the call only if its item takes that
way, which the data decides (a Slack bot's own post, which restarts a workflow on a Slack Trigger, may fail the
test for files or text a person's message passes), and RS102, which names the gate, is the finding. A loop that waits for a person on every trip is not reported,
nor one whose counter, stepped by one on every trip, a Code node checks by throwing, nor one a condition
bounds: a number stepped by a constant and compared with a fixed limit, a work list drained until empty
(in memory, or a remote list whose every item each pass removes by id until the list comes back empty, as
RS103 says), nor a status poll that leaves on every terminal status, nor a loop that goes round only while a
stored time is younger than a fixed age against the current time, nor pagination that follows the response's
next-page cursor. Where only people start the workflow (a chat, a
messaging bot, a form, a link opened in a browser, or a booking or form service that relays one person's
action, such as a Calendly or Typeform webhook) or only a Manual Trigger reaches the call in a workflow no other workflow of the set calls (the person who
clicked watches the run in the editor; a caller starts a sub-workflow's Manual Trigger with nobody watching), the finding is a note: runs come one person at a time, and
a person who waits for the answer sees it hang. A sub-workflow is paced by what runs the nodes that call it
(Execute Workflow, a workflow tool) in the workflows audited with it: one that only such workflows call is a
note too, and one whose callers are not in the audit is not known to be. Each run of a sub-workflow is an
execution of its own, whose executionTimeout counts from its start (n8n/dist/workflow-execute-additional-data.js,
executeWorkflow): the attempts its callers add (a caller's retry, loop or agent) are not counted against it, and
a loop of a caller runs the sub-workflow a bounded number of times in each of its executions.`,
	Fix:       "Set executionTimeout in the workflow settings, and keep attempts × per-attempt timeout + waits of each call well under it",
	FixSafety: analyze.Unsafe,
	FixDoc: `Unsafe (--unsafe-fixes): it stops executions that run long. For a workflow with no executionTimeout and a
call that can run without bound, it sets settings.executionTimeout to the sum over the workflow's bounded calls of
attempts × per-attempt timeout + the waits between node retries (what one execution can take when every call fails
slowly), at most 3600 s (n8n's default EXECUTIONS_TIMEOUT_MAX), or 3600 s when no call has a known timeout. It is
not offered when one bounded call alone needs more than 3600 s. A timeout stops one execution; it does not stop a
workflow that re-starts itself in a new execution (RS102).`,
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"timeouts", "retries"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		limit := w.Settings.ExecutionTimeout
		ops := liveOps(pass)
		if limit <= 0 {
			// One finding per workflow, on the call that matters most:
			// paid first, then writes, then the first in the file.
			var op *analyze.Operation
			var reported map[[2]string]bool
			for _, o := range ops {
				if !unboundedInOneRun(o) {
					continue
				}
				if reported == nil {
					reported = reportedLoops(pass)
				}
				if inReportedLoopsOnly(o, reported) {
					// RS103 reports the loop, and says that no
					// executionTimeout stops it: one loop, said once.
					continue
				}
				if gatedInOneRun(o) {
					// Only a restart behind a content gate may repeat it:
					// whether the restarted runs take its way is the
					// data's, and RS102 reports the loop, which a timeout
					// would not stop either (each restart is a new
					// execution).
					continue
				}
				if op == nil || rank(o) > rank(op) {
					op = o
				}
			}
			if op != nil {
				// The causes one execution has: its own factors.
				own := *op
				own.Factors = ownFactors(op)
				op = &own
				extra := ""
				if crossExecution(op) {
					extra = ", and each restart is a new execution that a timeout would not stop either"
				}
				sev := analyze.Severity(0)
				if !crossExecution(op) && (analyze.PersonPaced(analyze.PacesWithCallers(pass.Set, w), op.Node) || watched(pass, op.Node)) {
					sev = analyze.Note // the person who started it sees it hang
				}
				pass.Report(analyze.Diagnostic{Severity: sev,
					Node: op.Node, Pos: op.Node.Pos,
					Message: fmt.Sprintf("the workflow has no executionTimeout and node %q can run without bound (%s); nothing stops it but a person%s",
						op.Node.Name, unboundedBy(op), extra),
					Detail: "unbounded",
					Chain:  op.Factors,
					Repair: func(r analyze.Repairer) (*analyze.Repair, error) { return r.ExecutionTimeout(w) },
				})
			}
			return
		}
		for _, op := range ops {
			if ownUnbounded(op) {
				continue
			}
			per, ok := analyze.AttemptTimeoutMS(op)
			attempts := attemptsInOneRun(op)
			if !ok || attempts < 2 {
				continue
			}
			waits := (op.OwnRetries() - 1) * analyze.RetryWaitMS(op.Node)
			total := attempts*per + waits
			if float64(total) <= limit*1000 {
				continue
			}
			pass.Report(analyze.Diagnostic{
				Node: op.Node, Pos: op.Node.Pos,
				Message: fmt.Sprintf("node %q can take %d s at worst (%d attempts × %d s timeout + %d s of waits), longer than the workflow's executionTimeout of %d s, which n8n checks only before a node starts",
					op.Node.Name, total/1000, attempts, per/1000, waits/1000, int(limit)),
				Detail: "over",
				Chain:  ownFactors(op),
				Repair: func(analyze.Repairer) (*analyze.Repair, error) {
					return nil, analyze.Unrepairable("the workflow has a timeout that the calls outlast: which to change, the timeout or the calls, is a decision")
				},
			})
		}
	},
}

// rank orders calls by what an unbounded run of them costs.
func rank(op *analyze.Operation) int {
	switch {
	case op.Paid:
		return 2
	case op.Write:
		return 1
	}
	return 0
}

// unboundedInOneRun reports an operation that one execution of its
// workflow may run without bound: an unbounded factor of its own (a
// caller's loop or retry starts a new execution each time,
// attemptsInOneRun), or calls per item with no bound (which may be its
// own: an agent's rounds, pagination; a caller's fan is not told apart).
func unboundedInOneRun(op *analyze.Operation) bool {
	return ownUnbounded(op) || op.CallsUnbounded && !op.DataBound
}

// gatedInOneRun reports an operation that one execution runs without
// bound only through a restart behind a gate (restartGate): the
// restarted runs repeat it only if they take the gate's way.
func gatedInOneRun(op *analyze.Operation) bool {
	if op.CallsUnbounded && !op.DataBound {
		return false
	}
	own := *op
	own.Factors = ownFactors(op)
	return restartGate(&own) != ""
}

// ownUnbounded reports an unbounded factor of op's own workflow.
func ownUnbounded(op *analyze.Operation) bool {
	for _, f := range op.Factors {
		if f.Unbounded && !f.OutsideOf(op.Workflow) {
			return true
		}
	}
	return false
}

// ownFactors are the factors of op's chain that one execution of its
// workflow multiplies (attemptsInOneRun).
func ownFactors(op *analyze.Operation) []analyze.Factor {
	var out []analyze.Factor
	for _, f := range op.Factors {
		if !f.OutsideOf(op.Workflow) {
			out = append(out, f)
		}
	}
	return out
}

// attemptsInOneRun is how many of an operation's attempts one execution of
// its workflow makes: the attempts its callers add (a caller's retry, loop
// or agent) each start a new execution of the sub-workflow, whose deadline
// counts from that execution's start (n8n 2.41.1
// n8n/dist/workflow-execute-additional-data.js, executeWorkflow:
// determineWorkflowDeadline(startTime, workflowSettings, …)).
func attemptsInOneRun(op *analyze.Operation) int {
	n := 1
	for _, f := range ownFactors(op) {
		n = analyze.MulSat(n, max(f.Value, 1))
	}
	return n
}
