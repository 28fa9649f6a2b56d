package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestScaffold runs newrule in a copy of the repository and checks that it
// adds only the rule's own files and one registry line, and that the rule
// package of the copy builds.
func TestScaffold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the repository")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	before := copyTree(t, root, dir)

	wrote, err := run(dir, "RS507", "shared-quota-exhausted")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"rules/examples/RS507.bad.json",
		"rules/examples/RS507.good.json",
		"rules/registry.go",
		"rules/rs507_shared_quota_exhausted.go",
		"rules/testdata/RS507/fires_like_the_example.json",
		"rules/testdata/RS507/silent_like_the_example.json",
	}
	slices.Sort(wrote)
	if !slices.Equal(wrote, want) {
		t.Errorf("run reports %q, want %q", wrote, want)
	}
	var changed []string
	after := snapshot(t, dir)
	for p, b := range after {
		if old, ok := before[p]; !ok || !bytes.Equal(old, b) {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	if !slices.Equal(changed, want) {
		t.Errorf("files added or changed: %q, want %q", changed, want)
	}
	for _, p := range wrote {
		if strings.HasSuffix(p, ".json") && !json.Valid(after[p]) {
			t.Errorf("%s is not valid JSON:\n%s", p, after[p])
		}
	}
	if bad, good := after["rules/examples/RS507.bad.json"], after["rules/examples/RS507.good.json"]; !bytes.Contains(bad, []byte(`"notes": "want RS507`)) || bytes.Contains(good, []byte("want RS507")) {
		t.Errorf("the bad example must note \"want RS507\" and the good one must not:\n%s\n%s", bad, good)
	}
	reg := string(after["rules/registry.go"])
	if !strings.Contains(reg, "\t\trs506,\n\t\trs507,\n") {
		t.Errorf("rules/registry.go does not list rs507 right after rs506:\n%s", reg)
	}

	// The rule package builds. (Testing the copy would rebuild every
	// package, 30 s here; the rule it writes fails go test ./rules until
	// its examples fire, which is the point.)
	c := exec.Command("go", "build", "./rules")
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Errorf("go build ./rules in the scaffolded copy: %v\n%s", err, out)
	}

	// A second run refuses, and writes nothing.
	if _, err := run(dir, "RS507", "other-name"); err == nil || !strings.Contains(err.Error(), "registers RS507 already") {
		t.Errorf("second run: err %v, want a refusal", err)
	}
	if _, err := run(dir, "RS508", "shared-quota-exhausted"); err == nil || !strings.Contains(err.Error(), "names its rule") {
		t.Errorf("a taken name: err %v, want a refusal", err)
	}
	if !maps.EqualFunc(after, snapshot(t, dir), bytes.Equal) {
		t.Error("a refused run changed files")
	}
}

func TestRegister(t *testing.T) {
	reg := []byte("\treturn []*analyze.Rule{\n\t\trs001,\n\t\trs101,\n\t\trs301,\n\t}\n")
	for id, want := range map[string]string{
		"rs002": "\t\trs001,\n\t\trs002,\n\t\trs101,\n",
		"rs201": "\t\trs101,\n\t\trs201,\n\t\trs301,\n",
		"rs506": "\t\trs301,\n\t\trs506,\n\t}",
	} {
		got, err := register(reg, id)
		if err != nil || !strings.Contains(string(got), want) {
			t.Errorf("register %s: %v\n%s", id, err, got)
		}
	}
	if _, err := register(reg, "rs101"); err == nil {
		t.Error("register rs101 twice: no error")
	}
	if _, err := run(t.TempDir(), "RS06", "x"); err == nil {
		t.Error("RS06 accepted as an ID")
	}
	if _, err := run(t.TempDir(), "RS506", "Not_Kebab"); err == nil {
		t.Error("Not_Kebab accepted as a name")
	}
}

// copyTree copies the files of the repository at root that git tracks or
// would track into dir, and returns them by slash path.
func copyTree(t *testing.T, root, dir string) map[string][]byte {
	t.Helper()
	c := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	c.Dir = root
	out, err := c.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout?)", err)
	}
	files := map[string][]byte{}
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the working tree
			}
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files[p] = b
	}
	return files
}

// snapshot reads every file below dir, by slash path.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
