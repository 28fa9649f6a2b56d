package cmd

import (
	"io/fs"
	"strings"
	"sync"
	"syscall"
)

// folders opens an audit's files by their name in their folder: each
// folder is opened once and each file with openat, which spares the
// kernel the lookup of every folder of its path, file after file (the
// 2,361 files of n8n-real, 8 folders deep, were opened, stat'ed, read
// and closed 18 % faster: docs/performance.md). It holds at most
// maxFolders handles (a file in another folder is opened by its path) and
// none after close. Safe for concurrent use.
type folders struct {
	mu     sync.Mutex
	fds    map[string]int // -1: could not be opened, its files go by path
	closed bool
}

// maxFolders bounds the handles an audit holds, far under the usual limit
// of 1,024 open files.
const maxFolders = 256

func newFolders() *folders { return &folders{fds: map[string]int{}} }

// open opens the file at path (clean and absolute) to read, as openFile
// does, with its errors.
func (d *folders) open(path string) (rawFile, error) {
	i := strings.LastIndexByte(path, '/')
	if d == nil || i <= 0 || i == len(path)-1 {
		return openFile(path)
	}
	fd := d.folder(path[:i])
	if fd < 0 {
		return openFile(path)
	}
	for {
		f, err := syscall.Openat(fd, path[i+1:], syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return rawFile{fd: -1}, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return rawFile{fd: f, path: path}, nil
	}
}

// folder returns the handle of the folder dir, opening it on first use;
// -1 for none (a folder that cannot be read: its files go by path).
func (d *folders) folder(dir string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return -1
	}
	if fd, ok := d.fds[dir]; ok {
		return fd
	}
	fd := -1
	if len(d.fds) < maxFolders {
		for {
			h, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
			if err == syscall.EINTR {
				continue
			}
			if err == nil {
				fd = h
			}
			break
		}
	}
	d.fds[dir] = fd
	return fd
}

// close lets go of every handle; files are opened by their path after.
func (d *folders) close() {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, fd := range d.fds {
		if fd >= 0 {
			_ = syscall.Close(fd)
		}
	}
	d.fds, d.closed = nil, true
}
