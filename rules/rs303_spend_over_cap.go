package rules

import (
	"cmp"
	"fmt"
	"math"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs303 = &analyze.Rule{
	ID:    "RS303",
	Name:  "spend-over-cap",
	Title: "worst-case spend passes a declared spend cap",
	Doc: `.stormcheck.yaml can declare a provider's hard spend limit (spend.caps: provider, usd, period day or
execution). A cap bounds spend, but reaching it is an outage of its own: the provider rejects every call on
that key until the period ends, including the calls of unrelated workflows. stormcheck compares the worst case
of one execution (worst case per item × --items) with each cap that applies (for a daily cap, times the runs a
day of a schedule trigger), and says how many items exhaust the cap at worst. An operation with no other bound
reaches any cap: one item is enough.
A call on n8n's free OpenAI API credits (the managed credential n8n names "n8n free OpenAI API credits") is
left out: it costs the owner nothing, and once the allowance is used n8n refuses every call (docs/n8n-facts.md).`,
	Fix:        "Cap output tokens, retries and iterations so that a full execution stays under the cap, or raise the cap deliberately",
	FixDoc:     "None: which call to make cheaper, or which cap to raise, is a budget decision.",
	Severity:   analyze.Error,
	Confidence: analyze.Medium,
	Tags:       []string{"spend"},
	Run: func(pass *analyze.Pass) {
		items := max(pass.Options.Items, 1)
		for op := range eachLiveOp(pass) {
			if !op.OwnerPays() {
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
			out := outsideOf(op)
			if op.SpendUnbounded {
				pass.Report(analyze.Diagnostic{
					Node:     op.Node,
					Pos:      op.Node.Pos,
					Severity: analyze.Warning,
					Message: fmt.Sprintf("node %q (%s) has no spend bound but the declared %s cap of %s per %s: %s%s, so at worst one item exhausts the cap",
						op.Node.Name, modelText(op), c.Provider, usd(c.USD), period, unboundedBy(op), paren(out.why())),
					Chain:   op.Factors,
					Related: out.related(),
				})
				continue
			}
			perExec, known := op.SpendPerExecution(pass.Options)
			if !known || op.SpendPerItemUSD <= 0 {
				continue
			}
			total, daily := perExec, ""
			if period == "day" {
				if runs := runsPerDay(pass.Set.Graph(pass.Workflow)); runs > 1 {
					total = perExec * float64(runs)
					daily = fmt.Sprintf(", %s a day at %d runs a day", usd(total), runs)
				}
			}
			if total <= c.USD {
				continue
			}
			exhaust := int(math.Ceil(c.USD / op.SpendPerItemUSD))
			pass.Report(analyze.Diagnostic{
				Node: op.Node, Pos: op.Node.Pos,
				Message: fmt.Sprintf("worst-case spend of node %q (%s) is %s %s%s, %s for %d %s%s, over the declared %s cap of %s per %s; %d %s exhaust it",
					op.Node.Name, modelText(op), usd(op.SpendPerItemUSD), out.perItem, paren(out.why()), usd(perExec), items, plural(items, "item", "items"), daily,
					c.Provider, usd(c.USD), period, exhaust, plural(exhaust, "item", "items")),
				Chain:   op.Factors,
				Related: out.related(),
			})
		}
	},
}

// runsPerDay is how many executions a day the workflow's schedule
// triggers start: Schedule Trigger rule.interval[] (field
// seconds/minutes/hours with defaults 30, 5 and 1; days and longer count
// once), legacy Cron triggerTimes.item[] and Interval. 1 when the
// workflow has no schedule or it cannot be read (a cron expression).
func runsPerDay(g *analyze.Graph) int {
	runs := 0
	for _, t := range g.Triggers() {
		if t.Disabled {
			continue
		}
		switch t.Type {
		case n8nschema.TypeScheduleTrigger:
			iv, _ := t.Param("rule.interval")
			for _, e := range iv.ElemsSeq() {
				runs += perDay(e.Get("field").Str(), e, map[string]string{"seconds": "secondsInterval", "minutes": "minutesInterval", "hours": "hoursInterval"})
			}
		case n8nschema.TypeCron:
			items, _ := t.Param("triggerTimes.item")
			for _, e := range items.ElemsSeq() {
				switch e.Get("mode").Str() {
				case "everyMinute":
					runs += 1440
				case "everyHour":
					runs += 24
				case "everyX":
					runs += perDay(e.Get("unit").Str(), e, map[string]string{"minutes": "value", "hours": "value"})
				default:
					runs++
				}
			}
		case n8nschema.TypeInterval:
			// Interval: interval (default 1) of unit (default seconds).
			unit, _ := t.Param("unit")
			every := 1.0
			if v, ok := t.Param("interval"); ok {
				if f, ok := v.Num(); ok && f >= 1 {
					every = f
				}
			}
			day := map[string]float64{"seconds": 86400, "minutes": 1440, "hours": 24}[cmp.Or(unit.Str(), "seconds")]
			runs += max(int(day/every), 1)
		}
	}
	return max(runs, 1)
}

// perDay converts one interval to runs a day.
func perDay(field string, v n8nschema.Value, param map[string]string) int {
	defaults := map[string]float64{"seconds": 30, "minutes": 5, "hours": 1}
	perDay := map[string]float64{"seconds": 86400, "minutes": 1440, "hours": 24}
	day, ok := perDay[field]
	if !ok {
		return 1
	}
	every := defaults[field]
	if p := param[field]; p != "" {
		if f, ok := v.Get(p).Num(); ok && f >= 1 {
			every = f
		}
	}
	return max(int(day/every), 1)
}
