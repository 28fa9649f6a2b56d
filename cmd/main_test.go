package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

type result struct {
	code           int
	stdout, stderr string
}

// runArgs runs stormcheck through Run with buffers for stdout and stderr,
// env as the whole environment, and stdin as standard input.
func runArgs(t *testing.T, env map[string]string, tty bool, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, &IO{
		In: strings.NewReader(stdin), Out: &out, Err: &errb,
		Getenv:   func(k string) string { return env[k] },
		OutIsTTY: tty, ErrIsTTY: tty,
		Getwd: os.Getwd,
	})
	return result{code, out.String(), errb.String()}
}

func run(t *testing.T, args ...string) result {
	t.Helper()
	return runArgs(t, nil, false, "", args...)
}

func td(name string) string { return filepath.Join("testdata", name) }

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
		// stderrHas is a piece of the error message (empty: stderr must be empty).
		stderrHas string
	}{
		{"clean workflow", []string{"audit", td("clean.json")}, ExitOK, ""},
		{"clean workflows", []string{"audit", td("clean.json"), td("clean_two.json")}, ExitOK, ""},
		{"warning under the default fail-on error", []string{"audit", td("broken_connection.json")}, ExitOK, ""},
		{"warning with fail-on warning", []string{"audit", "--fail-on", "warning", td("broken_connection.json")}, ExitFindings, ""},
		{"warning with fail-on note", []string{"audit", "--fail-on=note", td("broken_connection.json")}, ExitFindings, ""},
		{"warning with fail-on never", []string{"audit", "--fail-on", "never", td("broken_connection.json")}, ExitOK, ""},
		{"error under the default fail-on", []string{"audit", td("trailing_garbage.json")}, ExitFindings, ""},
		{"error with fail-on never", []string{"audit", "--fail-on", "never", td("trailing_garbage.json")}, ExitOK, ""},
		{"error in json format", []string{"audit", "--format", "json", td("trailing_garbage.json")}, ExitFindings, ""},
		{"note from a walked folder", []string{"audit", td("notes_only")}, ExitOK, ""},
		{"note with fail-on warning", []string{"audit", "--fail-on", "warning", td("notes_only")}, ExitOK, ""},
		{"note with fail-on note", []string{"audit", "--fail-on", "note", td("notes_only")}, ExitFindings, ""},
		{"glob", []string{"audit", td("clean*.json")}, ExitOK, ""},

		{"bad flag", []string{"audit", "--no-such-flag", td("clean.json")}, ExitUsage, "unknown flag: --no-such-flag"},
		{"bad format", []string{"audit", "--format", "xml", td("clean.json")}, ExitUsage, `--format "xml"`},
		{"bad fail-on", []string{"audit", "--fail-on", "warn", td("clean.json")}, ExitUsage, `--fail-on "warn"`},
		{"bad color", []string{"audit", "--color", "sometimes", td("clean.json")}, ExitUsage, `--color "sometimes"`},
		{"bad max-attempts", []string{"audit", "--max-attempts", "0", td("clean.json")}, ExitUsage, "--max-attempts 0"},
		{"workers that wrap around", []string{"audit", "--workers", "4294967296", td("clean.json")}, ExitUsage, "--workers 4294967296: want a whole number from 1 to 1000000"},
		{"simulate workers that wrap around", []string{"simulate", "--outage", "api.example.com:10s", "--workers", "4294967296", "--concurrency", "4294967296", td("clean.json")}, ExitUsage, "--workers 4294967296, --concurrency 4294967296: want whole numbers from 1 to 1000000"},
		{"items past the ceiling", []string{"audit", "--items", "1000001", td("clean.json")}, ExitUsage, "--items 1000001: want a whole number from 1 to 1000000"},
		{"no path", []string{"audit"}, ExitUsage, "audit needs a PATH"},
		{"missing path", []string{"audit", td("does-not-exist.json")}, ExitUsage, "does-not-exist.json: no such file or folder"},
		{"glob matching nothing", []string{"audit", td("*.nomatch")}, ExitUsage, "no file matches it as a glob"},
		{"folder without a workflow", []string{"audit", td("no_workflow")}, ExitUsage, "no workflow found in the inputs (2 files read)"},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			r := run(t, tt.args...)
			if r.code != tt.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.want, r.stdout, r.stderr)
			}
			if tt.stderrHas == "" && r.stderr != "" {
				t.Errorf("stderr should be empty, got:\n%s", r.stderr)
			}
			if tt.stderrHas != "" && !strings.Contains(r.stderr, tt.stderrHas) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderrHas, r.stderr)
			}
			if tt.stderrHas != "" && !strings.HasPrefix(r.stderr, "stormcheck: ") && tt.want != ExitOK {
				t.Errorf("stderr should start with \"stormcheck: \", got:\n%s", r.stderr)
			}
		})
	}
}

