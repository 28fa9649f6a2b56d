package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// defaultMaxFileSize bounds one input (a file or stdin).
const defaultMaxFileSize = engine.DefaultMaxFileSize

// unreadError names the inputs that could not be read. The report of the
// others is written first (each unread input is an RS001 finding there),
// then the run exits 3.
type unreadError struct{ names []string }

func (e *unreadError) Error() string {
	return fmt.Sprintf("%d %s could not be read: %s", len(e.names), plural(len(e.names), "input", "inputs"), strings.Join(e.names, ", "))
}

// collectInputs is engine.Collect; an argument that names no input is a
// usage error (exit 2).
func collectInputs(args []string, stdin io.Reader, n *engine.Namer, limit int64) ([]engine.Input, error) {
	ins, err := engine.Collect(args, stdin, n, limit)
	return ins, asUsage(err)
}

// asUsage makes an engine.ArgError a usage error (exit 2).
func asUsage(err error) error {
	var ae *engine.ArgError
	if errors.As(err, &ae) {
		return &usageError{err}
	}
	return err
}

// dropIgnored leaves out the files a folder walk found that the config
// excludes or git ignores.
func (o *AuditOptions) dropIgnored(ins []engine.Input, cfg *Config, n *engine.Namer) []engine.Input {
	ig := engine.Ignoring{NoGitignore: o.NoGitignore, Named: o.SkipNonWorkflow}
	if cfg != nil {
		ig.Exclude, ig.Dir = cfg.Exclude, cfg.Dir
	}
	return engine.DropIgnored(ins, ig, n)
}

// parseInputs reads and parses every input, holding them all (graph,
// simulate and --fix need the whole set at once; audit reads in two
// passes). The error names the inputs that could not be read.
func parseInputs(ins []engine.Input, limit int64, skipNonWorkflow bool) ([]*n8nschema.File, error) {
	files := engine.Parse(reading(ins), engine.Reading{Limit: limit, SkipNonWorkflow: skipNonWorkflow})
	return files, unreadErr(engine.Unread(files))
}

// readInput reads an input; a test swaps in one that panics.
var readInput = func(in *engine.Input, limit int64) ([]byte, error) { return in.Read(limit) }

// reading is ins, each read through readInput.
func reading(ins []engine.Input) []engine.Input {
	out := make([]engine.Input, len(ins))
	for i := range ins {
		in := &ins[i]
		out[i] = *in
		out[i].Read = func(limit int64) ([]byte, error) { return readInput(in, limit) }
	}
	return out
}

// unreadErr is the error of a run whose inputs could not all be read: exit 3
// once the report is written.
func unreadErr(names []string) error {
	if names == nil {
		return nil
	}
	return &unreadError{names}
}
