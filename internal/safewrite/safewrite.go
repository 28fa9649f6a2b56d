// Package safewrite is the one way stormcheck replaces a file (a fixed
// workflow, a baseline, a pulled workflow, a report): the new bytes go to a
// temporary file beside the target, are synced, and are renamed over it, so
// a reader, a crash or a full disk sees the old file or the new one, never
// half of one. The target keeps its mode and owner. A target reached
// through a symbolic link that leads out of the allowed places, or whose
// bytes changed since the tool read them, is refused and left alone.
//
// Renaming gives the target a new inode: other hard links to the old file
// keep the old bytes (a backup made with cp -al stays a backup).
package safewrite

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Digest is what a file held when it was read: its size and SHA-256.
type Digest struct {
	Size int64
	Sum  [sha256.Size]byte
}

// Of is the digest of b.
func Of(b []byte) *Digest {
	return &Digest{Size: int64(len(b)), Sum: sha256.Sum256(b)}
}

// Absent is the digest of a file that did not exist when it was looked
// for: the write is refused if one exists by then.
func Absent() *Digest { return &Digest{Size: -1} }

// Options say what Write may replace.
type Options struct {
	// Within, when not nil, are the folders and files (absolute, clean,
	// their links resolved) the target must resolve into. A target
	// reached through a symbolic link that leads elsewhere is refused
	// with ErrOutside.
	Within []string
	// Was, when not nil, is what the target held when it was read. The
	// write is refused with ErrChanged when it holds anything else now
	// (a person saved an edit meanwhile, or it was swapped for another
	// file), unless it holds the new bytes already.
	Was *Digest
	// Perm is the mode of a target that does not exist yet (0o644 when 0).
	Perm fs.FileMode
	// ReplaceLink writes a target that is a symbolic link to a regular
	// file over the link, leaving what it points to alone: for outputs
	// named on the command line (reports, baselines), where a link
	// planted at that name must not aim the write at another file. A
	// link to a device or pipe (/dev/stdout) is written to.
	ReplaceLink bool
}

// Reasons a write is refused; an *Error wraps one.
var (
	ErrOutside    = errors.New("it is reached through a symbolic link that leads out of the inputs")
	ErrChanged    = errors.New("it changed since it was read")
	ErrNotRegular = errors.New("it is not a regular file")
	ErrOwner      = errors.New("its owner could not be kept")
)

// Error is a refused or failed write of Path; the target is as it was.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Write replaces the file at path with b.
func Write(path string, b []byte, o Options) error {
	return WriteWith(path, o, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// WriteWith replaces the file at path with what write writes. When write
// or anything after it fails, the target is left as it was and the
// temporary file is removed.
func WriteWith(path string, o Options, write func(io.Writer) error) error {
	fail := func(err error) error { return &Error{Path: path, Err: err} }
	real, err := resolve(path, o.ReplaceLink)
	if err != nil {
		return fail(err)
	}
	if o.Within != nil && !within(real, o.Within) {
		return fail(fmt.Errorf("%w (to %s)", ErrOutside, real))
	}
	perm := o.Perm
	if perm == 0 {
		perm = 0o644
	}
	info, err := os.Lstat(real)
	exists := err == nil
	if exists && info.Mode()&fs.ModeSymlink != 0 { // only with ReplaceLink
		st, err := os.Stat(real)
		switch {
		case err == nil && st.IsDir():
			return fail(ErrNotRegular)
		case err == nil && !st.Mode().IsRegular():
			return streamTo(real, write, fail)
		}
		exists = false // the link is replaced by a new file
	}
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fail(err)
	case exists && !info.Mode().IsRegular():
		if o.Was != nil || info.IsDir() {
			return fail(ErrNotRegular)
		}
		// A report to /dev/stdout or a named pipe: there is nothing
		// to replace, only a stream to write to.
		return streamTo(real, write, fail)
	case exists:
		perm = info.Mode().Perm()
		// What could not be written in place is not replaced either:
		// renaming needs no write permission on the file itself.
		f, err := os.OpenFile(real, os.O_WRONLY, 0)
		if err != nil {
			return fail(unwrapPath(err))
		}
		f.Close()
	}

	tmp, err := os.CreateTemp(filepath.Dir(real), ".stormcheck-tmp-*")
	if err != nil {
		return fail(unwrapPath(err))
	}
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	sum := &summer{h: sha256.New()}
	bw := bufio.NewWriterSize(io.MultiWriter(tmp, sum), 64<<10)
	if err := write(bw); err != nil {
		return fail(unwrapPath(err))
	}
	if err := bw.Flush(); err != nil {
		return fail(unwrapPath(err))
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail(unwrapPath(err))
	}
	if exists {
		if err := keepOwner(tmp, info); err != nil {
			return fail(fmt.Errorf("%w: %v", ErrOwner, unwrapPath(err)))
		}
	}
	if err := tmp.Sync(); err != nil {
		return fail(unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fail(unwrapPath(err))
	}
	if o.Was != nil {
		// Checked last, after the slow part, so that the window in
		// which an edit could still be lost is the rename's.
		now, err := digestOf(real)
		if err != nil {
			return fail(err)
		}
		switch {
		case now == *o.Was:
		case now == sum.digest():
			return nil // it holds the new bytes already (the same file named twice)
		default:
			return fail(ErrChanged)
		}
	}
	if err := os.Rename(tmp.Name(), real); err != nil {
		return fail(unwrapPath(err))
	}
	renamed = true
	syncDir(filepath.Dir(real))
	return nil
}

// resolve is path with its symbolic links resolved (but for its last
// element when keepLast is set); a path that does not exist yet resolves
// through its folder.
func resolve(path string, keepLast bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if keepLast {
		dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
		if err != nil {
			return "", unwrapPath(err)
		}
		return filepath.Join(dir, filepath.Base(abs)), nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", unwrapPath(err)
	}
	if _, lerr := os.Lstat(abs); lerr == nil {
		return "", errors.New("it is a symbolic link to nothing")
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", unwrapPath(err)
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}

// within says whether real is one of places or below one.
func within(real string, places []string) bool {
	for _, p := range places {
		if real == p {
			return true
		}
		if rest, ok := strings.CutPrefix(real, p); ok && (os.IsPathSeparator(p[len(p)-1]) || os.IsPathSeparator(rest[0])) {
			return true
		}
	}
	return false
}

// digestOf is what the file at path holds now; Absent when it is gone.
func digestOf(path string) (Digest, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return *Absent(), nil
	}
	if err != nil {
		return Digest{}, unwrapPath(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Digest{}, unwrapPath(err)
	}
	if !info.Mode().IsRegular() {
		return Digest{}, ErrNotRegular
	}
	sum := &summer{h: sha256.New()}
	if _, err := io.Copy(sum, f); err != nil {
		return Digest{}, unwrapPath(err)
	}
	return sum.digest(), nil
}

// streamTo writes to a target that is a stream (a device, a pipe).
func streamTo(path string, write func(io.Writer) error, fail func(error) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fail(unwrapPath(err))
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(unwrapPath(err))
	}
	return nil
}

// syncDir makes the rename durable where the system allows syncing a
// folder; where it does not, the rename is still atomic.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// unwrapPath drops a PathError's operation and path: Error names the
// target already, and the temporary file's name says nothing.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// summer digests what is written through it.
type summer struct {
	h hash.Hash
	n int64
}

func (s *summer) Write(b []byte) (int, error) {
	s.n += int64(len(b))
	return s.h.Write(b)
}

func (s *summer) digest() Digest {
	d := Digest{Size: s.n}
	s.h.Sum(d.Sum[:0])
	return d
}
