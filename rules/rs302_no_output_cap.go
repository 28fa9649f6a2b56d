package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// nonTextResources of the OpenAI app node bill per image, second or file,
// not per output token (vendors/OpenAi/v1/actions: image, audio, file); its
// assistant resource has no max-tokens option to set (the message
// operation offers maxRetries, timeout and preserveOriginalTools only,
// vendors/OpenAi/v1/actions/assistant/message.operation.ts).
var nonTextResources = map[string]bool{"image": true, "audio": true, "file": true, "video": true, "assistant": true}

var rs302 = &analyze.Rule{
	ID:    "RS302",
	Name:  "no-output-cap",
	Title: "a paid model call has no max-tokens bound",
	Doc: `Without a max-tokens parameter a model call may generate up to the model's ceiling (16,384 output tokens
for gpt-4o, more for reasoning models), and output tokens are the expensive ones. Every retry layer multiplies
it: n8n's node retry, the chain or agent re-running its model (a chat model itself sends one request per try:
n8n stops LangChain's retries at the first failure), an agent's iterations, a vendor node's Message a Model with a
tool wired (it calls the model again after each round of tool calls: up to options.maxToolsIterations, 15 by
default, counted from the first call by OpenAI v1 and Gemini, one more by OpenAI v2's Respond, Anthropic, Qwen,
MiniMax and Moonshot; OpenAI before v1.5 has no limit, which RS301 reports), an Information Extractor's fixing
parser (it asks the model once more when the answer does not parse). The cap is also what makes spend
computable: stormcheck reports the worst case per item from calls per item × attempts × max output tokens × the
output price, and with no cap it must assume the ceiling. A model that several chains or agents share gets the
calls of every root one item runs (each root runs its own supplyData of it), each root's calls with that root's
attempts: a retrying chain and one that does not retry make 3 + 1 attempts, not 2 × 3. In a workflow that an agent of another workflow calls as
its tool (Call Workflow Tool), each call of the tool is a run of the workflow, so the calls count the calling
agent's iterations too, per item that agent gets; the message names that agent and its workflow, and the tool node
is a related place. Such a figure counts one item a run: when a read that lists records (a calendar's events, a
sheet's rows) or a Split Out comes before the call in that workflow, the call runs once per record, and the message
says the figure may be more. The Anthropic chat model caps by default (the
per-model table of @langchain/anthropic: 2,048 to 8,192 tokens) and is not reported; the Gemini chat model
sends no cap unless options.maxOutputTokens is set (the 2,048 the editor shows is stored only once the option
is added, and n8n fills a missing options collection with {}, so the node's 1,024 fallback never applies:
LmChatGoogleGemini.node.js in n8n 2.8.4). A max-tokens expression counts as a cap (it is decided at run time, typically from a settings node). The finding
is a warning when one uncapped call per item of an execution (the ceiling's price × --items) reaches $0.50 and
something multiplies it (retries or a loop, several calls per item, several items, or runs no person paces: a
schedule, a poll, a service's webhook, a caller workflow, a public chat), or when the attempts have no bound; a
note below that, for a single attempt of a single call per run that only a person starts (a manual run, a form, a
messaging bot's message: the ceiling is billed at most once per action), or when the model's price is unknown
(set it in .stormcheck.yaml, spend.prices). The cap bounds each call, so its severity follows one call: a call
whose ceiling stays under $1, on runs of one item that a person or a schedule of at most once a day starts, is a
note whatever repeats it (retries and an agent's iterations, nested agents' ceilings multiplied, bill as often with
a cap; the message gives that figure, and RS101 and RS301 report what repeats it); so is a call in a loop with no
bound whose one call stays under $0.50 (RS103 and RS301 report the loop). An HTTP Request to a model API's generation endpoint (OpenAI chat/completions
or responses, Anthropic messages, Gemini generateContent, the OpenAI-compatible endpoints of Perplexity,
Mistral, Groq, DeepSeek, xAI, OpenRouter) is a paid call like a model node; its cap is max_tokens (or
max_completion_tokens, maxOutputTokens) in the body, an expression there counting as a cap; a body that is one expression reading the item
("{{ JSON.stringify($json.body) }}") is built by a node before it: when that node is a Code node whose return, or an
Edit Fields (Set) node that sets the field, writes the body as an object literal, the literal's cap, or its model and
no cap, is read as if written in the request; so is a Code node's field holding JSON.stringify of such a literal, read
by a JSON body or sent as a raw one (Body Content Type "Raw", one expression reading it); otherwise (a spread, a computed key, a later assignment, a model or cap
from the data) its cap, like a max-tokens expression's, is decided at run time. Anthropic's Messages API refuses a request with no max_tokens (it is a required body
parameter), so an HTTP Request there whose body has none bills nothing: it is no uncapped call. A cap at or above the model's ceiling bounds nothing and
counts as none; the Anthropic app node ("Message a model") always sends max_tokens (1,024 unless set); a
chat-model node wired into the main flow rather than to an agent or chain is never called, nor is one wired only to a
Structured Output Parser without auto-fixing, which takes a model only to fix an answer that does not parse. A call to a model its
provider has shut down bills nothing (the provider refuses it): RS010 reports it, and no spend rule prices it.
A call on n8n's free OpenAI API credits (the managed credential n8n names "n8n free OpenAI API credits") is
left out: it costs the owner nothing, and once the allowance is used n8n refuses every call (docs/n8n-facts.md).
The prices are the providers' list prices, embedded and read by hand: the oldest rows in ` + n8nschema.PricesAsOf + `, the
newest on ` + n8nschema.PricesNewest + ` (each row's date in docs/n8n-facts.md, "Prices"); a price set in .stormcheck.yaml
(spend.prices) overrides its row.`,
	Fix:       "Set the node's max-tokens option (maxTokens, maxTokensToSample or maxOutputTokens), or max_tokens in an HTTP request's body, to what the task needs",
	FixSafety: analyze.Unsafe,
	FixDoc: `Unsafe (--unsafe-fixes): it can cut answers short. With fix.max_tokens set in .stormcheck.yaml, it writes
that value into the node's max-tokens option (maxTokens, maxTokensToSample or maxOutputTokens, as the node names
it); without the setting there is no repair, since the right cap depends on the task.`,
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"spend"},
	Run: func(pass *analyze.Pass) {
		var reach, scale analyze.Reach
		reachMade, scaleMade := false, false
		var listed map[*n8nschema.Node]*n8nschema.Node // ItemsMultiplied, on first need (often nil)
		listedDone := false
		unpaced := func() analyze.Reach { // read once, on first need
			if !reachMade {
				reach, reachMade = unpacedReach(pass, false), true
			}
			return reach
		}
		atScale := func() analyze.Reach {
			if !scaleMade {
				scale, scaleMade = unpacedReach(pass, true), true
			}
			return scale
		}
		for op := range eachLiveOp(pass) {
			hc, isHTTP := n8nschema.HTTPModelCallOf(op.Node)
			if !op.OwnerPays() || op.OutputCapped || op.Spec.MaxTokensParam == "" && !isHTTP {
				continue
			}
			if hc.CapAtRunTime {
				continue // a body a node before builds, not from a literal read: its cap is decided at run time, like a max-tokens expression
			}
			if r, _ := op.Node.Param("resource"); nonTextResources[r.Str()] {
				continue
			}
			if v, ok := op.Node.Param(op.Spec.MaxTokensParam); ok && v.IsExpr() {
				continue // a cap computed at run time ("={{ $('Config').first().json.maxTokens }}") is a cap
			}
			d := analyze.Diagnostic{Node: op.Node, Pos: op.Node.Pos, Chain: op.Factors,
				Repair: func(r analyze.Repairer) (*analyze.Repair, error) { return r.OutputCap(op) }}
			ceiling := "the model's ceiling"
			if op.MaxOutputTokens > 0 {
				ceiling = fmt.Sprintf("the model's ceiling of %d output tokens", op.MaxOutputTokens)
			}
			switch {
			case op.SpendUnbounded:
				d.Message = fmt.Sprintf("model call in node %q (%s) has no max-tokens bound: each attempt may bill %s, and its attempts have no bound", op.Node.Name, modelText(op), ceiling)
				if g := restartGate(op); g != "" && !(op.CallsUnbounded && !op.DataBound) {
					d.Message += " " + gateClause(g)
				}
				// The loop that repeats the call is RS301's (and RS103's)
				// finding: the missing cap is judged per call.
				if call, ok := op.CostPerCallUSD(pass.Options); ok && perCallNote(pass, op, call, atScale) {
					d.Severity = analyze.Note
					d.Message += fmt.Sprintf("; one call may bill %s, and the loop that repeats it is a finding of its own", usd(call))
				}
			case op.SpendKnown():
				out := outsideOf(op)
				d.Related = out.related()
				why := out.why()
				if op.Outside != nil {
					// Counted per item of a run of its workflow: a list
					// before the call runs it once per record.
					g := pass.Set.Graph(op.Workflow)
					if !listedDone {
						listed, listedDone = analyze.ItemsMultiplied(g), true
					}
					if m := analyze.MultipliedBy(g, listed, op.Node); m != nil {
						why += fmt.Sprintf("; more when a run of its workflow hands it several items: %q may pass on many", m.Name)
					}
				}
				if why != "" {
					why = ": " + why
				}
				figure := fmt.Sprintf("%d %s × %d %s", max(op.CallsPerItem, 1), plural(max(op.CallsPerItem, 1), "call", "calls"), op.Attempts, plural(op.Attempts, "attempt", "attempts"))
				if op.RootAttemptsDiffer() {
					figure = rootAttempts(op)
					if why != "" {
						why = ";" + why[1:]
					}
				}
				d.Message = fmt.Sprintf("model call in node %q (%s) has no max-tokens bound: each attempt may bill %s, %s %s at worst (%s%s)",
					op.Node.Name, modelText(op), ceiling, usd(op.SpendPerItemUSD), out.perItem, figure, why)
				exec, _ := op.SpendPerExecution(pass.Options)
				if items := pass.Options.Items; items > 1 {
					d.Message += fmt.Sprintf(", %s per execution of %d items", usd(exec), items)
				}
				if call, ok := op.CostPerCallUSD(pass.Options); ok {
					switch {
					case call*float64(max(pass.Options.Items, 1)) < rs302NoteBelowUSD:
						d.Severity = analyze.Note
					case !multiplied(pass, op, unpaced()):
						d.Severity = analyze.Note
						d.Message += "; only a person starts its runs, one at a time, and no retry, loop or item multiplies the call"
					case perCallNote(pass, op, call, atScale):
						d.Severity = analyze.Note
						who := "only a person starts its runs"
						if unpaced().Has(op.Node) {
							who = "a person or a daily schedule starts its runs"
						}
						d.Message += fmt.Sprintf("; one call may bill %s, and %s", usd(call), who)
						if op.Attempts > 1 || op.CallsPerItem > 1 {
							d.Message += " (the retries or iterations that repeat the call bill with a cap too)"
						}
					}
				}
			default:
				d.Message = fmt.Sprintf("model call in node %q (%s) has no max-tokens bound: each attempt may bill %s, at a price stormcheck does not know", op.Node.Name, modelText(op), ceiling)
				d.Confidence = analyze.Medium
				d.Severity = analyze.Note
			}
			pass.Report(d)
		}
	},
}

