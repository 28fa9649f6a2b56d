package cmd

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/stormcheck/stormcheck/engine"
)

// spool keeps the workflows fetched from a live instance on disk, one
// after the other in one private temporary file (0600), so that audit reads
// each one when it needs it (more than once) and no run holds a whole
// instance in memory. Nothing of a workflow names anything on disk: a
// workflow is a place in the file.
//
// The file is unlinked as soon as it is made, so it vanishes with the
// process however that ends (kill -9 included). Where an open file cannot
// be removed (Windows) it goes when the command ends, and on SIGINT or
// SIGTERM.
type spool struct {
	f    *os.File
	end  int64  // bytes written
	done func() // closes (and if need be removes) the file; idempotent
}

// spooled is one workflow's place in a spool.
type spooled struct {
	sp        *spool
	off, size int64
}

// newSpool makes the file and arranges for it to go when io's command
// ends.
func newSpool(io *IO) (*spool, error) {
	f, err := os.CreateTemp("", "stormcheck-n8n-*.json")
	if err != nil {
		return nil, err
	}
	s := &spool{f: f}
	if os.Remove(f.Name()) == nil {
		s.done = sync.OnceFunc(func() { f.Close() })
	} else {
		s.done = removeOnSignal(f)
	}
	io.atEnd(s.done)
	return s, nil
}

// removeOnSignal returns what closes and removes f, and calls it first
// when SIGINT or SIGTERM arrives, after which the process dies of that
// signal as it would have: with no other listener, Stop restores the
// default action.
func removeOnSignal(f *os.File) func() {
	sigs := make(chan os.Signal, 1)
	stop := make(chan struct{})
	done := sync.OnceFunc(func() {
		signal.Stop(sigs)
		close(stop)
		f.Close()
		os.Remove(f.Name())
	})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-sigs:
			done()
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Signal(sig)
			}
		case <-stop:
		}
	}()
	return done
}

// put appends one workflow's bytes as fetched.
func (s *spool) put(raw []byte) (spooled, error) {
	if _, err := s.f.WriteAt(raw, s.end); err != nil {
		return spooled{}, err
	}
	w := spooled{sp: s, off: s.end, size: int64(len(raw))}
	s.end += w.size
	return w, nil
}

// read returns a workflow's bytes, or engine.ErrTooLarge when there are more than
// limit. Safe for concurrent use once the spool is written.
func (w spooled) read(limit int64) ([]byte, error) {
	if w.size > limit {
		return nil, engine.ErrTooLarge
	}
	b := make([]byte, w.size)
	if _, err := w.sp.f.ReadAt(b, w.off); err != nil {
		return nil, err
	}
	return b, nil
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
