package rules

import (
	"slices"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
)

// benchSet parses and builds the analysis set of ../shared/corpus/n8n-real;
// the benchmarks skip when it is absent.
func benchSet(b *testing.B) *analyze.Set {
	b.Helper()
	return analyze.Build(corpustest.Files(b), analyze.DefaultOptions())
}

// BenchmarkRules runs every rule over the corpus set (analyze.Run: the
// passes on every core, fingerprints, sort), then each rule alone.
func BenchmarkRules(b *testing.B) {
	set := benchSet(b)
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			analyze.Run(set, All())
		}
	})
	for _, r := range All() {
		b.Run(r.ID, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				analyze.Run(set, []*analyze.Rule{r})
			}
		})
	}
}

// BenchmarkFilter applies inline ignores and confidence to the corpus
// findings, as audit does after the rules.
func BenchmarkFilter(b *testing.B) {
	set := benchSet(b)
	all := All()
	findings := analyze.Run(set, all)
	opts := analyze.FilterOptions{Rules: all, All: all, MinConfidence: analyze.Low, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
	b.ReportAllocs()
	for b.Loop() {
		analyze.Filter(set, slices.Clone(findings), opts)
	}
}
