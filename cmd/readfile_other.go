//go:build !linux && !darwin

package cmd

import (
	"io/fs"
	"os"
	"syscall"
)

// rawFile is an os.File where bare system calls are not used
// (readfile_unix.go).
type rawFile struct{ *os.File }

func openFile(path string) (rawFile, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	return rawFile{f}, err
}

// stat is the file's type (as fs.FileMode type bits) and size.
func (f rawFile) stat() (fs.FileMode, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	return st.Mode().Type(), st.Size(), nil
}

func (f rawFile) Close() error {
	if f.File == nil {
		return nil
	}
	return f.File.Close()
}
