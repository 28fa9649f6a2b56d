// Package corpustest parses the real-world corpus in ../shared for tests and
// benchmarks, once per test binary.
package corpustest

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/internal/sharedtest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var (
	mu     sync.Mutex
	parsed = map[string]*corpus{}
)

type corpus struct {
	once  sync.Once
	files []*n8nschema.File
	err   error
}

// Files parses every JSON file below ../shared/corpus/n8n-real (the tuning
// set) the way `stormcheck audit` walks a folder (sorted, hidden files and
// folders left out, node_modules too), each named by its slash-separated
// path relative to n8n-real. It skips when ../shared is absent and fails
// when CI is set (sharedtest.Path). The files are shared by every caller:
// do not change them.
func Files(tb testing.TB) []*n8nschema.File { return FilesOf(tb, "n8n-real") }

// FilesOf is Files for another corpus below ../shared/corpus: "n8n-more",
// the validation set.
func FilesOf(tb testing.TB, name string) []*n8nschema.File {
	tb.Helper()
	root := sharedtest.Path(tb, "corpus", name)
	mu.Lock()
	c := parsed[name]
	if c == nil {
		c = &corpus{}
		parsed[name] = c
	}
	mu.Unlock()
	c.once.Do(func() { c.files, c.err = parse(root) })
	if c.err != nil {
		tb.Fatal(c.err)
	}
	return c.files
}

// Workflows are the workflows of the three corpora (n8n-real, n8n-more,
// n8n-fresh) in that order, as FilesOf parses them: for a test that
// compares a shortcut with the slow path on every workflow there is.
func Workflows(tb testing.TB) []*n8nschema.Workflow {
	tb.Helper()
	var out []*n8nschema.Workflow
	for _, name := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		for _, f := range FilesOf(tb, name) {
			out = append(out, f.Workflows...)
		}
	}
	return out
}

// Fresh parses a corpus below ../shared/corpus again, for a caller that
// changes the files (analyze.Set.Release): FilesOf's are shared.
func Fresh(tb testing.TB, name string) []*n8nschema.File {
	tb.Helper()
	return Dir(tb, sharedtest.Path(tb, "corpus", name))
}

// Dir parses every JSON file below root as Files does, afresh.
func Dir(tb testing.TB, root string) []*n8nschema.File {
	tb.Helper()
	files, err := parse(root)
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

func parse(root string) ([]*n8nschema.File, error) {
	var out []*n8nschema.File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		hidden := strings.HasPrefix(d.Name(), ".") && p != root
		if d.IsDir() {
			if hidden || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if hidden || !strings.EqualFold(filepath.Ext(p), ".json") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		f := n8nschema.Parse(n8nschema.NewSource(filepath.ToSlash(rel), src))
		f.Explicit = false // met while walking a folder, as the CLI does
		out = append(out, f)
		return nil
	})
	// By full name, as the CLI orders its inputs (not WalkDir's per-folder order).
	slices.SortFunc(out, func(a, b *n8nschema.File) int { return strings.Compare(a.Source.Name, b.Source.Name) })
	return out, err
}

// WatchFreed notes each file's source bytes; the wait it returns collects
// garbage and fails tb, saying what still holds them (held), unless every
// one is freed within 10 s. Tests of memory release call it before they
// drop the files and wait once the release is done.
func WatchFreed(files []*n8nschema.File) (wait func(tb testing.TB, held string)) {
	freed := make(chan struct{}, len(files))
	watched := 0
	for _, f := range files {
		// The runtime may batch tiny objects; sources are larger.
		if len(f.Source.Src) >= 64 {
			runtime.AddCleanup(&f.Source.Src[0], func(struct{}) { freed <- struct{}{} }, struct{}{})
			watched++
		}
	}
	return func(tb testing.TB, held string) {
		tb.Helper()
		for range 3 {
			runtime.GC()
		}
		deadline := time.After(10 * time.Second)
		for n := 0; n < watched; n++ {
			select {
			case <-freed:
			case <-deadline:
				tb.Fatalf("%d of %d sources still held %s", watched-n, watched, held)
			}
		}
	}
}