// dayMS is a day in milliseconds.
const dayMS = 86_400_000

// multiplied reports whether something multiplies an uncapped call's
// ceiling: retries or a loop (more than one attempt), several calls per
// item (an agent's iterations, pages), several items (--items), or runs
// that no person paces one at a time (unpaced). A call that only a
// person's click, form or message starts, once per run, bills its ceiling
// at most once per action of that person.
func multiplied(pass *analyze.Pass, op *analyze.Operation, unpaced analyze.Reach) bool {
	return op.Attempts > 1 || op.CallsPerItem > 1 || op.CallsUnbounded || pass.Options.Items > 1 || unpaced.Has(op.Node)
}

// perCallNote reports a missing cap whose one call stays under
// rs302LargeCallUSD (or under rs302NoteBelowUSD for a call in an unbounded
// loop) and whose runs come at a person's pace or at most once a day, on
// one item each: the cap's consequence is one call's ceiling, a little at a
// time. Retries, an agent's iterations (even nested agents' ceilings
// multiplied) and loops repeat the call whatever its cap: the message gives
// that figure and RS301, RS101 and RS103 report what repeats it.
func perCallNote(pass *analyze.Pass, op *analyze.Operation, call float64, atScale func() analyze.Reach) bool {
	items := float64(max(pass.Options.Items, 1))
	if op.SpendUnbounded && call*items < rs302NoteBelowUSD {
		return true
	}
	return call*items < rs302LargeCallUSD && pass.Options.Items <= 1 && !atScale().Has(op.Node)
}

// unpacedReach returns the nodes that runs no person paces reach: runs of
// a schedule, a poll, a service's webhook, a caller workflow (every node,
// when another workflow calls this one), or a chat anyone with the link
// can open; what they reach before they must fail (analyze.RunReach).
// With atScale, a schedule that runs at most once a day is left out: its
// runs come one a day, as a person's do (analyze.ScheduleEveryMS).
func unpacedReach(pass *analyze.Pass, atScale bool) analyze.Reach {
	w := pass.Workflow
	g := pass.Set.Graph(w)
	for _, c := range pass.Set.CallsTo(w) {
		if c.From != w && c.Kind != analyze.CallN8nAPI {
			return analyze.RunReach(g, g.Nodes...) // a caller's runs, whoever starts them
		}
	}
	var starts []*n8nschema.Node
	for _, t := range g.Triggers() {
		if t.Disabled || analyze.ByHand(t) {
			continue
		}
		if atScale && analyze.OnClock(t) {
			if every, ok := analyze.ScheduleEveryMS(t); ok && every >= dayMS {
				continue
			}
		}
		if !analyze.OnePersonPaces(g, t) {
			starts = append(starts, t)
		}
	}
	return analyze.RunReach(g, starts...)
}
