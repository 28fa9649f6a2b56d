//go:build !unix

package engine

import (
	"os"
	"syscall"
)

// ReadFile reads a regular file of at most limit bytes (read_unix.go reads
// through system calls instead).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	mode, size := st.Mode(), st.Size()
	if !mode.IsRegular() {
		return nil, NotRegularError{Mode: mode}
	}
	if size > limit {
		return nil, ErrTooLarge
	}
	return readSized(f, limit, size)
}
