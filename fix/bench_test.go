package fix

import (
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
)

// BenchmarkAttachCorpus measures computing every finding's repair over the
// corpus (what a plain audit adds for the JSON and SARIF repairs).
func BenchmarkAttachCorpus(b *testing.B) {
	files := corpustest.Files(b)
	set, fs := checker(analyze.DefaultOptions())(files)
	b.ResetTimer()
	for b.Loop() {
		Attach(set, fs, Options{MaxTokens: 800})
	}
}

// BenchmarkFilesCorpus measures --fix --unsafe-fixes in memory over the
// corpus: analysis, repairs, edits, parse and analysis again until done.
func BenchmarkFilesCorpus(b *testing.B) {
	files := corpustest.Files(b)
	check := checker(analyze.DefaultOptions())
	b.ResetTimer()
	for b.Loop() {
		if _, err := Files(files, check, Options{MaxTokens: 800}, true); err != nil {
			b.Fatal(err)
		}
	}
}
