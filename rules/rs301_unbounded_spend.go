package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs301 = &analyze.Rule{
	ID:    "RS301",
	Name:  "unbounded-spend",
	Title: "a paid call has no bound on its worst-case spend",
	Doc: `A model call bills for every attempt, whether the answer arrives or not. When its attempts or its
calls per item have no upper bound (the workflow re-starts itself, an error output loops back, an agent or
a pagination has no limit), nothing bounds what one bad night costs: the loop runs until someone notices
or the provider's own limit stops it, which also stops every other workflow on that key. Where the workflow
re-starts itself once per failed item (RS102), the trips multiply: each trip's attempts are paid once per
execution, and the executions grow threefold per trip with three failed items. A
restart that reaches the call only past an If, Switch, Filter or classifier of the cycle is a warning, with the
condition in its words: the restarted run repeats the call only if its item takes that way (a Slack bot's own post
may fail the test a person's message passes), which stormcheck cannot tell. A workflow's
executionTimeout bounds a loop inside one execution, so such loops are not reported when one is set; it
cannot bound a self-trigger, because every trip is a new execution. Declaring the provider's hard spend
limit in .stormcheck.yaml (spend.caps) tells stormcheck the spend is bounded by that cap; RS303 then
reports how fast it is reached. A loop that waits for a person on every trip (a Wait resumed by a form or
webhook, a "send and wait for response") is not reported: it runs at the pace of the answers; nor is
one that waits an hour or more on every trip (a scheduler), nor one whose counter, stepped by one on
every trip, a Code node checks by throwing (the "try the next model" fallback), nor one a condition
bounds beyond a $runIndex test: a number stepped by a constant and compared with a fixed limit, a work
list drained (shift, pop) until it is empty, or a status poll that leaves on every terminal status. Where
only people start the workflow (a chat, a messaging bot, a form, a link opened in a browser, or a booking,
form or meeting-recorder service that relays one person's action or meeting), a loop inside one execution is a warning: it runs one at a
time, and a person who waits for the answer sees it go silent.
A call on n8n's free OpenAI API credits (the managed credential n8n names "n8n free OpenAI API credits") is
left out: it costs the owner nothing, and once the allowance is used n8n refuses every call (docs/n8n-facts.md).`,
	Fix:        "Remove the loop or self-restart around the paid call, bound it with a guard ($runIndex) and an executionTimeout, and declare the provider's hard spend limit in .stormcheck.yaml",
	FixDoc:     "None: bounding spend needs a decision about what to stop (a cap, a guard on the loop).",
	Severity:   analyze.Error,
	Confidence: analyze.High,
	Tags:       []string{"spend"},
	Run: func(pass *analyze.Pass) {
		timeout := pass.Workflow.Settings.ExecutionTimeout
		var paces map[*n8nschema.Node]uint8
		for op := range eachLiveOp(pass) {
			if !op.OwnerPays() || !op.SpendUnbounded {
				continue
			}
			if _, capped := analyze.SpendCapFor(pass.Options, providers(op)...); capped {
				continue // RS303
			}
			if timeout > 0 && !crossExecution(op) {
				continue // the deadline bounds a loop inside one execution
			}
			loop := unboundedLoopOf(pass, op)
			if loop != nil && loop.Paced {
				continue // a long Wait paces it: spend is bounded per day
			}
			per := ""
			if op.MaxOutputTokens > 0 {
				per = fmt.Sprintf("; each attempt bills up to %d output tokens", op.MaxOutputTokens)
				if p, ok := analyze.PriceOf(op.BilledModel(), pass.Options); ok {
					per += fmt.Sprintf(" (%s)", usd(float64(op.MaxOutputTokens)*p.OutputPerM/1e6))
				}
			}
			trip := ""
			if !op.Unbounded || len(op.Factors) > 0 {
				if k := boundedPart(op); k > 1 {
					trip = fmt.Sprintf(", %d attempts per trip", k)
				}
			}
			if c := selfTriggerCall(pass.Set, op); restartsPerItem(c) {
				trip += ", " + perItemGrowth(pass.Set, c)
			}
			sev := analyze.Severity(0)
			if restartGate(op) != "" && !(op.CallsUnbounded && !op.DataBound) {
				// The restarted runs repeat it only if they take the gate's way.
				sev = analyze.Warning
			}
			if !crossExecution(op) {
				if paces == nil {
					paces = analyze.Paces(pass.Set.Graph(pass.Workflow))
				}
				if analyze.PersonPaced(paces, op.Node) {
					// One run at a person's pace, who sees it go silent.
					sev = analyze.Warning
				}
			}
			// A pass repeats the calls of the roots on the loop, not those
			// of a root before or after it.
			out := outsideIn(op, loop)
			pass.Report(analyze.Diagnostic{Severity: sev,
				Node: op.Node, Pos: op.Node.Pos,
				Message: fmt.Sprintf("paid call in node %q (%s) has no spend bound: %s%s%s%s, and no spend cap is declared",
					op.Node.Name, modelText(op), unboundedBy(op), paren(out.why()), trip, per),
				Chain: op.Factors, Related: out.related(),
			})
		}
	},
}
