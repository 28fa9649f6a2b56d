package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about paid calls: their model, their provider, their price.

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

// modelText names a paid call's model for messages: "gpt-4o", or "an
// unknown model".
func modelText(op *analyze.Operation) string {
	if op.Model == "" {
		return "model unknown"
	}
	return n8nschema.NormalizeModel(op.Model)
}

// providers are the names a spend cap may use for an operation.
func providers(op *analyze.Operation) []string {
	out := append(make([]string, 0, 3), op.Spec.Provider, op.Dependency)
	if p, ok := n8nschema.LookupPrice(op.Model); ok {
		out = append(out, p.Provider)
	}
	return out
}
