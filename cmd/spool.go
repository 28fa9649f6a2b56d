package cmd

import (
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// spool keeps the workflows fetched from a live instance on disk, one file
// each, in a private temporary folder: audit reads each one when it needs
// it (more than once), so that no run holds a whole instance in memory.
// The folder goes when the command ends (Run), when a fetch fails, and on
// SIGINT or SIGTERM.
type spool struct {
	dir    string
	n      int
	sigs   chan os.Signal
	done   chan struct{}
	remove func() // idempotent
}

// newSpool makes the folder (0700, as os.MkdirTemp does) and arranges for
// its removal when io's command ends.
func newSpool(io *IO) (*spool, error) {
	dir, err := os.MkdirTemp("", "stormcheck-n8n-")
	if err != nil {
		return nil, err
	}
	s := &spool{dir: dir, sigs: make(chan os.Signal, 1), done: make(chan struct{})}
	s.remove = sync.OnceFunc(func() {
		signal.Stop(s.sigs)
		close(s.done)
		os.RemoveAll(dir)
	})
	// Interrupted, remove the folder, then die of the same signal as
	// before: with no other listener, Stop restores the default action.
	signal.Notify(s.sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-s.sigs:
			s.remove()
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Signal(sig)
			}
		case <-s.done:
		}
	}()
	io.atEnd(s.remove)
	return s, nil
}

// put writes one workflow's bytes as fetched and returns the file's path.
// The file is named by its place in the listing, never by the server's
// text: an id may hold "../", a NUL, or be longer than a file name can be.
func (s *spool) put(raw []byte) (string, error) {
	s.n++
	p := filepath.Join(s.dir, strconv.Itoa(s.n)+".json")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.Write(raw)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return p, err
}

// atEnd registers f to run when the command ends, however it ends.
func (io *IO) atEnd(f func()) {
	io.mu.Lock()
	defer io.mu.Unlock()
	io.ends = append(io.ends, f)
}

// end runs what atEnd registered, last first.
func (io *IO) end() {
	io.mu.Lock()
	ends := io.ends
	io.ends = nil
	io.mu.Unlock()
	for i := len(ends) - 1; i >= 0; i-- {
		ends[i]()
	}
}
