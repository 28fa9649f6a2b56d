package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
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
			r := findRule(rules.All(), args[0])
			if r == nil {
				return usageErrorf("explain: no rule %q; run 'stormcheck rules' for the list", args[0])
			}
			return explain(io.Out, r)
		},
	}
}

// findRule finds a rule by ID or name, ignoring case.
func findRule(rs []*analyze.Rule, key string) *analyze.Rule {
	key = strings.TrimSpace(key)
	for _, r := range rs {
		if strings.EqualFold(r.ID, key) || strings.EqualFold(r.Name, key) {
			return r
		}
	}
	return nil
}

// explain prints what docs/rules.md says of one rule, as plain text.
func explain(w io.Writer, r *analyze.Rule) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n", r.ID, r.Name, r.Title)
	fmt.Fprintf(&b, "severity: %s, confidence: %s", r.Severity, r.Confidence)
	if len(r.Tags) > 0 {
		fmt.Fprintf(&b, ", tags: %s", strings.Join(r.Tags, ", "))
	}
	b.WriteString("\n\n")
	b.WriteString(strings.TrimSpace(r.Doc))
	b.WriteString("\n\nExample that fires:\n\n")
	b.WriteString(indent(r.Bad))
	b.WriteString("\nFixed:\n\n")
	b.WriteString(indent(r.Good))
	fmt.Fprintf(&b, "\nFix: %s\n\nFix safety (audit --fix): %s\n\nHelp: %s\n", strings.TrimSpace(r.Fix), strings.TrimSpace(r.FixDoc), r.HelpURI())
	_, err := io.WriteString(w, b.String())
	return err
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}