func TestEmptyFolder(t *testing.T) {
	r := run(t, "audit", t.TempDir())
	if r.code != ExitUsage || !strings.Contains(r.stderr, "no workflow found in the inputs (0 files read)") {
		t.Errorf("exit %d, stderr %q; want %d and \"no workflow found\"", r.code, r.stderr, ExitUsage)
	}
}

func TestUnreadable(t *testing.T) {
	clean, err := os.ReadFile(td("clean.json"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("chmod_000", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads files whatever their mode; the broken-symlink case covers exit 3")
		}
		p := filepath.Join(t.TempDir(), "secret.json")
		if err := os.WriteFile(p, clean, 0o000); err != nil {
			t.Fatal(err)
		}
		r := run(t, "audit", p)
		if r.code != ExitFailure || !strings.Contains(r.stderr, "permission denied") {
			t.Errorf("exit %d, stderr %q; want %d and permission denied", r.code, r.stderr, ExitFailure)
		}
	})
	t.Run("broken_symlink_in_folder", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a.json"), clean, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, "gone.json"), filepath.Join(dir, "b.json")); err != nil {
			t.Skipf("cannot make a symlink: %v", err)
		}
		r := run(t, "audit", dir)
		if r.code != ExitFailure || !strings.HasPrefix(r.stderr, "stormcheck: ") || !strings.Contains(r.stderr, "b.json") {
			t.Errorf("exit %d, stderr %q; want %d naming b.json", r.code, r.stderr, ExitFailure)
		}
	})
	t.Run("read_error", func(t *testing.T) {
		// /proc/self/mem stats as a regular file but reading offset 0 fails.
		const p = "/proc/self/mem"
		if _, err := os.Stat(p); err != nil {
			t.Skip("no /proc/self/mem")
		}
		r := run(t, "audit", p)
		if r.code != ExitFailure || !strings.HasPrefix(r.stderr, "stormcheck: ") {
			t.Errorf("exit %d, stderr %q; want %d", r.code, r.stderr, ExitFailure)
		}
	})
}

