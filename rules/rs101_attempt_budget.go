package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs101 = &analyze.Rule{
	ID:    "RS101",
	Name:  "attempt-budget",
	Title: "worst-case attempts per operation exceed the budget",
	Doc: `One logical operation (one HTTP request, one model call, one app API call that one item asks for) can
reach the wire many times once every layer that retries it multiplies: the node's own retryOnFail (up to 5
tries), the hidden retries of an SDK that retries on its own (7 for embeddings, whose LangChain AsyncCaller
retries 6 times; 3 for AWS Bedrock), the agent or chain re-running its model, the Execute Workflow node
re-running the whole sub-workflow, a tool retried per call. An agent's retry is no layer around its tools:
a tool's failure goes to the model as the tool's answer and never fails the agent (Agent v1 and v2 run
LangChain's AgentExecutor, which catches it; v3's engine runs the tool as a node of its own), so a vector
store tool's embeddings make their 7 attempts per call under any agent retry. The OpenAI node's Message a
Model does fail with its tool, and its retry repeats it. A chat model under a chain or an agent adds no
layer: n8n's failed-attempt handler stops LangChain's retries at the first failure, so it sends one request
per try of its root whatever its maxRetries option says (n8n 1.123, 2.8 and 2.41 alike;
@n8n/ai-utilities n8nLlmFailedAttemptHandler). 3 × 3 × 7 = 63 embedding requests for one item (an Execute
Workflow retry around a retried vector store) is how a short outage becomes a retry storm: a dependency
that is already failing receives many times its normal load, and every item of the batch is sent again.
The budget is --max-attempts (default 10). The message gives the fleet figure too: attempts × --items ×
--workers × --concurrency, the requests one burst of failures can put in flight against the dependency; a
node that runs its items one by one and throws at the first that fails (nearly every app node; not HTTP
Request, which sends every item first) counts 1 item, as its try ends there.
Unbounded operations are reported by RS102, RS103 and RS105 instead.
A node behind one that fails on every run (RS010's facts) is not reported: no run gets to it, and RS010
reports the node in front.`,
	Fix:       "Retry in one layer only: keep the innermost retry (the node's own, or the SDK's where it retries), and turn off retryOnFail on the agents, chains and Execute Workflow nodes around it",
	FixSafety: analyze.Safe,
	FixDoc: `Safe. Retry in one layer: the layer closest to the wire call stays (an SDK's own retries, else the
node's own retryOnFail) and every outer layer gets retryOnFail: false (the agent or chain root, the
Execute Workflow caller). An outer layer is turned off only when every call it retries keeps a retry layer of
its own, so no call loses its last retry; otherwise there is no repair. When the kept layer alone still
exceeds --max-attempts, its count is lowered (maxTries, or the SDK's maxRetries option; a model with no such
option has no repair). It changes retry settings only, never the data path, and only lowers attempts.`,
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"retries", "amplification"},
	Run: func(pass *analyze.Pass) {
		o := pass.Options
		budget := max(o.MaxAttempts, 1)
		g := pass.Set.Graph(pass.Workflow)
		for _, op := range pass.Set.OperationsOf(pass.Workflow) {
			if op.Unbounded || op.Attempts <= budget {
				continue
			}
			if _, behind := g.FailsBefore(op.Node); behind {
				continue // no run gets there: RS010 reports the node that fails first
			}
			items, itemWord := o.Items, countOf(o.Items, "item")
			if op.FirstFailureEndsTry && items > 1 {
				// Its items go one by one: the first that fails ends the try.
				items, itemWord = 1, fmt.Sprintf("1 item (of %d: the first failure ends each try)", o.Items)
			}
			fleet := op.Attempts
			for _, k := range []int{items, o.Workers, o.Concurrency} {
				fleet = analyze.MulSat(fleet, max(k, 1))
			}
			dep := op.Dependency
			if dep == "" {
				dep = "its endpoint"
			} else {
				dep = fmt.Sprintf("%q", dep)
			}
			out := outsideOf(op)
			d := analyze.Diagnostic{
				Node: op.Node, Pos: op.Node.Pos, Related: out.attemptsAt,
				Message: fmt.Sprintf("node %q makes up to %d attempts per logical operation%s, over the budget of %d; %d attempts × %s × %s × %d concurrency = %d requests in flight against %s",
					op.Node.Name, op.Attempts, paren(out.attempts), budget, op.Attempts, itemWord, countOf(o.Workers, "worker"), max(o.Concurrency, 1), fleet, dep),
				Chain:  op.Factors,
				Repair: func(r analyze.Repairer) (*analyze.Repair, error) { return r.RetryOwner(op) },
			}
			if op.Attempts >= 3*budget {
				d.Severity = analyze.Error
			}
			if !op.Spec.Known {
				d.Confidence = analyze.Medium
			}
			pass.Report(d)
		}
	},
}
