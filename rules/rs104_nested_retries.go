package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs104 = &analyze.Rule{
	ID:    "RS104",
	Name:  "nested-retries",
	Title: "more than one layer retries the same operation",
	Doc: `Retries compose by multiplication. When a node retries a call that its SDK already retries (a vector
store re-running embeddings that LangChain retries 7 times), or an Execute Workflow node retries a
sub-workflow whose nodes retry, or the OpenAI node's Message a Model, which fails with its tool, re-runs a
tool that retries on its own, one failure becomes
attempts × attempts requests, sent in a burst with fixed waits and no jitter between the layers. A chat
model is no layer of its own: n8n stops LangChain's retries at its first failure, so only the chain or agent
around it retries it. Nor is an agent's retry a layer around its tools: a tool's failure goes to the model
and never fails the agent, so the agent's retry never repeats it. Each layer was added for a good reason, but only the innermost one knows what failed
and how long to wait (LangChain reads Retry-After; n8n's node retry does not). Keep one. Where the
layers also exceed the attempt budget, RS101 reports the node once: the budget is its message, the layers
its chain.
A node behind one that fails on every run (RS010's facts) is not reported: no run gets to it, and RS010
reports the node in front.`,
	Fix:        "Keep one retry layer, the one closest to the call (the SDK's own retries, or the node's retryOnFail), and turn the outer ones off",
	FixSafety:  analyze.Safe,
	FixDoc:     "Safe: the repair of RS101 (one retry owner), whose rules apply here: outer layers off, the innermost kept, only when no call loses its last retry.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"retries", "amplification"},
	// Where RS101 fires too, its message (the budget) and chain (the
	// layers) say it all.
	FoldsInto: "RS101",
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		for _, op := range pass.Set.OperationsOf(pass.Workflow) {
			if _, behind := g.FailsBefore(op.Node); behind {
				continue // no run gets there: RS010 reports the node that fails first
			}
			isLayer := func(f analyze.Factor) bool {
				switch f.Kind {
				case analyze.KindNodeRetry, analyze.KindToolRetry, analyze.KindSDKRetry, analyze.KindRootRetry, analyze.KindCallerRetry:
					return !f.Unbounded && f.Value > 1
				}
				return false
			}
			// Counted before they are worded: most operations have one.
			n := 0
			for _, f := range op.Factors {
				if isLayer(f) {
					n++
				}
			}
			if n < 2 {
				continue
			}
			layers := make([]string, 0, n)
			for _, f := range op.Factors {
				if !isLayer(f) {
					continue
				}
				where := fmt.Sprintf("%q", f.Node)
				if f.OutsideOf(op.Workflow) {
					where += fmt.Sprintf(" of workflow %q", f.Workflow)
				}
				layers = append(layers, fmt.Sprintf("%s ×%d (%s)", strings.ReplaceAll(f.Kind, "-", " "), f.Value, where))
			}
			what := fmt.Sprintf("%d", op.Attempts)
			if op.Unbounded {
				what = "unbounded"
			}
			pass.Report(analyze.Diagnostic{Node: op.Node, Pos: op.Node.Pos, Chain: op.Factors, Related: outsideOf(op).attemptsAt,
				Message: fmt.Sprintf("node %q is retried by %d layers: %s; %s attempts per logical operation",
					op.Node.Name, len(layers), strings.Join(layers, ", "), what),
				Repair: func(r analyze.Repairer) (*analyze.Repair, error) { return r.RetryOwner(op) }})
		}
	},
}
