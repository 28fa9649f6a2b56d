package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about paid calls: their model, their provider, their price.

// rs302NoteBelowUSD: a missing cap is a warning when what it leaves open,
// one uncapped call per item of an execution (--items), can reach this and
// something multiplies it (multiplied); a note otherwise. Retries and agent
// iterations multiply every call, capped or not: RS101, RS104 and RS301
// report them, and the message gives the figure. RS106 draws the same line
// under what an overlapping run bills again.
const rs302NoteBelowUSD = 0.50

// rs302LargeCallUSD: below it, one uncapped call is a note when its runs
// come at a person's pace or at most once a day (unpacedReach with atScale): the cap
// bounds each call, and what repeats the call (retries, an agent's
// iterations, a loop) is the spend rules' finding, not the cap's. A call
// that can bill this much alone stays a warning wherever it is repeated.
const rs302LargeCallUSD = 1.00

// usd formats a dollar figure with enough digits to be read.
func usd(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("$%.0f", x)
	case x >= 1:
		return fmt.Sprintf("$%.2f", x)
	case x >= 0.01:
		return fmt.Sprintf("$%.3f", x)
	}
	return fmt.Sprintf("$%.4f", x)
}

// modelText names a paid call's model for messages: "gpt-4o", an
// embeddings model with how it bills, or "model unknown".
func modelText(op *analyze.Operation) string {
	if op.Model == "" {
		if m := n8nschema.EmbeddingModelOf(op.Node); m != "" {
			return n8nschema.NormalizeModel(m) + " embeddings, billed per input token"
		}
		return "model unknown"
	}
	m := n8nschema.NormalizeModel(op.Model)
	if b := op.BilledModel(); b != op.Model {
		return m + ", served and billed as " + b
	}
	return m
}

// providers are the names a spend cap may use for an operation.
func providers(op *analyze.Operation) []string {
	out := append(make([]string, 0, 3), op.Spec.Provider, op.Dependency)
	if p, ok := n8nschema.LookupPrice(op.Model); ok {
		out = append(out, p.Provider)
	}
	return out
}

// paidSpend is what one run's paid calls bill at worst, when every one
// of them has a known, bounded figure (Operation.SpendPerExecution).
func paidSpend(pass *analyze.Pass, paid []*analyze.Operation) (float64, bool) {
	total := 0.0
	for _, op := range paid {
		usd, ok := op.SpendPerExecution(pass.Options)
		if !ok {
			return 0, false
		}
		total += usd
	}
	return total, true
}
