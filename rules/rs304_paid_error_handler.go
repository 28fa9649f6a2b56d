package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs304 = &analyze.Rule{
	ID:    "RS304",
	Name:  "paid-error-handler",
	Title: "an error workflow or error branch makes paid calls",
	Doc: `An error workflow runs once per failed execution, and an error branch once per failed node run.
Failures come in storms: an expired credential, a provider outage or a rate limit fails every execution
at once, and a handler that asks a model to summarise each failure turns the outage into a bill. It also
fails itself for the same reason (the provider is down), so the summary rarely arrives when it matters.
Keep handlers cheap and deterministic: a chat or e-mail alert with the workflow, node and error message
is enough, and it works while the model provider is down.`,
	Fix:        "Replace the model call in the error path with a plain alert (workflow, node, error message, execution URL)",
	FixDoc:     "None: moving paid work out of an error handler changes what the handler does.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"spend", "errors"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		for _, op := range liveOps(pass) {
			if !op.Paid || !op.ErrorPath {
				continue
			}
			cost := ""
			if op.SpendKnown() {
				cost = fmt.Sprintf(", up to %s per failure", usd(op.SpendPerItemUSD))
			} else if op.SpendUnbounded {
				cost = ", with no bound per failure"
			}
			var msg string
			if len(op.ErrorFor) > 0 || g.FromErrorTrigger(op.Node) {
				who := "each failed execution"
				if len(op.ErrorFor) > 0 {
					var names []string
					for _, w := range op.ErrorFor {
						names = append(names, fmt.Sprintf("%q", w.Label()))
					}
					who = "each failed execution of " + strings.Join(names, ", ")
				}
				msg = fmt.Sprintf("node %q makes a paid model call (%s) in an error workflow, once for %s%s",
					op.Node.Name, modelText(op), who, cost)
			} else {
				msg = fmt.Sprintf("node %q makes a paid model call (%s) on an error path, once per failure of %s%s",
					op.Node.Name, modelText(op), failingNodes(g, op.Node), cost)
			}
			pass.Report(analyze.Diagnostic{Node: op.Node, Pos: op.Node.Pos, Message: msg, Chain: op.Factors})
		}
	},
}

// failingNodes names the nodes whose error outputs lead to n: `"Charge"`.
func failingNodes(g *analyze.Graph, n *n8nschema.Node) string {
	var names []string
	for _, e := range g.Edges {
		if e.Error && (e.To == n || reaches(g, e.To, n)) {
			names = append(names, fmt.Sprintf("%q", e.From.Name))
		}
	}
	if len(names) == 0 {
		return "an upstream node"
	}
	return strings.Join(names, ", ")
}
