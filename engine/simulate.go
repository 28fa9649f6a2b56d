package engine

import (
	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/simulate"
)

// Simulate replays sc's outages through the files' workflows, analysed
// with the settings' options. It returns ErrNoWorkflow when the files
// hold none, and simulate.Run's errors.
func (s *Settings) Simulate(files []*n8nschema.File, sc simulate.Config) (*simulate.Result, error) {
	set := analyze.Build(files, s.Analysis)
	if len(set.Workflows) == 0 {
		return nil, ErrNoWorkflow
	}
	return simulate.Run(set, sc)
}
