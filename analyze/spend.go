package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Spend fills the spend figures of every paid operation (docs/design.md#the-attempt-model):
// per item, calls per item × attempts × max output tokens × output price.
// Input tokens are not counted: what an item sends is not in the workflow.
// It runs after Amplify, which fills attempts and calls per item.
func (s *Set) Spend() {
	for _, op := range s.Operations {
		FillSpend(op, &s.Options)
	}
}

// FillSpend computes one operation's spend figures.
func FillSpend(op *Operation, opts *Options) {
	if !op.Paid || op.Node == nil {
		return
	}
	var spec n8nschema.Spec
	if op.Spec != nil && op.Spec.Type == op.Node.Type {
		spec = *op.Spec // specOf's: Lookup's, its strings interned
	} else {
		spec = n8nschema.Lookup(op.Node.Type)
	}
	model, _ := n8nschema.ModelOf(op.Node)
	hc, isHTTP := n8nschema.HTTPModelCallOf(op.Node)
	if isHTTP {
		model = hc.Model
	}
	op.Model = model
	op.Billing = n8nschema.BillingOf(op.Node)
	if freeModel(model) {
		op.Paid = false // billed at zero: no spend to bound or cap
		return
	}
	price, known := PriceOf(op.BilledModel(), opts)
	op.PriceKnown = known
	op.MaxOutputTokens, op.OutputCapped = maxOutput(op.Node, spec, price)
	if isHTTP {
		op.MaxOutputTokens, op.OutputCapped = price.MaxOutput, false
		if hc.Capped && (price.MaxOutput == 0 || hc.MaxTokens < price.MaxOutput) {
			op.MaxOutputTokens, op.OutputCapped = hc.MaxTokens, true
		}
	}
	op.SpendUnbounded = op.Unbounded || op.CallsUnbounded && !op.DataBound
	if !known || op.SpendUnbounded || op.MaxOutputTokens == 0 {
		return
	}
	// Calls × attempts, each root's calls with its own attempts when the
	// roots of a shared sub-node try a different number of times.
	wire := float64(max(op.CallsPerItem, 1)) * float64(max(op.Attempts, 1))
	if op.RootAttemptsDiffer() {
		wire = float64(op.WireAttemptsPerItem())
	}
	op.SpendPerItemUSD = wire * float64(op.MaxOutputTokens) * price.OutputPerM / 1e6
}

// freeModel reports whether a model id names a model nobody bills for:
// OpenRouter lists free models with a ":free" suffix
// ("deepseek/deepseek-r1:free", "google/gemini-2.0-flash-exp:free") and
// routes "openrouter/free" to one of them at random, at no cost
// (openrouter.ai/docs/guides/routing/routers/free-router), and
// a ":latest" tag is an Ollama model ("mistral-small3.1:latest") served
// locally, here through an OpenAI node pointed at Ollama's OpenAI-compatible
// endpoint. Providers that bill write "-latest" with a hyphen. Google's
// experimental Gemini releases ("gemini-2.0-flash-exp",
// "gemini-2.5-pro-exp-03-25", "gemini-exp-1206") are free to use, with the
// free tier's quotas (ai.google.dev/gemini-api/docs/models/experimental-models;
// discuss.ai.google.dev/t/whats-the-rate-limit-for-the-experimental-models/38226):
// the paid model they share a prefix with prices none of their calls.
func freeModel(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	return strings.HasSuffix(m, ":free") || m == "openrouter/free" || strings.HasSuffix(m, ":latest") || experimentalGemini(m)
}

// experimentalGemini reports a Gemini model id with an "exp" or
// "experimental" part ("gemini-2.0-flash-thinking-exp-01-21").
func experimentalGemini(m string) bool {
	m = n8nschema.NormalizeModel(m)
	if !strings.HasPrefix(m, "gemini-") && !strings.HasPrefix(m, "learnlm-") {
		return false
	}
	for part := range strings.SplitSeq(m, "-") {
		if part == "exp" || part == "experimental" {
			return true
		}
	}
	return false
}

// SpendPerExecution is the worst case of one execution of Options.Items
// items; ok is false when it is unbounded or unknown.
func (op *Operation) SpendPerExecution(opts *Options) (usd float64, ok bool) {
	if !op.Paid || op.SpendUnbounded || !op.PriceKnown || op.MaxOutputTokens == 0 {
		return 0, false
	}
	return op.SpendPerItemUSD * float64(max(opts.Items, 1)), true
}

// OwnerPays reports whether a paid call is billed to the owner: to their
// key or to the instance's Gateway credits, not to n8n's free credits,
// which cost nothing and are refused once used up (docs/n8n-facts.md).
func (op *Operation) OwnerPays() bool {
	return op.Paid && op.Billing != n8nschema.BilledToFreeCredits
}

// SpendKnown reports whether SpendPerItemUSD holds a figure.
func (op *Operation) SpendKnown() bool {
	return op.Paid && !op.SpendUnbounded && op.PriceKnown && op.MaxOutputTokens > 0
}

// PriceOf returns a model's price: the configured one (Options.Prices,
// keyed by model name or name prefix) over the embedded table.
func PriceOf(model string, opts *Options) (n8nschema.Price, bool) {
	if model == "" {
		return n8nschema.Price{}, false
	}
	p, ok := n8nschema.LookupPrice(model)
	m := n8nschema.NormalizeModel(model)
	best := ""
	var over ModelPrice
	for name, mp := range opts.Prices {
		k := n8nschema.NormalizeModel(name)
		if (m == k || strings.HasPrefix(m, k+"-")) && len(k) > len(best) {
			best, over = k, mp
		}
	}
	if best != "" {
		if !ok || len(best) >= len(p.Model) {
			p.Model, p.InputPerM, p.OutputPerM = best, over.InputPerM, over.OutputPerM
		}
		ok = true
	}
	return p, ok
}

// maxOutput is what one call may generate: the node's max-tokens
// parameter, else the cap the node sends by default (Anthropic's
// per-model table, n8nschema.DefaultOutputCap), else the model's ceiling. A
// cap at or above the ceiling bounds nothing. -1 and 0 mean no cap
// (LmChatOpenAi.node.ts options.maxTokens default -1).
func maxOutput(n *n8nschema.Node, spec n8nschema.Spec, price n8nschema.Price) (tokens int, capped bool) {
	if legacyTextCompletion(n) {
		if v, ok := n.Param("options.maxTokens"); ok {
			if f, ok := v.Num(); ok && f > 0 {
				return int(f), true
			}
		}
		// No max_tokens sent: the completions API stops at 16.
		return 16, true
	}
	if spec.MaxTokensParam != "" {
		if v, ok := n.Param(spec.MaxTokensParam); ok {
			if f, ok := v.Num(); ok && f > 0 {
				if price.MaxOutput > 0 && int(f) >= price.MaxOutput {
					return price.MaxOutput, false // the ceiling: it bounds nothing
				}
				return int(f), true
			}
			if v.IsExpr() {
				// An expression decides at run time; the ceiling is the worst case.
				return price.MaxOutput, false
			}
		}
	}
	if c := n8nschema.DefaultOutputCap(n, spec); c > 0 {
		return c, true
	}
	return price.MaxOutput, false
}

// legacyTextCompletion reports the legacy OpenAI node's text completion
// (n8n-nodes-base.openAi, resource "text" and operation "complete", the
// node's defaults): it posts to /v1/completions, whose max_tokens defaults
// to 16 when the node's option (default 16, OpenAi/TextDescription.ts) is
// left out.
func legacyTextCompletion(n *n8nschema.Node) bool {
	if n.Type != n8nschema.TypeOpenAILegacy {
		return false
	}
	r, _ := n.Param("resource")
	o, _ := n.Param("operation")
	return (r.Str() == "" || r.Str() == "text") && (o.Str() == "" || o.Str() == "complete")
}

// SpendCapFor returns the cap declared for a provider ("*" matches any),
// the tightest one when several apply.
func SpendCapFor(opts *Options, providers ...string) (SpendCap, bool) {
	var best SpendCap
	found := false
	for _, c := range opts.SpendCaps {
		match := c.Provider == "*"
		for _, p := range providers {
			if p != "" && strings.EqualFold(c.Provider, p) {
				match = true
			}
		}
		if match && (!found || c.USD < best.USD) {
			best, found = c, true
		}
	}
	return best, found
}

// CostPerCallUSD is the worst case one billed call of a paid operation
// costs: its max output tokens at the model's output price; ok is false
// when the price or the token bound is unknown.
func (op *Operation) CostPerCallUSD(opts *Options) (usd float64, ok bool) {
	if !op.Paid || !op.PriceKnown || op.MaxOutputTokens == 0 {
		return 0, false
	}
	price, _ := PriceOf(op.BilledModel(), opts)
	return float64(op.MaxOutputTokens) * price.OutputPerM / 1e6, true
}

// BilledModel is the model the call is billed as: a routed id bills at the
// rate of the model its provider serves it as (n8nschema.BilledModel).
func (op *Operation) BilledModel() string {
	if op.Node == nil {
		return op.Model
	}
	return n8nschema.BilledModel(op.Node, op.Model)
}
