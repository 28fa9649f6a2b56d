package engine

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Spool keeps the workflows fetched from a live instance on disk, one
// after the other in one private temporary file (0600), so that audit reads
// each one when it needs it (more than once) and no run holds a whole
// instance in memory. Nothing of a workflow names anything on disk: a
// workflow is a place in the file.
//
// The file is unlinked as soon as it is made, so it vanishes with the
// process however that ends (kill -9 included). Where an open file cannot
// be removed (Windows) it goes at Close, and on SIGINT or SIGTERM.
type Spool struct {
	f   *os.File
	end int64 // bytes written
	// Close closes (and if need be removes) the file; idempotent.
	Close func()
}

// Spooled is one workflow's place in a spool.
type Spooled struct {
	sp        *Spool
	off, size int64
}

// NewSpool makes the file; the caller calls Close when it is done.
func NewSpool() (*Spool, error) {
	f, err := os.CreateTemp("", "stormcheck-n8n-*.json")
	if err != nil {
		return nil, err
	}
	s := &Spool{f: f}
	if os.Remove(f.Name()) == nil {
		s.Close = sync.OnceFunc(func() { f.Close() })
	} else {
		s.Close = removeOnSignal(f)
	}
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

// Put appends one workflow's bytes as fetched.
func (s *Spool) Put(raw []byte) (Spooled, error) {
	if _, err := s.f.WriteAt(raw, s.end); err != nil {
		return Spooled{}, err
	}
	w := Spooled{sp: s, off: s.end, size: int64(len(raw))}
	s.end += w.size
	return w, nil
}

// Read returns a workflow's bytes, or ErrTooLarge when there are more than
// limit. Safe for concurrent use once the spool is written.
func (w Spooled) Read(limit int64) ([]byte, error) {
	if w.size > limit {
		return nil, ErrTooLarge
	}
	b := make([]byte, w.size)
	if _, err := w.sp.f.ReadAt(b, w.off); err != nil {
		return nil, err
	}
	return b, nil
}
