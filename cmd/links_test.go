//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/report"
)

// TestWalkSkipsLinksOut: a folder from a pull request holds links to files
// outside it (a secret, a JSON file that is no workflow) and to a hidden
// file inside it. The walk reads none of them: no format quotes a byte of
// them, and each is reported as skipped, its name escaped.
func TestWalkSkipsLinksOut(t *testing.T) {
	clean, err := os.ReadFile(td("clean.json"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	secret := filepath.Join(home, "secret.txt")
	other := filepath.Join(home, "other.json")
	const line = "SENTINEL-first-line of a file outside the inputs"
	if err := os.WriteFile(secret, []byte(line+"\nmore\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte(`{"note": "`+line+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "wf")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"ok.json": string(clean), ".env": line + "\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hostile := "leak\x1b]0;pwned\x07\u202e.json"
	for link, target := range map[string]string{
		"leak.json":  secret,
		"other.json": "../../" + filepath.Base(home) + "/other.json",
		hostile:      secret,
		"env.json":   ".env",
		"alias.json": "ok.json", // inside and walked: followed
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "other.json")); err != nil {
		t.Fatalf("the relative link does not lead where the test means: %v", err)
	}
	for _, format := range report.Formats {
		r := run(t, "audit", "--format", format, "--fail-on", "never", dir)
		if r.code != ExitOK {
			t.Errorf("%s: exit %d, stderr %q", format, r.code, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, "SENTINEL") {
			t.Errorf("%s: a report quotes a file outside the inputs:\n%s%s", format, r.stdout, r.stderr)
		}
		if strings.ContainsAny(r.stdout, "\x1b\x07") || (format != "json" && strings.Contains(r.stdout, "\u202e")) {
			t.Errorf("%s: the link's name is not escaped:\n%q", format, r.stdout)
		}
	}
	r := run(t, "audit", "--format", "concise", "--fail-on", "never", dir)
	for _, name := range []string{"leak.json", "other.json", "env.json", report.Printable(hostile)} {
		if !strings.Contains(r.stdout, "/"+name+": note: skipped: a symbolic link that leads out of the inputs") {
			t.Errorf("%s is not reported as a skipped link:\n%s", name, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "alias.json: note: skipped") {
		t.Errorf("a link inside the inputs is reported as skipped:\n%s", r.stdout)
	}
	// Named on the command line, the link is read: the user asked for it.
	r = run(t, "audit", "--format", "concise", "--fail-on", "never", filepath.Join(dir, "other.json"))
	if !strings.Contains(r.stdout, "RS002") {
		t.Errorf("a link named on the command line is not read:\n%s", r.stdout)
	}
	// The folder holding the target is an input too: followed.
	r = run(t, "audit", "--format", "concise", "--fail-on", "never", dir, home)
	if strings.Contains(r.stdout, "other.json:1:1: note RS002 skipped") {
		t.Errorf("a link into another input is skipped:\n%s", r.stdout)
	}
}
