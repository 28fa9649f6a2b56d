//go:build unix

package cmd

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// These tests give stormcheck inputs that have no end or never arrive. A
// fix that regresses must make them fail, not hang: the FIFOs get a writer
// that closes at once (so a blocking read ends with EOF), infinite readers
// stop after a bound, and devices are read under a small --max-file-size.

// mkfifo makes a named pipe at p. Should stormcheck open it for reading
// (the bug), a writer opens and closes it so the read sees EOF instead of
// blocking forever; when stormcheck leaves it alone, cleanup releases the
// writer.
func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
	}()
	t.Cleanup(func() {
		if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			r.Close()
		}
	})
}

func TestInputLimitsFIFOInFolderIsSkipped(t *testing.T) {
	dir := t.TempDir()
	copyTestdata(t, "broken_connection.json", filepath.Join(dir, "a.json"))
	mkfifo(t, filepath.Join(dir, "pipe.json"))
	r := run(t, "audit", "--format", "json", dir)
	if r.code != ExitOK || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q; want %d: a pipe in a folder is no workflow file", r.code, r.stderr, ExitOK)
	}
	got := strings.Join(jsonFindings(t, r.stdout), "\n")
	want := `a.json RS003 connections name source node "Send greeting", which does not exist`
	if got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
}

func TestInputLimitsNotRegularGivenByName(t *testing.T) {
	dir := t.TempDir()
	copyTestdata(t, "broken_connection.json", filepath.Join(dir, "a.json"))
	fifo := filepath.Join(dir, "pipe.json")
	mkfifo(t, fifo)
	tests := []struct{ path, want string }{
		{fifo, "pipe.json RS001 not read: a named pipe, not a regular file (pipe the data to - instead)"},
		{"/dev/zero", "zero RS001 not read: a device, not a regular file"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skip(err)
			}
			// 4KiB: should the device check regress, the read still ends.
			r := run(t, "audit", "--format", "json", "--max-file-size", "4KiB", filepath.Join(dir, "a.json"), tt.path)
			if r.code != ExitFailure || !strings.Contains(r.stderr, "1 input could not be read: ") {
				t.Fatalf("exit %d, stderr %q; want %d naming the input", r.code, r.stderr, ExitFailure)
			}
			got := jsonFindings(t, r.stdout)
			if len(got) != 2 || !strings.HasPrefix(got[0], "a.json RS003 ") && !strings.HasPrefix(got[1], "a.json RS003 ") || !slices.Contains(got, tt.want) {
				t.Errorf("findings:\n%s\nwant a.json's RS003 and %q", strings.Join(got, "\n"), tt.want)
			}
		})
	}
}

// endless is /dev/zero as a reader, cut off at n bytes so that a
// regression that reads it all still ends.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	k := min(len(p), e.n)
	clear(p[:k])
	e.n -= k
	return k, nil
}

func TestInputLimitsStdinCeiling(t *testing.T) {
	var out, errb strings.Builder
	code := Run([]string{"audit", "--format", "json", "--max-file-size", "64KiB", "-"}, &IO{
		In: &endless{n: 8 << 20}, Out: &out, Err: &errb,
		Getenv: func(string) string { return "" }, Getwd: os.Getwd,
	})
	if code != ExitFailure || errb.String() != "stormcheck: 1 input could not be read: <stdin> (larger than --max-file-size (64 KiB))\n" {
		t.Fatalf("exit %d, stderr %q; want %d and <stdin> named", code, errb.String(), ExitFailure)
	}
	got := strings.Join(jsonFindings(t, out.String()), "\n")
	if want := "<stdin> RS001 not read: larger than --max-file-size (64 KiB)"; got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
}

