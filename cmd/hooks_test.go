package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// gitRepo makes a temporary git repository with files staged, as a commit
// about to be made sees them. Without git the test is skipped, and fails
// under CI.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but git is not on the PATH")
		}
		t.Skip("git is not on the PATH; skipping")
	}
	dir := workspace(t, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestPreCommitHooks runs each hook of .pre-commit-hooks.yaml the way
// pre-commit does: its entry with the staged files its `files` pattern
// matches, from the repository's top folder. A commit that touches JSON
// that is no workflow passes; one that adds a retry storm fails.
func TestPreCommitHooks(t *testing.T) {
	var hooks []struct {
		ID, Entry, Language, Files string
		RequireSerial              bool `yaml:"require_serial"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join("..", ".pre-commit-hooks.yaml"))), &hooks); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hooks {
		ids = append(ids, h.ID+" "+h.Language)
	}
	if strings.Join(ids, ", ") != "stormcheck golang, stormcheck-system system" {
		t.Fatalf("hooks: %v; want stormcheck (golang) and stormcheck-system (system)", ids)
	}
	notWorkflows := map[string]string{
		"package.json":          `{"name": "site", "version": "1.0.0"}`,
		"tsconfig.json":         "{\n  // comments are fine here\n  \"compilerOptions\": {}\n}\n",
		"workflows/clean.json":  readFile(t, td("clean.json")),
		"docs/categories.json":  `["a", "b"]`,
		"workflows/README.txt":  "not matched by files",
		"workflows/.hidden.txt": "",
	}
	storm := map[string]string{"workflows/charge-card.json": readExample(t, "charge-card.json")}
	for _, h := range hooks {
		t.Run(h.ID, func(t *testing.T) {
			if !h.RequireSerial {
				t.Error("require_serial is off: pre-commit would split the files into separate runs, and calls between them would not be followed")
			}
			entry := strings.Fields(h.Entry)
			if entry[0] != "stormcheck" {
				t.Fatalf("entry %q does not run stormcheck", h.Entry)
			}
			re := regexp.MustCompile(h.Files)
			commit := func(files map[string]string) result {
				dir := gitRepo(t, files)
				cmd := exec.Command("git", "diff", "--cached", "--name-only")
				cmd.Dir = dir
				out, err := cmd.Output()
				if err != nil {
					t.Fatal(err)
				}
				args := entry[1:]
				for _, f := range strings.Fields(string(out)) {
					if re.MatchString(f) {
						args = append(args, f)
					}
				}
				return auditIn(t, dir, args...)
			}
			r := commit(notWorkflows)
			if r.code != ExitOK || !strings.Contains(r.stdout, "3 non-workflow files skipped") {
				t.Errorf("a commit of JSON that holds no workflow: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
			}
			all := map[string]string{}
			for k, v := range notWorkflows {
				all[k] = v
			}
			for k, v := range storm {
				all[k] = v
			}
			r = commit(all)
			if r.code != ExitFindings || !strings.Contains(r.stdout, "workflows/charge-card.json:") {
				t.Errorf("a commit that adds a retry storm: exit %d, want %d\n%s%s", r.code, ExitFindings, r.stdout, r.stderr)
			}
		})
	}
}

// TestSkipNonWorkflow: only files that hold no workflow are skipped; a
// broken export is still an error, and without the flag a named
// non-workflow file is one too.
func TestSkipNonWorkflow(t *testing.T) {
	src := readFile(t, td("clean.json"))
	wd := workspace(t, map[string]string{
		"package.json": `{"name": "site"}`,
		"broken.json":  src[:len(src)/2],
	})
	if r := auditIn(t, wd, "audit", "package.json"); r.code != ExitUsage || !strings.Contains(r.stdout, "error: object with keys") {
		t.Errorf("package.json named without the flag: exit %d, want %d with an RS002 error\n%s", r.code, ExitUsage, r.stdout)
	}
	if r := auditIn(t, wd, "audit", "--skip-non-workflow", "package.json"); r.code != ExitOK {
		t.Errorf("package.json with --skip-non-workflow: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := auditIn(t, wd, "audit", "--skip-non-workflow", "broken.json"); r.code != ExitFindings || !strings.Contains(r.stdout, "RS001 invalid-json") {
		t.Errorf("a truncated export with --skip-non-workflow: exit %d, want %d with RS001\n%s", r.code, ExitFindings, r.stdout)
	}
}
