package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stormcheck/stormcheck/engine"
)

// repoWorkspace is a repository (a .git folder) holding proj/.stormcheck.yaml
// and proj/workflows/{a,b}.json: two copies of a workflow without an id
// whose RS003 finding the config ignores in b.json.
func repoWorkspace(t *testing.T) string {
	t.Helper()
	src := strings.Replace(readFile(t, td("broken_connection.json")), `"id": "cmdBroken0000001",`, "", 1)
	root := workspace(t, map[string]string{
		"proj/workflows/a.json": src,
		"proj/workflows/b.json": src,
		"proj/.stormcheck.yaml": "ignore:\n  - rule: RS003\n    path: workflows/b.json\n    reason: tested elsewhere\n",
		"elsewhere/README":      "",
	})
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

type placed struct{ File, Fingerprint string }

func jsonPlaces(t *testing.T, stdout string) []placed {
	t.Helper()
	var doc struct{ Findings []placed }
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	return doc.Findings
}

// TestPathsFromRepoRoot: reports name files relative to the repository
// root and find the config from the inputs upward, so that the report,
// the ignores and the fingerprints are the same from any working folder.
func TestPathsFromRepoRoot(t *testing.T) {
	root := repoWorkspace(t)
	wf := filepath.Join(root, "proj", "workflows")
	var first []placed
	for _, tt := range []struct{ wd, arg string }{
		{root, "proj/workflows"},
		{filepath.Join(root, "elsewhere"), "../proj/workflows"},
		{wf, "."},
		{t.TempDir(), wf},
	} {
		r := auditIn(t, tt.wd, "audit", "--format", "json", "--fail-on", "never", tt.arg)
		got := jsonPlaces(t, r.stdout)
		if len(got) != 1 || got[0].File != "proj/workflows/a.json" {
			t.Errorf("from %s: findings %v, want one in proj/workflows/a.json (b.json's ignored by proj/.stormcheck.yaml)\n%s", tt.wd, got, r.stderr)
		}
		if first == nil {
			first = got
		} else if diff := cmp.Diff(first, got); diff != "" {
			t.Errorf("from %s: findings differ from the first run (-first +here):\n%s", tt.wd, diff)
		}
		sarif := auditIn(t, tt.wd, "audit", "--format", "sarif", "--fail-on", "never", tt.arg)
		if !strings.Contains(sarif.stdout, `"uri": "proj/workflows/a.json"`) {
			t.Errorf("from %s: SARIF URI is not repository-relative:\n%s", tt.wd, sarif.stdout)
		}
	}

	// --root names files relative to it instead.
	r := auditIn(t, root, "audit", "--format", "concise", "--root", "proj", "--fail-on", "never", "proj/workflows")
	if !strings.HasPrefix(r.stdout, "workflows/a.json:52:5: warning:") {
		t.Errorf("--root proj:\n%s", r.stdout)
	}
}

// TestBaselineFromAnyFolder: a baseline written in one folder matches the
// findings of a workflow without an id in any other.
func TestBaselineFromAnyFolder(t *testing.T) {
	root := repoWorkspace(t)
	base := filepath.Join(root, "base.json")
	if r := auditIn(t, root, "audit", "--write-baseline", base, "proj/workflows"); r.code != ExitOK {
		t.Fatalf("--write-baseline: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := auditIn(t, filepath.Join(root, "proj", "workflows"), "audit", "--format", "json", "--baseline", base, ".")
	rep := decodeReport(t, r.stdout)
	if len(rep.Findings) != 0 || rep.Summary.Baselined != 1 || r.code != ExitOK {
		t.Errorf("from proj/workflows: %d findings, %d baselined, exit %d; want 0, 1, 0", len(rep.Findings), rep.Summary.Baselined, r.code)
	}
}

// TestStdinFilename: stdin named by --stdin-filename is reported under that
// path (relative to the repository root) and finds its config from there;
// without it, SARIF still gives every result a location.
func TestStdinFilename(t *testing.T) {
	root := repoWorkspace(t)
	src := readFile(t, filepath.Join(root, "proj", "workflows", "b.json"))
	run := func(args ...string) result {
		var out, errb strings.Builder
		code := Run(args, &IO{
			In: strings.NewReader(src), Out: &out, Err: &errb,
			Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return root, nil },
		})
		return result{code, out.String(), errb.String()}
	}
	r := run("audit", "--format", "json", "--fail-on", "never", "--stdin-filename", "proj/workflows/a.json", "-")
	if got := jsonPlaces(t, r.stdout); len(got) != 1 || got[0].File != "proj/workflows/a.json" {
		t.Errorf("--stdin-filename a.json: %v\n%s", got, r.stderr)
	}
	r = run("audit", "--format", "json", "--fail-on", "never", "--stdin-filename", "proj/workflows/b.json", "-")
	if got := jsonPlaces(t, r.stdout); len(got) != 0 {
		t.Errorf("--stdin-filename b.json: the config's ignore for b.json did not apply: %v", got)
	}
	r = run("audit", "--format", "sarif", "--fail-on", "never", "-")
	var doc struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	res := doc.Runs[0].Results
	if len(res) != 1 || len(res[0].Locations) != 1 || res[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "stdin" ||
		res[0].Locations[0].PhysicalLocation.Region.StartLine != 52 {
		t.Errorf("SARIF of stdin: %+v", res)
	}
}

// TestNamesInNestedRepositories: a walk names each file relative to the
// nearest folder holding .git, a folder or a file (a worktree), also below
// the folder walked; a .git that is a broken link makes no top.
func TestNamesInNestedRepositories(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.json", "inner/b.json", "inner/sub/c.json", "wt/d.json", "wt/.git", "dang/e.json", "inner/.git/config.json"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "dang", ".git")); err != nil {
		t.Skipf("cannot make a symlink: %v", err)
	}
	ins, err := collectInputs([]string{"."}, nil, engine.NewNamer(dir, "", ""), defaultMaxFileSize)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range ins {
		got = append(got, in.Name)
	}
	// A temp folder is in no repository: other names are relative to dir.
	want := []string{"a.json", "b.json", "d.json", "dang/e.json", "sub/c.json"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}
