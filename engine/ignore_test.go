package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// gitignoreTree is a repository whose .gitignore files use every kind of
// pattern: a folder-only pattern, a name glob, negation, an anchored
// pattern, a nested .gitignore, "**" in the middle and at the end, a
// folder that a "!" cannot reopen, escapes and comments.
var gitignoreTree = map[string]string{
	".gitignore":            "# build output\nbuild/\n*.tmp.json\n!keep.tmp.json\n/top-only.json\ndocs/**/gen/*.json\nabc/**\n!abc/keep.json\nout/\n!out/back.json\n\\#hash.json\ntrail.json   \n",
	"sub/.gitignore":        "local.json\n!/build-not.json\n",
	"a.json":                "{}",
	"build/x.json":          "{}",
	"deep/build/y.json":     "{}",
	"build.json":            "{}",
	"w.tmp.json":            "{}",
	"sub/keep.tmp.json":     "{}",
	"top-only.json":         "{}",
	"sub/top-only.json":     "{}",
	"docs/gen/a.json":       "{}",
	"docs/x/y/gen/a.json":   "{}",
	"docs/x/gen2/a.json":    "{}",
	"abc/a.json":            "{}",
	"abc/keep.json":         "{}",
	"out/back.json":         "{}",
	"#hash.json":            "{}",
	"trail.json":            "{}",
	"sub/local.json":        "{}",
	"local.json":            "{}",
	"sub/deeper/local.json": "{}",
	"sub/build-not.json":    "{}",
}

// TestGitignoreAsGit: the files the matcher ignores are those git itself
// ignores (git ls-files --others --ignored --exclude-standard).
func TestGitignoreAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on the PATH")
	}
	dir := t.TempDir()
	for p, body := range gitignoreTree {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	out, err := exec.Command("git", "-C", dir, "ls-files", "--others", "--ignored", "--exclude-standard").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(out))
	sort.Strings(want)
	if len(want) < 10 {
		t.Fatalf("git ignores only %v: the tree does not exercise the patterns", want)
	}
	g := newGitignores(dir)
	var got []string
	for p := range gitignoreTree {
		if g.ignored(p) {
			got = append(got, p)
		}
	}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("ignored:\n got %v\nwant %v (git)", got, want)
	}
}
