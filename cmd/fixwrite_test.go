//go:build unix

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// fixable is a workflow --fix --unsafe-fixes repairs (a retried Stripe
// charge without an idempotency key), with its own id, and pad spaces
// after it to make it as large as a test needs.
func fixable(t *testing.T, id string, pad int) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "fix", "testdata", "stripe_charge.json"))
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.Replace(src, []byte("FixStripeCharge1"), []byte(id), 1)
	return append(src, bytes.Repeat([]byte(" "), pad)...)
}

// fixFolder writes the workflows into a new folder wf and returns it.
func fixFolder(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "wf")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// wasFixed says whether the file at p holds a repaired workflow.
func wasFixed(t *testing.T, p string) bool {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b) {
		t.Errorf("%s is not valid JSON after --fix (%d bytes)", p, len(b))
	}
	return bytes.Contains(b, []byte("Idempotency-Key"))
}

// duringFix runs edit on the files after --fix read them and before it
// writes them, as a person or another process would.
func duringFix(t *testing.T, edit func()) {
	t.Helper()
	was := fixWith
	t.Cleanup(func() { fixWith = was })
	fixWith = func(st *auditSettings, files []*n8nschema.File, unsafe bool) (*engine.Fixed, error) {
		res, err := was(st, files, unsafe)
		edit()
		return res, err
	}
}

