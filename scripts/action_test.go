// Package scripts holds the shell scripts of the release tooling and the
// GitHub Action; its tests run them against local servers and a temporary
// git repository.
package scripts

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"
)

func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("CI is set but %s is not on the PATH", tool)
			}
			t.Skipf("%s is not on the PATH; skipping", tool)
		}
	}
}

var (
	buildOnce sync.Once
	built     []byte
	buildErr  error
)

// buildStormcheck builds the module's binary once per test run.
func buildStormcheck(t *testing.T) []byte {
	t.Helper()
	need(t, "go")
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "stormcheck-build")
		if err != nil {
			buildErr = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "stormcheck")
		if b, err := exec.Command("go", "build", "-o", out, "..").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, b)
			return
		}
		built, buildErr = os.ReadFile(out)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

// releaseServer serves what GitHub serves for a release: the archives,
// checksums.txt, and the API's list of releases.
func releaseServer(t *testing.T, binary []byte, tags []string, tamper string) *httptest.Server {
	t.Helper()
	files := map[string][]byte{}
	for _, tag := range tags {
		name := fmt.Sprintf("stormcheck_%s_linux_amd64.tar.gz", strings.TrimPrefix(tag, "v"))
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		for _, f := range []struct {
			name string
			body []byte
		}{{"README.md", []byte("readme")}, {"LICENSE", []byte("MIT")}, {"stormcheck", binary}} {
			if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o755, Size: int64(len(f.body))}); err != nil {
				t.Fatal(err)
			}
			tw.Write(f.body)
		}
		tw.Close()
		gz.Close()
		sum := sha256.Sum256(buf.Bytes())
		hexSum := hex.EncodeToString(sum[:])
		if tag == tamper {
			hexSum = strings.Repeat("0", 64)
		}
		files["/download/"+tag+"/"+name] = buf.Bytes()
		files["/download/"+tag+"/checksums.txt"] = []byte(hexSum + "  " + name + "\n" + strings.Repeat("1", 64) + "  stormcheck_other.zip\n")
	}
	var list []string
	for _, tag := range append(tags, "v1.9.0-rc1", "v2.0.0") {
		list = append(list, fmt.Sprintf(`{"tag_name": %q, "draft": false}`, tag))
	}
	files["/api/repos/stormcheck/stormcheck/releases"] = []byte("[" + strings.Join(list, ",") + "]")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

type run struct {
	code           int
	stdout, stderr string
}

func script(t *testing.T, dir, name string, env ...string) run {
	t.Helper()
	abs, err := filepath.Abs(name)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", abs)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return run{code, out.String(), errb.String()}
}

