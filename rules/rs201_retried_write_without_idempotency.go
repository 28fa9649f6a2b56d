package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs201 = &analyze.Rule{
	ID:    "RS201",
	Name:  "retried-write-without-idempotency",
	Title: "a retried write carries no idempotency key",
	Doc: `A write (an HTTP POST or PATCH, or an app node's create, send, post, insert, update, upsert, charge or
delete) that is retried at any layer can commit more than once: an attempt that timed out on the client
may well have succeeded on the server, and the retry creates a second charge, order or message. n8n's
node retry makes it worse: it re-runs the whole node with all its items, so every item of the batch is
sent again, including those that had already succeeded (core/src/execution-engine/workflow-execute.ts,
n8n-semantics.md §3.3). An idempotency key (Idempotency-Key, X-Idempotency-Key, PayPal-Request-Id, a body
field such as Square's idempotency_key) derived from the item lets the server recognise the retry and
answer it with the first result. Only writes that leave a second effect when repeated are reported: POST
(not to search, lookup or conversion endpoints), PATCH and PUT (low confidence: PUT is idempotent by RFC
9110 and PATCH usually sets fields, but neither is guaranteed), and app operations that create, send, append or charge; updates,
upserts and deletes re-apply the same state. Calls into n8n's own webhooks are RS102's, and a write that
runs again only because a loop waits for a person's answer is not a retry. App nodes whose API takes no key (Slack, Gmail, SMTP) can only
be made safe by retrying in one place that checks for the earlier effect first.`,
	Bad: `{"name": "Create invoice", "type": "n8n-nodes-base.httpRequest", "retryOnFail": true, "maxTries": 5,
 "parameters": {"method": "POST", "url": "https://erp.example.com/api/invoices",
   "sendBody": true, "specifyBody": "json", "jsonBody": "={{ JSON.stringify($json) }}"}}`,
	Good: `{"name": "Create invoice", "type": "n8n-nodes-base.httpRequest", "retryOnFail": true, "maxTries": 3,
 "parameters": {"method": "POST", "url": "https://erp.example.com/api/invoices",
   "sendHeaders": true, "headerParameters": {"parameters": [
     {"name": "Idempotency-Key", "value": "={{ $json.order_id }}-invoice"}]},
   "sendBody": true, "specifyBody": "json", "jsonBody": "={{ JSON.stringify($json) }}"}}`,
	Fix:        "Send an idempotency key derived from the item (Idempotency-Key: {{ $json.order_id }}), or retry the write in one place that first checks whether it already happened",
	Severity:   analyze.Error,
	Confidence: analyze.High,
	Tags:       []string{"writes", "retries"},
	Run: func(pass *analyze.Pass) {
		for _, op := range liveOps(pass) {
			n := op.Node
			if !op.Write || !retried(op) || op.Paid {
				continue
			}
			if humanLoop(pass, op) && boundedPart(op) < 2 {
				continue // it runs again once per human answer, not on its own
			}
			dup, what, c := n8nschema.DuplicatingWrite(n)
			if !dup || selfWebhookCall(pass, n) {
				continue
			}
			if _, hb := n8nschema.HeartbeatOf(n); hb {
				continue // a duplicate progress report is harmless; RS401 speaks for heartbeats
			}
			if k, ok := n8nschema.IdempotencyKeyOf(n); ok {
				if st, _ := n8nschema.ClassifyKey(k.Value); st != n8nschema.KeyEmpty {
					continue // RS202 checks the key
				}
			}
			verb := "sends " + what
			if !n8nschema.IsWriteMethod(what) {
				verb = fmt.Sprintf("runs the write %q", what)
			}
			msg := fmt.Sprintf("node %q %s %s with no idempotency key; an attempt that timed out may already have committed",
				n.Name, verb, attemptsText(op))
			if k := ownRetries(op); k > 1 {
				msg += fmt.Sprintf(", and each of its %d tries re-sends every item of the batch", k)
			}
			pass.Report(analyze.Diagnostic{Node: n, Pos: n.Pos, Message: msg, Detail: what, Confidence: conf(c), Chain: op.Factors})
		}
	},
}
