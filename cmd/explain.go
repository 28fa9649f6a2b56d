package cmd

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/internal/ruledoc"
	"github.com/stormcheck/stormcheck/rules"
)

func newExplainCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:     "explain RULE",
		Short:   "Print a rule's documentation, with a failing and a fixed example",
		Example: "  stormcheck explain RS201\n  stormcheck explain retried-write-without-idempotency",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("explain takes one rule ID or name, e.g. 'stormcheck explain RS201'")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			r := engine.FindRule(args[0])
			if r == nil {
				if hint := ruleHint(rules.All(), args[0]); hint != "" {
					return usageErrorf("explain: no rule %q%s", args[0], hint)
				}
				return usageErrorf("explain: no rule %q; run 'stormcheck rules' for the list", args[0])
			}
			return explain(io.Out, r)
		},
	}
}

// explain prints what docs/rules.md says of one rule, as plain text.
func explain(w io.Writer, r *analyze.Rule) error {
	_, err := io.WriteString(w, ruledoc.Text(r))
	return err
}
