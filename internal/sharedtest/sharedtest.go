// Package sharedtest finds ../shared, the folder beside the repository that
// holds the real-world corpus and the reference texts, for tests and
// benchmarks in any package of the module.
package sharedtest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Path returns the path of ../shared/elem... as seen from the calling
// test's package folder. When it is absent the test is skipped with a
// message, unless the CI environment variable is set: then it fails,
// because CI must run what needs ../shared.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(append([]string{repoRoot(wd), "..", "shared"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("CI is set but %s is missing: %v", p, err)
		}
		tb.Skipf("%s is absent (../shared is not beside the repository); skipping", p)
	}
	if rel, err := filepath.Rel(wd, p); err == nil {
		return rel // keeps file names in failure messages short and stable
	}
	return p
}

// repoRoot is the nearest folder at or above dir that holds go.mod: tests
// run in their package's folder, at any depth below the root.
func repoRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// ManifestWorkflows returns, sorted, the paths (relative to n8n-real) that
// ../shared/corpus/n8n-real/MANIFEST.tsv's kind column calls "workflow":
// one plain workflow object per file.
func ManifestWorkflows(tb testing.TB) []string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(Path(tb, "corpus", "n8n-real"), "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	header := strings.Split(lines[0], "\t")
	kind := slices.Index(header, "kind")
	if kind < 0 || header[0] != "path" {
		tb.Fatalf("MANIFEST.tsv header %q: want path and kind columns", lines[0])
	}
	var out []string
	for _, l := range lines[1:] {
		if cols := strings.Split(l, "\t"); len(cols) > kind && cols[kind] == "workflow" {
			out = append(out, cols[0])
		}
	}
	slices.Sort(out)
	return out
}
