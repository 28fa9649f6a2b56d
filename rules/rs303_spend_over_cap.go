package rules

import (
	"fmt"
	"math"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs303 = &analyze.Rule{
	ID:    "RS303",
	Name:  "spend-over-cap",
	Title: "worst-case spend passes a declared spend cap",
	Doc: `.stormcheck.yaml can declare a provider's hard spend limit (spend.caps: provider, usd, period day or
execution). A cap bounds spend, but reaching it is an outage of its own: the provider rejects every call
on that key until the period ends, including the calls of unrelated workflows. stormcheck compares the
worst case of one execution (worst case per item × --items) with each cap that applies, and says how
many items exhaust the cap at worst. An operation with no other bound reaches any cap: one item is
enough.`,
	Bad: `spend: {caps: [{provider: openai, usd: 20, period: day}]}
"OpenAI Chat Model": gpt-4o, no maxTokens, 3 SDK attempts, agent maxIterations 10
stormcheck audit --items 500 ...   # 500 items × $4.92 worst case = $2458`,
	Good: `"OpenAI Chat Model": gpt-4o-mini, maxTokens 400; agent maxIterations 4
worst case per item 4 × 3 × 400 × $0.60/1M = $0.003; 500 items = $1.44, under the $20 cap`,
	Fix:        "Cap output tokens, retries and iterations so that a full execution stays under the cap, or raise the cap deliberately",
	Severity:   analyze.Error,
	Confidence: analyze.Medium,
	Tags:       []string{"spend"},
	Run: func(pass *analyze.Pass) {
		items := max(pass.Options.Items, 1)
		for _, op := range liveOps(pass) {
			if !op.Paid {
				continue
			}
			c, ok := analyze.SpendCapFor(pass.Options, providers(op)...)
			if !ok || c.USD <= 0 {
				continue
			}
			period := c.Period
			if period == "" {
				period = "day"
			}
			if op.SpendUnbounded {
				pass.Report(analyze.Diagnostic{
					Node:     op.Node,
					Pos:      op.Node.Pos,
					Severity: analyze.Warning,
					Message: fmt.Sprintf("node %q (%s) has no spend bound but the declared %s cap of %s per %s: %s, so at worst one item exhausts the cap",
						op.Node.Name, modelText(op), c.Provider, usd(c.USD), period, unboundedBy(op)),
					Chain: op.Factors,
				})
				continue
			}
			perExec, known := op.SpendPerExecution(pass.Options)
			if !known || perExec <= c.USD {
				continue
			}
			exhaust := int(math.Ceil(c.USD / op.SpendPerItemUSD))
			pass.Report(analyze.Diagnostic{
				Node: op.Node, Pos: op.Node.Pos,
				Message: fmt.Sprintf("worst-case spend of node %q (%s) is %s per item, %s for %d %s, over the declared %s cap of %s per %s; %d %s exhaust it",
					op.Node.Name, modelText(op), usd(op.SpendPerItemUSD), usd(perExec), items, plural(items, "item", "items"),
					c.Provider, usd(c.USD), period, exhaust, plural(exhaust, "item", "items")),
				Chain: op.Factors,
			})
		}
	},
}
