package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
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
is enough, and it works while the model provider is down. A fallback is not a handler: when a model,
agent or chain fails and its error output calls another model whose answer rejoins the work the first
one fed, that is one replacement call per failure, and it is not reported, whatever failed (a scrape that
fails and a model that answers from what is known instead). So is a call that does the failed node's job again:
it carries the failed node's prompt word for word and reads nothing of the error (an extraction on
gemini-2.5-flash that fails, and after a wait the same prompt on gemini-2.5-pro), wherever its answer goes; it
still costs one more call per failure, which the spend rules count as the call's own. Nor is an error branch that is the product path: a
lookup that fails when the record is new, and a model that writes the record, the reply or the answer the
caller waits for; its answer goes on to a write or a webhook response rather than an alert, and its prompt
does not read the error.
A capped call whose computed cost per failure is under $0.01, with a timeout, on a node that continues on its
regular output when it fails (onError "continueRegularOutput"), is a note: an outage costs little and the alert
after it still runs, with or without the model's words. The OpenAI app node has no timeout but in its v1 assistant
message (10 s by default): a timeout stored in its other operations' options is dropped by n8n, and the finding says so.
A call on n8n's free OpenAI API credits (the managed credential n8n names "n8n free OpenAI API credits") is
left out: it costs the owner nothing, and once the allowance is used n8n refuses every call (docs/n8n-facts.md).`,
	Fix:        "Replace the model call in the error path with a plain alert (workflow, node, error message, execution URL)",
	FixDoc:     "None: moving paid work out of an error handler changes what the handler does.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"spend", "errors"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		for op := range eachLiveOp(pass) {
			if !op.OwnerPays() || !op.ErrorPath {
				continue
			}
			if !g.FromErrorTrigger(op.Node) && len(op.ErrorFor) == 0 && (fallbackCall(g, op.Node) || productPath(g, op.Node)) {
				continue // one replacement call per failure, its answer used
			}
			cost := ""
			var related []analyze.Related
			if out := outsideOf(op); op.SpendKnown() {
				cost, related = fmt.Sprintf(", up to %s per failure%s", usd(op.SpendPerItemUSD), paren(out.why())), out.related()
			} else if op.SpendUnbounded {
				cost, related = fmt.Sprintf(", with no bound per failure%s", paren(out.why())), out.related()
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
			sev := analyze.Warning
			if op.SpendKnown() && op.SpendPerItemUSD < rs304NoteBelowUSD && alertGoesOn(g, op) {
				sev = analyze.Note
				msg += "; it has a timeout and a bounded cost, and the nodes after it run whether the model answers or fails"
			}
			if sev == analyze.Warning && analyze.TimeoutDropped(op) {
				msg += "; the options.timeout it stores is not an option of this operation, and n8n drops it: the call waits with no time limit, and the nodes after it wait too"
			}
			pass.Report(analyze.Diagnostic{Node: op.Node, Pos: op.Node.Pos, Severity: sev, Message: msg, Chain: op.Factors, Related: related})
		}
	},
}

// rs304NoteBelowUSD is the computed cost per failure below which a
// handler's model call is a note when it cannot hold the alert back
// (alertGoesOn): a storm of a thousand failed executions then bills less
// than $10, and the alert still arrives while the provider is down.
const rs304NoteBelowUSD = 0.01

// alertGoesOn reports whether the handler goes on past the model call
// whatever the model does: the node that fails when the model fails (the
// call itself, or the root a model sub-node serves) continues on its
// regular output (onError continueRegularOutput, or the legacy
// continueOnFail), and the call has a timeout (AttemptTimeoutMS), so an
// outage neither stops the execution before the alert nor holds it.
func alertGoesOn(g *analyze.Graph, op *analyze.Operation) bool {
	if _, bounded := analyze.AttemptTimeoutMS(op); !bounded {
		return false
	}
	roots := []*n8nschema.Node{op.Node}
	if g.IsSubNode(op.Node) {
		roots = g.Roots(op.Node)
	}
	for _, r := range roots {
		if r.OnError != "continueRegularOutput" && (r.OnError != "" || !r.ContinueOnFail) {
			return false
		}
	}
	return len(roots) > 0
}

// fallbackCall reports whether a paid call on an error branch stands in
// for a failed call: for every error output that leads to it, what it
// answers rejoins the work that the failed node's normal output feeds, or
// it does the failed node's job again (sameJob). That is one replacement
// call per failure whose result is used, not a paid alert.
func fallbackCall(g *analyze.Graph, n *n8nschema.Node) bool {
	roots := []*n8nschema.Node{n}
	if g.IsSubNode(n) {
		roots = g.Roots(n)
	}
	found := false
	for _, e := range g.Edges {
		if !e.Error {
			continue
		}
		leads := false
		for _, r := range roots {
			leads = leads || e.To == r || reaches(g, e.To, r)
		}
		if !leads {
			continue
		}
		rejoins := false
		for _, ok := range g.OutOfType(e.From, analyze.ConnMain) {
			if ok.Error {
				continue
			}
			for _, r := range roots {
				for _, next := range g.OutOfType(r, analyze.ConnMain) {
					rejoins = rejoins || !next.Error && (next.To == ok.To || reaches(g, ok.To, next.To) || reaches(g, next.To, ok.To))
				}
			}
		}
		if !rejoins && !sameJob(e.From, append([]*n8nschema.Node{n}, roots...)) {
			return false
		}
		found = true
	}
	return found
}

// minPromptLen is the length from which a text parameter is taken for a
// prompt: shorter ones are names, ids and field references.
const minPromptLen = 40

// sameJob reports whether the nodes of a paid call on the error branch of
// failed (the call and its roots) do failed's job again: one carries
// failed's prompt, its longest text, word for word, and none says anything
// of the error that failed does not ("Analyze an image" on
// gemini-2.5-flash fails, and after a wait the same extraction prompt goes
// to gemini-2.5-pro). That is the step tried once more on another model,
// whose answer is the product, wherever it goes next; a handler asks about
// the failure ({{ $json.error.message }}, "explain this error").
func sameJob(failed *n8nschema.Node, nodes []*n8nschema.Node) bool {
	prompt := ""
	texts := map[string]bool{}
	failed.Params().Scalars(func(v n8nschema.Value) bool {
		if v.Kind() == n8nschema.String {
			texts[v.Str()] = true
			if len(v.Str()) > len(prompt) {
				prompt = v.Str()
			}
		}
		return true
	})
	if len(prompt) < minPromptLen {
		return false
	}
	same, asks := false, false
	for _, r := range nodes {
		r.Params().Scalars(func(v n8nschema.Value) bool {
			if v.Kind() != n8nschema.String {
				return true
			}
			same = same || v.Str() == prompt
			asks = asks || !texts[v.Str()] && errorWordRE.MatchString(v.Str())
			return true
		})
	}
	return same && !asks
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

// productPath reports whether a paid call on an error branch does the
// product's work rather than report the failure: its prompt does not read
// the error, and what it answers goes on to a write that is not a log row
// or team alert, or to the webhook's response.
func productPath(g *analyze.Graph, n *n8nschema.Node) bool {
	roots := []*n8nschema.Node{n}
	if g.IsSubNode(n) {
		roots = g.Roots(n)
	}
	for _, r := range append([]*n8nschema.Node{n}, roots...) {
		if readsError(r) {
			return false
		}
	}
	seen := map[*n8nschema.Node]bool{}
	queue := append([]*n8nschema.Node(nil), roots...)
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		for _, e := range g.OutOfType(m, analyze.ConnMain) {
			if e.Error || seen[e.To] {
				continue
			}
			seen[e.To] = true
			t := e.To
			if t.Type == n8nschema.TypeRespondToWebhook {
				return true
			}
			if c := analyze.ConsequenceOf(t).Consequence; c != analyze.NoEffect && !analyze.BestEffort(t) {
				return true
			}
			queue = append(queue, t)
		}
	}
	return false
}

// readsError reports whether a node's parameters read the error it was
// sent for ({{ $json.error.message }}, "explain this error").
func readsError(n *n8nschema.Node) bool {
	found := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		found = found || v.Kind() == n8nschema.String && errorWordRE.MatchString(v.Str())
		return true
	})
	return found
}

// errorWordRE matches text about a failure: an error, a failed run, an
// exception.
var errorWordRE = lazyregexp.New(`(?i)\berror|\bfail|\bexception`)