func TestStdin(t *testing.T) {
	clean, err := os.ReadFile(td("clean.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := runArgs(t, nil, false, string(clean), "audit", "-")
	if r.code != ExitOK || r.stdout != "no findings in 1 workflow (1 file, 2 nodes)\n" {
		t.Errorf("clean stdin: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	broken, err := os.ReadFile(td("trailing_garbage.json"))
	if err != nil {
		t.Fatal(err)
	}
	r = runArgs(t, nil, false, string(broken), "audit", "-")
	if r.code != ExitFindings || !strings.HasPrefix(r.stdout, "<stdin>:") {
		t.Errorf("broken stdin: exit %d, stdout %q; want %d and findings on <stdin>", r.code, r.stdout, ExitFindings)
	}
	r = runArgs(t, nil, false, "", "audit", "-")
	if r.code != ExitUsage {
		t.Errorf("empty stdin: exit %d, want %d (no workflow)", r.code, ExitUsage)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		r := run(t, args...)
		if r.code != ExitOK || r.stdout != "stormcheck dev\n" || r.stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and \"stormcheck dev\\n\"", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestRulesCommand(t *testing.T) {
	r := run(t, "rules")
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{"RS001", "invalid-json", "RS002", "not-a-workflow", "RS003", "RS004"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("rules output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestColor(t *testing.T) {
	file := td("broken_connection.json")
	tests := []struct {
		name string
		env  map[string]string
		tty  bool
		args []string
		want bool
	}{
		{"not a tty", nil, false, nil, false},
		{"tty", nil, true, nil, true},
		{"tty with NO_COLOR", map[string]string{"NO_COLOR": "1"}, true, nil, false},
		{"tty with CLICOLOR=0", map[string]string{"CLICOLOR": "0"}, true, nil, false},
		{"CLICOLOR_FORCE without a tty", map[string]string{"CLICOLOR_FORCE": "1"}, false, nil, true},
		{"FORCE_COLOR without a tty", map[string]string{"FORCE_COLOR": "1"}, false, nil, true},
		{"FORCE_COLOR=true beats NO_COLOR", map[string]string{"FORCE_COLOR": "true", "NO_COLOR": "1"}, false, nil, true},
		{"FORCE_COLOR=0 forces nothing", map[string]string{"FORCE_COLOR": "0"}, false, nil, false},
		{"FORCE_COLOR but --color never", map[string]string{"FORCE_COLOR": "1"}, true, []string{"--color", "never"}, false},
		{"always", nil, false, []string{"--color", "always"}, true},
		{"always beats NO_COLOR", map[string]string{"NO_COLOR": "1"}, false, []string{"--color=always"}, true},
		{"never on a tty", nil, true, []string{"--color", "never"}, false},
		{"json never coloured", nil, true, []string{"--color", "always", "--format", "json"}, false},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			args := append(append([]string{"audit"}, tt.args...), file)
			r := runArgs(t, tt.env, tt.tty, "", args...)
			if r.code != ExitOK {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			if got := strings.Contains(r.stdout, "\x1b["); got != tt.want {
				t.Errorf("escape sequences in stdout = %v, want %v:\n%q", got, tt.want, r.stdout)
			}
		})
	}
}

// TestConciseFindingLine checks the concise format, the shape editors and
// CI annotators read: file:line:col: severity: message [ID name], one line
// per finding, then the summary.
func TestConciseFindingLine(t *testing.T) {
	r := run(t, "audit", "--root", ".", "--format", "concise", td("broken_connection.json"))
	want := `testdata/broken_connection.json:52:5: warning: connections name source node "Send greeting", which does not exist [RS003 broken-connection]
1 finding (0 errors, 1 warning, 0 notes) in 1 workflow (1 file, 2 nodes)
`
	if r.code != ExitOK || r.stdout != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
}

// TestTextBlock checks the text format's block: the place and node once,
// the snippet, one line per finding, and the rule's fix after the blocks.
func TestTextBlock(t *testing.T) {
	r := run(t, "audit", "--root", ".", td("broken_connection.json"))
	want := `testdata/broken_connection.json:52:5: workflow "Say hello, broken"
  52 |     "Send greeting": {
     |     ^~~~~~~~~~~~~~~
  warning: connections name source node "Send greeting", which does not exist [RS003 broken-connection]

fixes (stormcheck explain RULE tells why)
  RS003 broken-connection: `
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, want) {
		t.Errorf("exit %d, stdout:\n%s\nwant it to start:\n%s", r.code, r.stdout, want)
	}
}

func TestUnknownCommandIsUsage(t *testing.T) {
	for _, args := range [][]string{{"frobnicate"}, {"version", "extra"}, {"audit", "--bogus"}} {
		if code, _, errOut := runWith(t, nil, args...); code != ExitUsage || !strings.Contains(errOut, "--help") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 pointing at --help", args, code, errOut)
		}
	}
	const want = "stormcheck: unknown flag: --bogus\nRun 'stormcheck audit --help' for usage.\n"
	if _, _, errOut := runWith(t, nil, "audit", "--bogus"); errOut != want {
		t.Errorf("audit --bogus: stderr %q, want %q", errOut, want)
	}
	if code, _, _ := runWith(t, nil); code != ExitOK {
		t.Errorf("no arguments: exit %d, want 0 (help)", code)
	}
}

func TestSkippedFilesCountOnlyNonWorkflows(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "x", "version": "1.0.0"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.json"), []byte(`{"nodes": [`), 0o644)
	os.WriteFile(filepath.Join(dir, "wf.json"), []byte(`{"name": "ok", "nodes": [], "connections": {}}`), 0o644)
	code, out, errOut := runWith(t, nil, "audit", "--format", "json", "--fail-on", "never", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Summary struct {
			SkippedFiles int `json:"skipped_files"`
			Errors       int `json:"errors"`
			Notes        int `json:"notes"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	// package.json is skipped (an RS002 note); the broken file is an RS001 error, not skipped.
	if doc.Summary.SkippedFiles != 1 || doc.Summary.Errors != 1 || doc.Summary.Notes != 1 {
		t.Errorf("summary %+v, want 1 skipped file, 1 error, 1 note", doc.Summary)
	}
}

// TestDidYouMean: a mistyped command or flag names the one that was meant;
// one far from any does not guess.
func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"audti", "x.json"}, `stormcheck: unknown command "audti" for "stormcheck"; did you mean "audit"?`},
		{[]string{"rule"}, `stormcheck: unknown command "rule" for "stormcheck"; did you mean "rules"?`},
		{[]string{"frobnicate"}, `stormcheck: unknown command "frobnicate" for "stormcheck"` + "\n"},
		{[]string{"audit", "--fail-no", "never", "x.json"}, "unknown flag: --fail-no; did you mean --fail-on?"},
		{[]string{"graph", "--max-attempts", "1.5", "x.json"}, `--max-attempts "1.5": want a whole number`},
	} {
		code, _, errOut := runWith(t, nil, tt.args...)
		if code != ExitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tt.args, code, errOut, ExitUsage, tt.want)
		}
	}
}

// TestPatternsCompile: every pattern of every package the binary links
// compiles (they are compiled on first use, so a bad one would otherwise
// fail only the run that meets it).
func TestPatternsCompile(t *testing.T) {
	if err := lazyregexp.Check(); err != nil {
		t.Fatal(err)
	}
}
