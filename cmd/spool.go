package cmd

import "github.com/stormcheck/stormcheck/engine"

// newSpool makes a spool for fetched workflows (engine.Spool) that goes
// when io's command ends, however it ends.
func newSpool(io *IO) (*engine.Spool, error) {
	sp, err := engine.NewSpool()
	if err != nil {
		return nil, err
	}
	io.atEnd(sp.Close)
	return sp, nil
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