func TestInputLimitsFileCeiling(t *testing.T) {
	dir := t.TempDir()
	copyTestdata(t, "clean.json", filepath.Join(dir, "a.json"))
	big := `{"name": "big", "nodes": [], "connections": {}, "pad": "` + strings.Repeat("x", 2000) + `"}`
	if err := os.WriteFile(filepath.Join(dir, "big.json"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "audit", "--format", "json", "--max-file-size", "2000B", dir)
	if r.code != ExitFailure {
		t.Fatalf("exit %d, want %d; stderr %q", r.code, ExitFailure, r.stderr)
	}
	got := strings.Join(jsonFindings(t, r.stdout), "\n")
	if want := "big.json RS001 not read: larger than --max-file-size (2000 bytes)"; got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
	// The default reads it.
	if r := run(t, "audit", dir); r.code != ExitOK {
		t.Errorf("default --max-file-size: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestInputLimitsBadMaxFileSize(t *testing.T) {
	for _, v := range []string{"0", "-1", "1TB", "lots", "9223372036854775807GiB"} {
		r := run(t, "audit", "--max-file-size", v, td("clean.json"))
		if r.code != ExitUsage || !strings.Contains(r.stderr, "--max-file-size") {
			t.Errorf("--max-file-size %s: exit %d, stderr %q; want %d", v, r.code, r.stderr, ExitUsage)
		}
	}
}

// TestInputLimitsAPIKeyFile: --api-key-file is read like every other
// file: a named pipe is refused, not waited on, and a large file is not a
// key file. Neither message quotes the flag's value.
func TestInputLimitsAPIKeyFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "key")
	mkfifo(t, fifo)
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 100<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, want string }{
		{fifo, "stormcheck: read --api-key-file: a named pipe, not a regular file (the flag takes the path of a file holding the key)\n"},
		{big, "stormcheck: --api-key-file names a file larger than 64 KiB: not a key file\n"},
	} {
		r := run(t, "audit", "--n8n-url", "http://127.0.0.1:9", "--api-key-file", tt.path)
		if r.code == ExitOK || r.stderr != tt.want {
			t.Errorf("%s: exit %d, stderr %q; want %q", filepath.Base(tt.path), r.code, r.stderr, tt.want)
		}
	}
}

func TestInputLimitsConfigAboveIsBounded(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T, p string)
		want string
	}{
		{"fifo", mkfifo, "/.stormcheck.yaml: a named pipe, not a regular file; not read"},
		{"too_large", func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte(strings.Repeat("# padding\n", 200_000)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "/.stormcheck.yaml: larger than 1 MiB; not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			wd := filepath.Join(root, "work")
			if err := os.Mkdir(wd, 0o755); err != nil {
				t.Fatal(err)
			}
			tt.make(t, filepath.Join(root, configName))
			copyTestdata(t, "clean.json", filepath.Join(wd, "a.json"))
			var out, errb strings.Builder
			code := Run([]string{"audit", "a.json"}, &IO{
				In: strings.NewReader(""), Out: &out, Err: &errb,
				Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return wd, nil },
			})
			if code != ExitUsage || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errb.String(), ExitUsage, tt.want)
			}
		})
	}
}

// TestInputLimitsUnreadNameIsEscaped: the stderr line naming an unread
// input escapes its name, so a file named with a newline and "::error"
// cannot forge a GitHub Actions annotation in a CI log.
func TestInputLimitsUnreadNameIsEscaped(t *testing.T) {
	dir := t.TempDir()
	copyTestdata(t, "clean.json", filepath.Join(dir, "a.json"))
	name := "b\n::error file=x,line=1::forged.json"
	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, name)); err != nil {
		t.Skipf("cannot make the symlink: %v", err)
	}
	r := run(t, "audit", "--format", "json", dir)
	if r.code != ExitFailure || strings.Contains(r.stderr, "\n::error") || !strings.Contains(r.stderr, `b\n::error file=x,line=1::forged.json (broken symbolic link`) {
		t.Errorf("exit %d, stderr %q; want %d and the name escaped", r.code, r.stderr, ExitFailure)
	}
}