// TestActionInstall runs the Action's install step against a local
// release server: the binary of the asked tag, checksum verified; a major
// tag resolves to its newest release; a bad checksum or a version input
// that is no release installs nothing; the Action's own ref with no
// release (a commit SHA pin) asks the next steps to build its checkout.
func TestActionInstall(t *testing.T) {
	need(t, "bash", "curl", "tar")
	bin := buildStormcheck(t)
	srv := releaseServer(t, bin, []string{"v1.2.3", "v1.10.0"}, "v1.2.3")
	ok := releaseServer(t, bin, []string{"v1.2.3", "v1.10.0"}, "")
	const sha = "f00f5c13263f6d3a971f4b5e635f98f9bd0243c7"
	for _, tt := range []struct {
		name, version, actionRef string
		srv                      *httptest.Server
		wantCode                 int
		want                     string
		wantBuild                bool
	}{
		{"release tag", "v1.2.3", "", ok, 0, "stormcheck v1.2.3 installed", false},
		{"the Action's own ref", "", "", ok, 0, "stormcheck v1.2.3 installed", false},
		{"the Action's own ref, named", "", "v1.10.0", ok, 0, "stormcheck v1.10.0 installed", false},
		{"major tag", "v1", "", ok, 0, "stormcheck v1.10.0 installed", false},
		{"minor tag", "v1.2", "", ok, 0, "stormcheck v1.2.3 installed", false},
		{"bad checksum", "v1.2.3", "", srv, 1, "checksum mismatch for stormcheck_1.2.3_linux_amd64.tar.gz", false},
		{"bad checksum of the own ref", "", "v1.2.3", srv, 1, "checksum mismatch for stormcheck_1.2.3_linux_amd64.tar.gz", false},
		{"branch as the version input", "main", "", ok, 1, `version "main" is not a release tag: the version input takes a release tag`, false},
		{"no such release as the version input", "v3", "", ok, 1, "no release matches v3", false},
		{"own ref is a commit SHA", "", sha, ok, 0, `version "` + sha + `" is not a release tag; building the Action's own checkout`, true},
		{"own ref is a branch", "", "main", ok, 0, "building the Action's own checkout (main)", true},
		{"own ref is a tag not released", "", "v1.4.0", ok, 0, "cannot download stormcheck_1.4.0_linux_amd64.tar.gz of v1.4.0; building", true},
		{"own ref is a major tag with no release", "", "v3", ok, 0, "no release matches v3; building", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "github_path")
			outputs := filepath.Join(dir, "github_output")
			install := filepath.Join(dir, "bin")
			r := script(t, dir, "action-install.sh", "VERSION="+tt.version, "ACTION_REF="+tt.actionRef, "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
				"STORMCHECK_DOWNLOAD_URL="+tt.srv.URL+"/download", "STORMCHECK_API_URL="+tt.srv.URL+"/api",
				"INSTALL_DIR="+install, "GITHUB_PATH="+path, "GITHUB_OUTPUT="+outputs,
				"GITHUB_ACTION_PATH=/home/runner/work/_actions/stormcheck/stormcheck/v1.2.3")
			if r.code != tt.wantCode || !strings.Contains(r.stdout+r.stderr, tt.want) {
				t.Fatalf("exit %d, want %d with %q\nstdout: %s\nstderr: %s", r.code, tt.wantCode, tt.want, r.stdout, r.stderr)
			}
			// The Go of the Action's go.mod, read from the checkout.
			wantOut := ""
			if tt.wantBuild {
				wantOut = "build=true\ngo-version=stable\n" // GITHUB_ACTION_PATH below holds no go.mod
			}
			if out, _ := os.ReadFile(outputs); string(out) != wantOut {
				t.Errorf("step outputs %q, want %q", out, wantOut)
			}
			_, err := os.Stat(filepath.Join(install, "stormcheck"))
			if tt.wantCode != 0 || tt.wantBuild {
				if err == nil {
					t.Error("a binary was installed")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(filepath.Join(install, "stormcheck"), "version").CombinedOutput()
			if err != nil {
				t.Fatalf("installed binary: %v\n%s", err, out)
			}
			if b, _ := os.ReadFile(path); string(b) != install+"\n" {
				t.Errorf("GITHUB_PATH = %q, want %q", b, install+"\n")
			}
		})
	}
}

// TestActionInstallNamesGo: a ref with no release hands setup-go the Go
// version of the Action's own go.mod.
func TestActionInstallNamesGo(t *testing.T) {
	need(t, "bash", "curl")
	src, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(mod), "\ngo ")
	gov, _, _ := strings.Cut(after, "\n")
	dir := t.TempDir()
	outputs := filepath.Join(dir, "github_output")
	r := script(t, dir, "action-install.sh", "VERSION=", "ACTION_REF=main", "GITHUB_ACTION_PATH="+src, "GITHUB_OUTPUT="+outputs,
		"STORMCHECK_DOWNLOAD_URL=http://127.0.0.1:1/download", "STORMCHECK_API_URL=http://127.0.0.1:1/api")
	if out, _ := os.ReadFile(outputs); r.code != 0 || gov == "" || string(out) != "build=true\ngo-version="+gov+"\n" {
		t.Errorf("exit %d, outputs %q, want go-version=%s\n%s%s", r.code, out, gov, r.stdout, r.stderr)
	}
}

// TestActionBuild runs the Action's fallback build on this checkout, as
// the runner lays it out for a commit-SHA pin: the binary lands on the
// PATH and its version names the ref.
func TestActionBuild(t *testing.T) {
	need(t, "bash", "go")
	src, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	install, path := filepath.Join(dir, "bin"), filepath.Join(dir, "github_path")
	const sha = "f00f5c13263f6d3a971f4b5e635f98f9bd0243c7"
	r := script(t, dir, "action-build.sh", "GITHUB_ACTION_PATH="+src, "ACTION_REF="+sha, "RUNNER_OS=Linux",
		"INSTALL_DIR="+install, "GITHUB_PATH="+path)
	if r.code != 0 || !strings.Contains(r.stdout, "stormcheck "+sha+"\n") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != install+"\n" {
		t.Errorf("GITHUB_PATH = %q, want %q", b, install+"\n")
	}
}

