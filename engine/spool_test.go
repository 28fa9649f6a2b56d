package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// Where an open file cannot be unlinked (Windows), the spool is removed
// when the command ends and on SIGINT or SIGTERM, after which the process
// dies of the signal as before. The signal half runs in a child process:
// it ends the process it arrives in.
func TestRemoveOnSignal(t *testing.T) {
	if path := os.Getenv("STORMCHECK_TEST_SPOOL_CHILD"); path != "" {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			os.Exit(5)
		}
		removeOnSignal(f)
		fmt.Println("ready")
		time.Sleep(10 * time.Second)
		os.Exit(6) // the signal never came, or did not end the process
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "ended"))
	if err != nil {
		t.Fatal(err)
	}
	done := removeOnSignal(f)
	done()
	done() // idempotent
	if _, err := os.Stat(f.Name()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after done, the spool is still there (%v)", err)
	}

	if runtime.GOOS == "windows" {
		return
	}
	path := filepath.Join(dir, "signalled")
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	child := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestRemoveOnSignal$")
	child.Env = append(os.Environ(), "STORMCHECK_TEST_SPOOL_CHILD="+path)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		child.Process.Kill()
		child.Wait()
		t.Fatalf("child said %q", line)
	}
	child.Process.Signal(syscall.SIGTERM)
	err = child.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("child ended with %v, want killed by SIGTERM", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after SIGTERM, the spool is still there (%v)", err)
	}
}
