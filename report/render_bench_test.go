package report_test

// An external test package: the benchmarks render what the real rules find
// on the corpus, and package report itself must never import rules.

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/benchgen"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// corpusResult audits ../shared/corpus/n8n-real as `stormcheck audit` does
// with default flags; the benchmarks skip when it is absent.
func corpusResult(b *testing.B) *report.Result {
	b.Helper()
	files := corpustest.Files(b)
	set := analyze.Build(files, analyze.DefaultOptions())
	all := rules.All()
	out := analyze.Filter(set, analyze.Run(set, all), analyze.FilterOptions{Rules: all, All: all, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)})
	res := &report.Result{Tool: report.Tool{Name: "stormcheck", Version: "bench"}, Set: set, Rules: all, Findings: out.Findings}
	res.Summary.Files, res.Summary.Workflows = len(files), len(set.Workflows)
	res.Summary.Count(out.Findings)
	return res
}

// BenchmarkRender renders the corpus findings in every format, without
// colour, to io.Discard.
func BenchmarkRender(b *testing.B) {
	res := corpusResult(b)
	for _, format := range report.Formats {
		b.Run(format, func(b *testing.B) {
			r, err := report.New(format, report.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := r.Render(io.Discard, res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRenderGenerated renders, in every format, what the rules find
// in a generated workflow of 1,000 or 10,000 nodes and its sub-workflow
// (benchgen.Workflow).
func BenchmarkRenderGenerated(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint("nodes=", n), func(b *testing.B) {
			res := auditOne(b, n8nschema.NewSource("gen.json", benchgen.Workflow(n)))
			for _, format := range report.Formats {
				b.Run(format, func(b *testing.B) {
					r, err := report.New(format, report.Options{})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if err := r.Render(io.Discard, res); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkRedact redacts every finding message of the corpus once.
func BenchmarkRedact(b *testing.B) {
	res := corpusResult(b)
	b.ReportAllocs()
	for b.Loop() {
		for i := range res.Findings {
			report.Redact(res.Findings[i].Message)
		}
	}
}
