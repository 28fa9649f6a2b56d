package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs202 = &analyze.Rule{
	ID:    "RS202",
	Name:  "unstable-idempotency-key",
	Title: "an idempotency key changes between attempts",
	Doc: `An idempotency key only deduplicates a retry when the retry sends the same key. A key built from the
time ($now, Date.now(), DateTime.now()), a random value (Math.random(), a fresh UUID) or $runIndex is new on
every attempt, because n8n evaluates the parameter again for each try; the server sees every retry as a
new request and the key protects nothing. $execution.id is stable across the node's own retries and nothing
else: every other way the write is sent again starts a new execution with a new id, so the key fails
exactly when it is needed. The workflow re-starts itself (a self-trigger or an error workflow that re-runs
it). A caller retries: each try of an Execute Workflow node (or a workflow tool, or a webhook call) starts
a new sub-execution (executeWorkflow in packages/cli/src/workflow-execute-additional-data.ts adds an
execution per call, and the node's retry calls it again). A person retries the failed
execution: n8n's Retry runs the node that failed again in a new execution whose retryOf is the old one
(retry in packages/cli/src/executions/execution.service.ts), and the node that failed is typically the
write whose last attempt timed out after the server committed it. The rule reports an execution-id key in
each of these places; it leaves it alone where only the node's retries can re-send the write: the node
continues on error (its failure does not fail the execution) and no caller retries, or the workflow keeps
no failed executions (settings.saveDataErrorExecution "none",
packages/cli/src/execution-lifecycle/to-save-settings.ts). A literal key is the opposite mistake: every item sends the same key, and the
server answers every item after the first with the first item's result. A stable key derives from the
item: an order id, a SKU, a hash of the payload.`,
	Fix:        "Derive the key from the item ({{ $json.order_id }}-charge), never from the time, a random value or the execution id",
	FixDoc:     "None: a stable key comes from the item's own identity (an order id), which stormcheck cannot name.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"writes", "retries"},
	Run: func(pass *analyze.Pass) {
		for op := range eachLiveOp(pass) {
			n := op.Node
			if !madeWrite(op) {
				continue
			}
			k, ok := n8nschema.IdempotencyKeyOf(n)
			if !ok {
				continue
			}
			st, why := n8nschema.ClassifyKey(k.Value)
			var msg string
			var related []analyze.Related
			switch {
			case st == n8nschema.KeyPerAttempt && op.Retried():
				out := outsideOf(op)
				msg = fmt.Sprintf("the %s %s of node %q uses %s, so each of its %s%s gets a new key and the server cannot tell a retry from a new request",
					k.Name.Name, keyWhere(k), n.Name, why, attemptsWord(op), paren(out.attempts))
				related = out.attemptsAt
			case st == n8nschema.KeyPerExecution && restartsItself(op):
				msg = fmt.Sprintf("the %s %s of node %q uses $execution.id, which changes when %s; the re-sent write gets a new key",
					k.Name.Name, keyWhere(k), n.Name, unboundedBy(op))
			case st == n8nschema.KeyPerExecution && analyze.ReExecuted(op) != "":
				msg = fmt.Sprintf("the %s %s of node %q uses $execution.id, which changes when %s; the re-sent write gets a new key",
					k.Name.Name, keyWhere(k), n.Name, analyze.ReExecuted(op))
			case st == n8nschema.KeyConstant:
				msg = fmt.Sprintf("the %s %s of node %q is a literal, the same for every item: the server treats every item after the first as a replay of it",
					k.Name.Name, keyWhere(k), n.Name)
			default:
				continue
			}
			pass.Report(analyze.Diagnostic{Node: n, Pos: k.Pos, Message: msg, Detail: k.Name.Name, Confidence: k.Name.Conf, Chain: op.Factors, Related: related})
		}
	},
}

// restartsItself reports whether the operation runs again in a new
// execution: a self-trigger or error-workflow cycle.
func restartsItself(op *analyze.Operation) bool {
	_, ok := factorOf(op, analyze.KindSelfTrigger)
	return ok || crossExecution(op)
}

// keyWhere names where a key travels: "header" or "field".
func keyWhere(k n8nschema.IdempotencyKey) string {
	if k.Name.Where == "header" {
		return "header"
	}
	return "field"
}
