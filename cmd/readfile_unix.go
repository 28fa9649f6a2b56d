//go:build linux || darwin

package cmd

import (
	"io"
	"io/fs"
	"syscall"
)

// rawFile is a file read with bare system calls. An input is opened,
// stat'ed, read once and closed: four calls, where an os.File made six
// (its poller registration, refused for a regular file, and the read
// that meets the end): 1.5-2 % of the CPU of an audit of n8n-real's
// 2,361 files on the benchmark machine (docs/performance.md).
type rawFile struct {
	fd   int
	path string
}

// openFile opens path to read. O_NONBLOCK: opening a named pipe must not
// wait for a writer (readRegularWith then refuses it).
func openFile(path string) (rawFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return rawFile{fd: -1}, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return rawFile{fd: fd, path: path}, nil
	}
}

// stat is the file's type (as fs.FileMode type bits) and size.
func (f rawFile) stat() (fs.FileMode, int64, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, 0, &fs.PathError{Op: "stat", Path: f.path, Err: err}
		}
		break
	}
	var mode fs.FileMode
	switch uint32(st.Mode) & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		mode = fs.ModeDir
	case syscall.S_IFIFO:
		mode = fs.ModeNamedPipe
	case syscall.S_IFCHR:
		mode = fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		mode = fs.ModeDevice
	case syscall.S_IFSOCK:
		mode = fs.ModeSocket
	default:
		mode = fs.ModeIrregular
	}
	return mode, st.Size, nil
}

// maxRead bounds one read, as the os package does: some kernels refuse
// larger ones.
const maxRead = 1 << 30

// Read is io.Reader's: (0, io.EOF) at the end.
func (f rawFile) Read(b []byte) (int, error) {
	if len(b) > maxRead {
		b = b[:maxRead]
	}
	for {
		n, err := syscall.Read(f.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.path, Err: err}
		}
		if n == 0 && len(b) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Close() error {
	if f.fd < 0 {
		return nil
	}
	return syscall.Close(f.fd)
}
