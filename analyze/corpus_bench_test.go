package analyze

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// corpusFiles parses every JSON file of ../shared/corpus/n8n-real; the
// benchmarks skip when it is absent.
func corpusFiles(b *testing.B) []*n8nschema.File {
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
	return files
}

// BenchmarkBuildCorpus builds the analysis set of the whole corpus: graphs,
// call graph, attempt model and spend.
func BenchmarkBuildCorpus(b *testing.B) {
	files := corpusFiles(b)
	b.ReportAllocs()
	for b.Loop() {
		Build(files, DefaultOptions())
	}
}

// BenchmarkAmplifyCorpus runs the attempt model alone over the corpus set.
func BenchmarkAmplifyCorpus(b *testing.B) {
	s := Build(corpusFiles(b), DefaultOptions())
	b.ReportAllocs()
	for b.Loop() {
		Amplify(s)
	}
}

// BenchmarkGraphCorpus builds the node graph of every corpus workflow.
func BenchmarkGraphCorpus(b *testing.B) {
	files := corpusFiles(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			for _, w := range f.Workflows {
				BuildGraph(w)
			}
		}
	}
}
