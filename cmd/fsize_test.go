//go:build linux

package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestHelperUnderFileSizeLimit is not a test: TestWritesUnderFileSizeLimit
// runs the test binary as stormcheck with RLIMIT_FSIZE set, as a full
// disk (or a run killed mid-write) would cut a write short.
func TestHelperUnderFileSizeLimit(t *testing.T) {
	limit, err := strconv.ParseUint(os.Getenv("STORMCHECK_FSIZE"), 10, 64)
	if err != nil {
		t.Skip("run by TestWritesUnderFileSizeLimit")
	}
	signal.Ignore(syscall.SIGXFSZ) // a write past the limit fails with EFBIG instead
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatal(err)
	}
	os.Exit(Main(strings.Split(os.Getenv("STORMCHECK_ARGS"), "\n"), os.Stdout, os.Stderr))
}

// underFileSizeLimit runs stormcheck with files limited to limit bytes.
func underFileSizeLimit(t *testing.T, limit int, args ...string) result {
	t.Helper()
	c := exec.Command(os.Args[0], "-test.run=^TestHelperUnderFileSizeLimit$")
	c.Env = append(os.Environ(), "STORMCHECK_FSIZE="+strconv.Itoa(limit), "STORMCHECK_ARGS="+strings.Join(args, "\n"))
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

// TestWritesUnderFileSizeLimit: a write cut short (here by RLIMIT_FSIZE,
// as by a full disk) leaves the file it replaces whole: --fix fixes the
// files it can, prints the report and names the one it could not;
// --write-baseline and a report file keep their old bytes.
func TestWritesUnderFileSizeLimit(t *testing.T) {
	const limit = 64 << 10
	big := fixable(t, "wfBig", 4*limit) // larger than the limit once fixed
	dir := fixFolder(t, map[string][]byte{"a.json": fixable(t, "wfA", 0), "big.json": big, "c.json": fixable(t, "wfC", 0)})
	r := underFileSizeLimit(t, limit, "audit", "--fix", "--unsafe-fixes", "--fail-on", "never", dir)
	if got, _ := os.ReadFile(filepath.Join(dir, "big.json")); !bytes.Equal(got, big) {
		t.Errorf("big.json was cut to %d of %d bytes", len(got), len(big))
	}
	for _, name := range []string{"a.json", "c.json"} {
		if !wasFixed(t, filepath.Join(dir, name)) {
			t.Errorf("%s was not fixed", name)
		}
	}
	notWritten(t, r, "big.json (file too large)", 2)
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("%d entries in the folder: a temporary file was left", len(ents))
	}

	// A baseline and a report larger than the limit: the old ones stay,
	// the report on stdout is still printed, exit 3.
	out := t.TempDir()
	baseline, sarif := filepath.Join(out, "baseline.json"), filepath.Join(out, "report.sarif")
	for _, p := range []string{baseline, sarif} {
		if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	many := map[string][]byte{}
	for i := range 400 {
		many["w"+strconv.Itoa(i)+".json"] = fixable(t, "wfMany"+strconv.Itoa(i), 0)
	}
	dir = fixFolder(t, many)
	r = underFileSizeLimit(t, limit, "audit", "--fail-on", "never", "--write-baseline", baseline, "--format", "sarif="+sarif, "--format", "concise", dir)
	for _, p := range []string{baseline, sarif} {
		if got, _ := os.ReadFile(p); string(got) != "old\n" {
			t.Errorf("%s was cut short: %d bytes", filepath.Base(p), len(got))
		}
	}
	if r.code != ExitFailure || !strings.Contains(r.stdout, "RS201") ||
		!strings.Contains(r.stderr, "write baseline: "+baseline+": file too large") ||
		!strings.Contains(r.stderr, "write sarif report: "+sarif+": file too large") {
		t.Errorf("exit %d; stderr:\n%s\nstdout (%d bytes)", r.code, r.stderr, len(r.stdout))
	}
}
