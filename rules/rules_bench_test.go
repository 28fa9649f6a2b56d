package rules

import (
	"slices"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/benchgen"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
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
		cpu := cputime.Used()
		for b.Loop() {
			analyze.Run(set, All())
		}
		cputime.ReportPerOp(b, cpu)
	})
	for _, r := range All() {
		b.Run(r.ID, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cputime.Used()
			for b.Loop() {
				analyze.Run(set, []*analyze.Rule{r})
			}
			cputime.ReportPerOp(b, cpu)
		})
	}
}

// BenchmarkRulesGenerated runs every rule (analyze.Run) over generated
// sets: one workflow of 1,000 or 10,000 nodes with its sub-workflow
// (benchgen.Workflow), and a chain of 1,000 workflows each calling the next.
func BenchmarkRulesGenerated(b *testing.B) {
	for _, in := range []struct {
		name string
		src  []byte
	}{
		{"nodes=1000", benchgen.Workflow(1000)},
		{"nodes=10000", benchgen.Workflow(10000)},
		{"chain=1000", benchgen.Chain(1000)},
	} {
		b.Run(in.name, func(b *testing.B) {
			f := n8nschema.Parse(n8nschema.NewSource("gen.json", in.src))
			if len(f.Problems) > 0 || len(f.Workflows) == 0 {
				b.Fatalf("generated set does not parse: %v", f.Problems)
			}
			set := analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions())
			all := All()
			b.ReportAllocs()
			cpu := cputime.Used()
			for b.Loop() {
				analyze.Run(set, all)
			}
			cputime.ReportPerOp(b, cpu)
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
	cpu := cputime.Used()
	for b.Loop() {
		analyze.FilterOwned(set, slices.Clone(findings), opts)
	}
	cputime.ReportPerOp(b, cpu)
}
