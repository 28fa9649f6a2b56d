package cmd

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// listDir lists the folder at dir (clean) with bare system calls: open,
// getdents64 until the end, close. The os package's ReadDir registers the
// folder with the poller, keeps a DirEntry per name and the walk cleans
// every joined path again. Errors are the ones os.ReadDir gives; on an
// error reading, the entries read before it come back with it.
func listDir(dir string, buf *[]byte) ([]dirent, error) {
	var fd int
	for {
		var err error
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
		}
		break
	}
	defer syscall.Close(fd)
	if *buf == nil {
		*buf = make([]byte, 32<<10)
	}
	var ents []dirent
	var failed error
	for failed == nil {
		n, err := syscall.Getdents(fd, *buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			failed = &fs.PathError{Op: "readdirent", Path: dir, Err: err}
			break
		}
		if n <= 0 {
			break
		}
		ents, failed = appendDirents(ents, dir, (*buf)[:n])
	}
	sortDirents(ents)
	return ents, failed
}

// appendDirents appends the entries of the linux_dirent64 records in b
// (d_ino, d_off, d_reclen, d_type, the name and its NUL), as the os
// package reads them: no "." or "..", no entry whose inode is 0, and an
// entry of unknown type typed by lstat (skipped when it is gone by then).
func appendDirents(ents []dirent, dir string, b []byte) ([]dirent, error) {
	const nameAt = 19
	for len(b) >= nameAt {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < nameAt || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		if binary.NativeEndian.Uint64(rec[0:8]) == 0 {
			continue
		}
		name := rec[nameAt:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		e := dirent{path: joinName(dir, name)}
		switch rec[18] {
		case syscall.DT_REG:
		case syscall.DT_DIR:
			e.typ = fs.ModeDir
		case syscall.DT_LNK:
			e.typ = fs.ModeSymlink
		case syscall.DT_FIFO:
			e.typ = fs.ModeNamedPipe
		case syscall.DT_SOCK:
			e.typ = fs.ModeSocket
		case syscall.DT_CHR:
			e.typ = fs.ModeDevice | fs.ModeCharDevice
		case syscall.DT_BLK:
			e.typ = fs.ModeDevice
		default:
			info, err := os.Lstat(e.path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return ents, err
			}
			e.typ = info.Mode().Type()
		}
		ents = append(ents, e)
	}
	return ents, nil
}

// sortDirents orders a folder's listing by name, as os.ReadDir does: the
// paths differ only in their names.
func sortDirents(ents []dirent) {
	slices.SortFunc(ents, func(a, b dirent) int { return strings.Compare(a.path, b.path) })
}
