//go:build unix

package engine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadFileRefusesWhatIsNotRegular: the raw read names the type as
// os.Stat does, without blocking on a FIFO, and errors are os's.
func TestReadFileRefusesWhatIsNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p.json")
	paths := []string{dir, os.DevNull}
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		paths = append(paths, fifo)
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ReadFile(p, 1<<20)
		var nr NotRegularError
		if !errors.As(err, &nr) || nr.Mode != st.Mode().Type() {
			t.Errorf("%s: err %v, want NotRegularError of %v", p, err, st.Mode().Type())
		}
	}
	_, err := ReadFile(filepath.Join(dir, "missing.json"), 1<<20)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: err %v, want os's open error", err)
	}
}
