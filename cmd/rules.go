package cmd

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/rules"
)

func newRulesCmd(io *IO) *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "rules",
		Short: "List the registered rules",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if format != "text" {
				return usageErrorf("--format %q: want text", format)
			}
			tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tCONFIDENCE\tTITLE")
			for _, r := range rules.All() {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Confidence, r.Title)
			}
			return tw.Flush()
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text")
	return c
}
