package report_test

// An external test package: the benchmarks render what the real rules find
// on the corpus, and package report itself must never import rules.

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// corpusResult audits ../shared/corpus/n8n-real as `stormcheck audit` does
// with default flags; the benchmarks skip when it is absent.
func corpusResult(b *testing.B) *report.Result {
	b.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus", "n8n-real")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("%s is absent", dir)
	}
	var files []*n8nschema.File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".json") {
			return err
		}
		src, err := os.ReadFile(p)
		files = append(files, n8nschema.Parse(n8nschema.NewSource(filepath.ToSlash(p), src)))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
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