// TestFixKeepsAnEditMadeMeanwhile: a file saved while --fix runs keeps the
// edit; the other files are fixed, the report is printed, the file is
// named and the run exits 3.
func TestFixKeepsAnEditMadeMeanwhile(t *testing.T) {
	dir := fixFolder(t, map[string][]byte{"a.json": fixable(t, "wfA", 0), "b.json": fixable(t, "wfB", 0)})
	edited := append(fixable(t, "wfA", 0), []byte("\n\n")...) // saved again by an editor
	duringFix(t, func() {
		if err := os.WriteFile(filepath.Join(dir, "a.json"), edited, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	r := run(t, "audit", "--fix", "--unsafe-fixes", "--fail-on", "never", dir)
	if got, _ := os.ReadFile(filepath.Join(dir, "a.json")); !bytes.Equal(got, edited) {
		t.Errorf("the edit saved meanwhile was lost; a.json holds:\n%s", got)
	}
	if !wasFixed(t, filepath.Join(dir, "b.json")) {
		t.Error("b.json was not fixed")
	}
	notWritten(t, r, "a.json (it changed since it was read)", 1)
}

// notWritten checks a run that could not write some fixed files: exit 3,
// the report on stdout, the files named once on stderr with why, and the
// count of those written.
func notWritten(t *testing.T, r result, want string, wrote int) {
	t.Helper()
	if r.code != ExitFailure {
		t.Errorf("exit %d, want %d", r.code, ExitFailure)
	}
	if !strings.Contains(r.stdout, "fixed, ") {
		t.Errorf("no report on stdout:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "not written") || !strings.Contains(r.stderr, want) ||
		!strings.Contains(r.stderr, countWord(wrote, "other file")) {
		t.Errorf("stderr does not name %q and %d written:\n%s", want, wrote, r.stderr)
	}
}

// TestFixNeverWritesOutside: a file swapped for a link to a shell rc file
// between read and write is not written through the link, and a link
// committed in the folder that leads out of it is not followed at all.
func TestFixNeverWritesOutside(t *testing.T) {
	home := t.TempDir()
	rc := filepath.Join(home, ".bashrc")
	rcText := []byte("export PATH=$HOME/bin:$PATH\n")
	outside := filepath.Join(home, "shared.json")
	for p, b := range map[string][]byte{rc: rcText, outside: fixable(t, "wfOut", 0)} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := fixFolder(t, map[string][]byte{"a.json": fixable(t, "wfA", 0), "b.json": fixable(t, "wfB", 0)})
	if err := os.Symlink(outside, filepath.Join(dir, "linked.json")); err != nil {
		t.Fatal(err)
	}
	duringFix(t, func() {
		a := filepath.Join(dir, "a.json")
		if err := os.Remove(a); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(rc, a); err != nil {
			t.Fatal(err)
		}
	})
	r := run(t, "audit", "--fix", "--unsafe-fixes", "--fail-on", "never", dir)
	if got, _ := os.ReadFile(rc); !bytes.Equal(got, rcText) {
		t.Errorf("the shell rc file was overwritten:\n%s", got)
	}
	if got, _ := os.ReadFile(outside); !bytes.Equal(got, fixable(t, "wfOut", 0)) {
		t.Error("a file outside the inputs, linked into them, was rewritten")
	}
	if !wasFixed(t, filepath.Join(dir, "b.json")) {
		t.Error("b.json was not fixed")
	}
	notWritten(t, r, "a.json (it is reached through a symbolic link that leads out of the inputs", 1)
}

// TestFixFollowsLinksInside: a file named on the command line through a
// link, and a link inside the folder, are fixed at their targets, and stay
// links.
func TestFixFollowsLinksInside(t *testing.T) {
	dir := fixFolder(t, map[string][]byte{"a.json": fixable(t, "wfA", 0)})
	if err := os.Symlink("a.json", filepath.Join(dir, "alias.json")); err != nil {
		t.Fatal(err)
	}
	r := run(t, "audit", "--fix", "--unsafe-fixes", "--fail-on", "never", dir)
	if r.code != ExitOK || !wasFixed(t, filepath.Join(dir, "a.json")) {
		t.Errorf("exit %d, a.json fixed %v\n%s%s", r.code, wasFixed(t, filepath.Join(dir, "a.json")), r.stdout, r.stderr)
	}
	if info, err := os.Lstat(filepath.Join(dir, "alias.json")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Error("the link inside the folder was replaced by a file")
	}
	other := t.TempDir()
	target := filepath.Join(other, "b.json")
	if err := os.WriteFile(target, fixable(t, "wfB", 0), 0o600); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(dir, "named.json")
	if err := os.Symlink(target, named); err != nil {
		t.Fatal(err)
	}
	r = run(t, "audit", "--fix", "--unsafe-fixes", "--fail-on", "never", named)
	if r.code != ExitOK || !wasFixed(t, target) {
		t.Errorf("a link named on the command line: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if info, _ := os.Stat(target); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after --fix, want 0600", info.Mode().Perm())
	}
}

// TestFixReadOnlyAmongSeveral: a file that cannot be written (read-only;
// immutable when the tests run as root) is named, and the others are
// still fixed.
func TestFixReadOnlyAmongSeveral(t *testing.T) {
	dir := fixFolder(t, map[string][]byte{"a.json": fixable(t, "wfA", 0), "b.json": fixable(t, "wfB", 0), "c.json": fixable(t, "wfC", 0)})
	b := filepath.Join(dir, "b.json")
	if err := os.Chmod(b, 0o444); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// Root writes files whatever their mode; not an immutable one.
		if out, err := exec.Command("chattr", "+i", b).CombinedOutput(); err != nil {
			t.Skipf("root, and chattr +i failed: %v %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("chattr", "-i", b).Run() })
	}
	r := run(t, "audit", "--fix", "--unsafe-fixes", "--fail-on", "never", dir)
	if got, _ := os.ReadFile(b); !bytes.Equal(got, fixable(t, "wfB", 0)) {
		t.Error("the read-only file was rewritten")
	}
	for _, name := range []string{"a.json", "c.json"} {
		if !wasFixed(t, filepath.Join(dir, name)) {
			t.Errorf("%s was not fixed", name)
		}
	}
	notWritten(t, r, "b.json (", 2)
}

// TestFixUnreadAndNotWritten: an input that cannot be read and a file that
// cannot be written are each named on a line of their own, exit 3.
func TestFixUnreadAndNotWritten(t *testing.T) {
	dir := fixFolder(t, map[string][]byte{"a.json": fixable(t, "wfA", 0), "b.json": fixable(t, "wfB", 0)})
	if err := os.Symlink("nowhere.json", filepath.Join(dir, "dangling.json")); err != nil {
		t.Fatal(err)
	}
	duringFix(t, func() {
		if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	r := run(t, "audit", "--fix", "--unsafe-fixes", "--fail-on", "never", "--format", "concise", dir)
	var failures []string
	for _, line := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
		if strings.HasPrefix(line, "stormcheck: ") {
			failures = append(failures, line)
		}
	}
	if r.code != ExitFailure || len(failures) != 2 || !strings.Contains(failures[0], "dangling.json (broken symbolic link") ||
		!strings.Contains(failures[1], "a.json (it changed since it was read); 1 other file was written") {
		t.Errorf("exit %d; want two failure lines, stderr:\n%s", r.code, r.stderr)
	}
}
