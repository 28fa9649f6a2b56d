//go:build unix

package engine

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
)

// ReadFile reads a regular file of at most limit bytes. It opens without
// blocking, so that a named pipe is refused instead of waited on. It reads
// through system calls, not an os.File: os registers an fd opened
// O_NONBLOCK with the netpoller, which refuses a regular file (a failing
// epoll_ctl for every file read), and sets a finalizer on it.
func ReadFile(path string, limit int64) ([]byte, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := retryEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if uint32(st.Mode)&syscall.S_IFMT != syscall.S_IFREG {
		return nil, NotRegularError{Mode: typeOf(uint32(st.Mode))}
	}
	if st.Size > limit {
		return nil, ErrTooLarge
	}
	b, err := readSized(fdReader(fd), limit, st.Size)
	if err != nil && !errors.Is(err, ErrTooLarge) {
		err = &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return b, err
}

// fdReader reads an open file: io.EOF at its end, as os.File does.
type fdReader int

func (r fdReader) Read(b []byte) (int, error) {
	var n int
	err := retryEINTR(func() (err error) {
		n, err = syscall.Read(int(r), b)
		return err
	})
	switch {
	case err != nil:
		return 0, err
	case n == 0 && len(b) > 0:
		return 0, io.EOF
	}
	return n, nil
}

func retryEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}

// typeOf is the type bits of fs.FileMode for a stat mode that is not a
// regular file's, as os.Stat gives them.
func typeOf(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}
