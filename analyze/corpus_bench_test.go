package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/internal/cputime"
)

// BenchmarkBuildCorpus builds the analysis set of the whole corpus: graphs,
// call graph, attempt model and spend.
func BenchmarkBuildCorpus(b *testing.B) {
	files := corpustest.Files(b)
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		Build(files, DefaultOptions())
	}
	cputime.ReportPerOp(b, cpu)
}

// BenchmarkAmplifyCorpus runs the attempt model alone over the corpus set.
func BenchmarkAmplifyCorpus(b *testing.B) {
	s := Build(corpustest.Files(b), DefaultOptions())
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		Amplify(s)
	}
	cputime.ReportPerOp(b, cpu)
}

// BenchmarkGraphCorpus builds the node graph of every corpus workflow.
func BenchmarkGraphCorpus(b *testing.B) {
	files := corpustest.Files(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			for _, w := range f.Workflows {
				BuildGraph(w)
			}
		}
	}
}

// BenchmarkLinksCorpus is the analysis side of pass 1 over the corpus: the
// links of every parsed file, then the groups.
func BenchmarkLinksCorpus(b *testing.B) {
	files := corpustest.Files(b)
	links := make([]Links, len(files))
	b.ReportAllocs()
	for b.Loop() {
		for i, f := range files {
			links[i] = LinksOf(f)
		}
		Components(links)
	}
}