// TestActionAudit runs the Action's audit step in a subfolder
// (working-directory) of a temporary git repository: annotations on the
// log, SARIF with repository-relative paths, the step summary, and the
// exit code in the step outputs.
func TestActionAudit(t *testing.T) {
	need(t, "bash", "git")
	bin := filepath.Join(t.TempDir(), "stormcheck")
	if err := os.WriteFile(bin, buildStormcheck(t), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	wf, err := os.ReadFile(filepath.Join("..", "testdata", "examples", "charge-card.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "proj", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "proj", "workflows", "charge-card.json"), wf, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	outputs, summary := filepath.Join(t.TempDir(), "outputs"), filepath.Join(t.TempDir(), "summary.md")
	r := script(t, filepath.Join(repo, "proj"), "action-audit.sh", "STORMCHECK="+bin, "PATHS=workflows", "FAIL_ON=error",
		"SARIF=out/stormcheck.sarif", "CONFIG=", "BASELINE=", "EXTRA=--min-confidence medium",
		"GITHUB_OUTPUT="+outputs, "GITHUB_STEP_SUMMARY="+summary)
	if r.code != 0 {
		t.Fatalf("the audit step failed (exit %d): it must leave the status to the last step\n%s%s", r.code, r.stdout, r.stderr)
	}
	sarif := filepath.Join(repo, "proj", "out", "stormcheck.sarif")
	if b, _ := os.ReadFile(outputs); string(b) != "exit-code=1\nsarif-file="+sarif+"\n" {
		t.Errorf("step outputs:\n%s", b)
	}
	if !strings.Contains(r.stdout, "::error file=proj/workflows/charge-card.json,line=69,col=7,title=RS201") {
		t.Errorf("no annotation on the repository-relative path:\n%s", r.stdout)
	}
	if b, _ := os.ReadFile(sarif); !bytes.Contains(b, []byte(`"uri": "proj/workflows/charge-card.json"`)) {
		t.Errorf("SARIF URIs are not repository-relative:\n%.2000s", b)
	}
	if b, _ := os.ReadFile(summary); !bytes.Contains(b, []byte("RS201")) {
		t.Errorf("step summary:\n%s", b)
	}
}

// TestActionSteps: action.yml runs these scripts, installs nothing
// @latest, sets Go up only for the fallback build of a ref with no
// release, and runs the audit in working-directory.
func TestActionSteps(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct{ Default string }
		Runs   struct {
			Steps []struct {
				Name, Uses, Run, If, ID string
				WorkingDirectory        string `yaml:"working-directory"`
				Env                     map[string]string
				With                    map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("go install")) || bytes.Contains(b, []byte("@latest")) {
		t.Error("action.yml installs something @latest")
	}
	runs := map[string]string{}
	const fallback = "steps.install.outputs.build == 'true'"
	for _, s := range action.Runs.Steps {
		runs[s.Name] = s.Run
		if s.Name == "Install stormcheck" && (s.ID != "install" || s.Env["VERSION"] != "${{ inputs.version }}" || s.Env["ACTION_REF"] != "${{ github.action_ref }}") {
			t.Errorf("install step id %q, env %v: want id install, the version input and the Action's own ref", s.ID, s.Env)
		}
		if strings.HasPrefix(s.Uses, "actions/setup-go@") && (s.If != fallback || s.With["go-version"] != "${{ steps.install.outputs.go-version }}") {
			t.Errorf("setup-go runs if %q with %v: want only for the fallback, with the Go of the Action's go.mod", s.If, s.With)
		}
		if s.Run == `bash "$GITHUB_ACTION_PATH/scripts/action-build.sh"` && s.If != fallback {
			t.Errorf("the build runs if %q, want %q", s.If, fallback)
		}
		if s.Name == "Audit" && s.WorkingDirectory != "${{ inputs.working-directory }}" {
			t.Errorf("audit step working-directory = %q", s.WorkingDirectory)
		}
	}
	if runs["Install stormcheck"] != `bash "$GITHUB_ACTION_PATH/scripts/action-install.sh"` || runs["Audit"] != `bash "$GITHUB_ACTION_PATH/scripts/action-audit.sh"` ||
		runs["Build stormcheck (no release for this ref)"] != `bash "$GITHUB_ACTION_PATH/scripts/action-build.sh"` {
		t.Errorf("steps do not run the tested scripts: %v", runs)
	}
	if _, ok := action.Inputs["working-directory"]; !ok {
		t.Error("no working-directory input")
	}
}

// TestReleaseArchiveFiles: every file glob of the release archives in
// .goreleaser.yaml matches a file (the LICENSE among them).
func TestReleaseArchiveFiles(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Archives []struct{ Files []string }
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range cfg.Archives {
		for _, glob := range a.Files {
			n++
			if m, _ := filepath.Glob(filepath.Join("..", glob)); len(m) == 0 {
				t.Errorf(".goreleaser.yaml archives glob %q matches no file", glob)
			}
		}
	}
	if n == 0 {
		t.Error("no archive files in .goreleaser.yaml")
	}
	if l, err := os.ReadFile(filepath.Join("..", "LICENSE")); err != nil || !bytes.HasPrefix(l, []byte("MIT License")) {
		t.Errorf("LICENSE: %v, %.20q", err, l)
	}
}
