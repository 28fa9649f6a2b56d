package engine

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"
)

// NotRegularError refuses a path that is not a regular file: reading a
// named pipe waits for a writer, a device like /dev/zero never ends.
type NotRegularError struct{ Mode fs.FileMode }

func (e NotRegularError) Error() string {
	what := "not a regular file"
	switch t := e.Mode.Type(); {
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe, not a regular file"
	case t&fs.ModeDevice != 0 || t&fs.ModeCharDevice != 0:
		what = "a device, not a regular file"
	case t&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	case t&fs.ModeDir != 0:
		what = "a folder"
	}
	return what
}

// ReadFile reads a regular file of at most limit bytes. It opens without
// blocking, so that a named pipe is refused instead of waited on.
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

// ReadAll reads r to its end, or fails with ErrTooLarge after limit
// bytes without reading further (stdin may be /dev/zero).
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	return readSized(r, limit, -1)
}

// readSized is readLimited with the size fstat gave (-1 for a pipe). The
// buffer starts at the size, so a file is read into one allocation of its
// size (io.ReadAll grew from 512 bytes: a 200 MB file took 435 MB of RSS,
// now 219 MB), and it doubles from there but never past limit+1.
func readSized(r io.Reader, limit, size int64) ([]byte, error) {
	return readInto(r, limit, make([]byte, 0, min(max(size+1, 512), limit+1)), size)
}

// readInto is readSized appending to b, an empty slice with room for the
// size and more. A read that stops short of the room at exactly size
// bytes is the whole file, as fstat saw it: a regular file's read returns
// less than asked only at its end, so the read that would meet the end is
// not made. Any other count reads on to the end (a file that grew or
// shrank, a pipe).
func readInto(r io.Reader, limit int64, b []byte, size int64) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, int(min(int64(cap(b)), limit+1-int64(cap(b)))))
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, ErrTooLarge
		}
		if err == io.EOF || (err == nil && n > 0 && int64(len(b)) == size && len(b) < cap(b)) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// UnreadMessage is the RS001 text for an input that could not be read.
func UnreadMessage(err error, limit int64) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the report names the file already
	}
	if errors.Is(err, ErrTooLarge) {
		return TooLargeMessage(limit)
	}
	if nr := (NotRegularError{}); errors.As(err, &nr) && nr.Mode.Type()&fs.ModeNamedPipe != 0 {
		return "not read: " + nr.Error() + " (pipe the data to - instead)"
	}
	return "not read: " + err.Error()
}
