package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/ruledoc"
	"github.com/stormcheck/stormcheck/rules"
)

// rulesFormats are the formats of `stormcheck rules`.
var rulesFormats = []string{"text", "json", "markdown"}

func newRulesCmd(io *IO) *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "rules",
		Short: "List the registered rules",
		Long: `List the registered rules. --format markdown prints the rule reference, docs/rules.md:
  go run . rules --format markdown > docs/rules.md`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			switch format {
			case "text":
				return rulesText(io.Out, rules.All())
			case "json":
				return rulesJSON(io.Out, rules.All())
			case "markdown":
				_, err := io.Out.Write([]byte(RulesMarkdown(rules.All())))
				return err
			}
			return usageErrorf("--format %q: want one of %s", format, strings.Join(rulesFormats, ", "))
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(rulesFormats, "|"))
	return c
}

func rulesText(w io.Writer, rs []*analyze.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tCONFIDENCE\tTITLE")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Confidence, r.Title)
	}
	return tw.Flush()
}

type jsonRule struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Title      string   `json:"title"`
	Severity   string   `json:"severity"`
	Confidence string   `json:"confidence"`
	Tags       []string `json:"tags"`
	Doc        string   `json:"doc"`
	Bad        string   `json:"bad"`
	BadOutput  string   `json:"bad_output"`
	Good       string   `json:"good"`
	Config     string   `json:"config,omitempty"`
	Fix        string   `json:"fix"`
	HelpURI    string   `json:"help_uri"`
}

func rulesJSON(w io.Writer, rs []*analyze.Rule) error {
	doc := struct {
		Version int        `json:"version"`
		Rules   []jsonRule `json:"rules"`
	}{Version: 1, Rules: []jsonRule{}}
	for _, r := range rs {
		tags := r.Tags
		if tags == nil {
			tags = []string{}
		}
		ex := r.Examples()
		doc.Rules = append(doc.Rules, jsonRule{ID: r.ID, Name: r.Name, Title: r.Title, Severity: r.Severity.String(),
			Confidence: r.Confidence.String(), Tags: tags, Doc: r.Doc, Bad: ex.Bad, BadOutput: ex.Output, Good: ex.Good,
			Config: ex.Config, Fix: r.Fix, HelpURI: r.HelpURI()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// RulesMarkdown is the rule reference, docs/rules.md. It depends on the
// registry alone, so it is deterministic.
func RulesMarkdown(rs []*analyze.Rule) string { return ruledoc.Reference(rs) }
