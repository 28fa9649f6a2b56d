package rules

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// benchSet parses and builds the analysis set of ../shared/corpus/n8n-real;
// the benchmarks skip when it is absent.
func benchSet(b *testing.B) *analyze.Set {
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
		files = append(files, n8nschema.Parse(n8nschema.NewSource(p, src)))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return analyze.Build(files, analyze.DefaultOptions())
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
