package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/engine"
)

// A reader that panics on some inputs ends the run with exit 3 and the
// panic's message, like a rule's panic, whichever worker meets it first:
// the message is the first panicking file's, the other workers finish, and
// the run returns.
func TestParserPanicIsInternalError(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(r func(*engine.Input, int64) ([]byte, error)) { readInput = r }(readInput)
	readInput = func(in *engine.Input, limit int64) ([]byte, error) {
		if name := filepath.Base(in.Name); strings.HasPrefix(name, "boom") {
			panic("reader exploded on " + name)
		}
		return in.Read(limit)
	}
	clean, err := os.ReadFile(td("clean.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range 40 {
		name := fmt.Sprintf("ok%02d.json", i)
		if i%10 == 7 {
			name = fmt.Sprintf("boom%02d.json", i)
		}
		if err := os.WriteFile(filepath.Join(dir, name), clean, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan result, 1)
	go func() { done <- runArgs(t, nil, false, "", "audit", dir) }()
	var r result
	select {
	case r = <-done:
	case <-time.After(time.Minute): // a liveness bound, not a speed one
		t.Fatal("audit did not return: the worker pool is stuck after a panic")
	}
	if r.code != ExitFailure {
		t.Errorf("exit %d, want %d (internal error)", r.code, ExitFailure)
	}
	if want := "stormcheck: internal error: reader exploded on boom07.json\n"; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr starts %q, want %q", firstLine(r.stderr), want)
	}
	if !strings.Contains(r.stderr, "panic_test.go") {
		t.Errorf("stderr does not show the stack of the reader that panicked:\n%s", r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout %q, want nothing: no report after an internal error", r.stdout)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
