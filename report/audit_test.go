package report_test

import (
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// audit runs what `stormcheck audit` runs on files up to the renderers:
// every rule, the filters, the repairs (with an output cap, so RS302 has
// repairs too).
func audit(files []*n8nschema.File) (*analyze.Set, analyze.Filtered) {
	set := analyze.Build(files, analyze.DefaultOptions())
	all := rules.All()
	out := analyze.Filter(set, analyze.Run(set, all), analyze.FilterOptions{Rules: all, All: all, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)})
	fix.Attach(set, out.Findings, fix.Options{MaxTokens: 1024})
	return set, out
}

func resultOf(files []*n8nschema.File, set *analyze.Set, fs []analyze.Finding) *report.Result {
	res := report.WholeResult(set, fs)
	res.Tool, res.Rules = report.Tool{Name: "stormcheck", Version: "test"}, rules.All()
	res.Summary.Files, res.Summary.Workflows = len(files), len(set.Workflows)
	for _, w := range res.Workflows {
		res.Summary.Nodes += w.Nodes
	}
	res.Summary.Count(fs)
	return res
}
