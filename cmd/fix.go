package cmd

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/safewrite"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// printDiff writes the repairs as a unified diff to stdout and a count to
// stderr; it writes no file. It exits 1 when a file would change, so CI can
// ask "is there anything left to fix?".
func (o *AuditOptions) printDiff(res *engine.Fixed) error {
	if _, err := io.WriteString(o.IO.Out, res.Diff()); err != nil {
		return fmt.Errorf("write diff: %w", err)
	}
	fmt.Fprintf(o.IO.Err, "would fix %s in %s (%d remaining)\n",
		countWord(res.Fixed, "finding"), countWord(len(res.Changed), "file"), len(res.Findings))
	if len(res.Changed) > 0 {
		return errFindings
	}
	return nil
}

// writeFixes writes the fixed files, each with safewrite: a file is
// replaced whole or left as it was. A file whose bytes changed since they
// were read (an edit saved meanwhile), reached through a link out of the
// inputs, or that cannot be written (read-only, a full disk) is left alone
// and named in notWritten; the others are written all the same, and the
// report follows. The fixed stdin goes to stdout (as ruff does), and then
// the report goes to stderr, which it returns as where to report.
func (o *AuditOptions) writeFixes(res *fix.Result, ins []engine.Input, wd string) (reportTo io.Writer, notWritten, err error) {
	paths := map[string]string{}
	for _, in := range ins {
		paths[in.Name] = in.Path
		if in.Stdin {
			// The sole input (validate): print it, fixed or not.
			for _, f := range res.Files {
				if f.Source.Name == in.Name {
					if _, err := o.IO.Out.Write(f.Source.Src); err != nil {
						return nil, nil, fmt.Errorf("write stdout: %w", err)
					}
				}
			}
			return o.IO.Err, nil, nil
		}
	}
	now := sources(res)
	within := engine.NewPlaces(o.Paths, wd).Resolved()
	var failed []string
	for _, name := range slices.Sorted(slices.Values(res.Changed)) {
		p := paths[name]
		if p == "" {
			failed = append(failed, report.Printable(name)+" (not a file)")
			continue
		}
		err := safewrite.Write(p, now[name], safewrite.Options{Within: within, Was: safewrite.Of(res.Original[name])})
		if err != nil {
			var se *safewrite.Error
			if errors.As(err, &se) {
				err = se.Err // the name says which file
			}
			failed = append(failed, report.Printable(name)+" ("+report.Printable(err.Error())+")")
		}
	}
	if failed != nil {
		return o.IO.Out, &notWrittenError{failed: failed, wrote: len(res.Changed) - len(failed)}, nil
	}
	return o.IO.Out, nil, nil
}

// notWrittenError names the fixed files --fix left as they were: exit 3,
// after the report.
type notWrittenError struct {
	failed []string
	wrote  int
}

func (e *notWrittenError) Error() string {
	return fmt.Sprintf("%d fixed %s not written and %s as %s: %s; %d other %s written",
		len(e.failed), plural(len(e.failed), "file was", "files were"), plural(len(e.failed), "is", "are"),
		plural(len(e.failed), "it was", "they were"), strings.Join(e.failed, ", "),
		e.wrote, plural(e.wrote, "file was", "files were"))
}

// sources maps each file's name to its bytes after the fixes.
func sources(res *fix.Result) map[string][]byte {
	m := make(map[string][]byte, len(res.Files))
	for _, f := range res.Files {
		m[f.Source.Name] = f.Source.Src
	}
	return m
}

func countWord(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// fixWith is the engine's repair; a test swaps in one that edits a file
// while the repairs are made, as a person saving it would.
var fixWith = func(st *auditSettings, files []*n8nschema.File, unsafe bool) (*engine.Fixed, error) {
	return st.Fix(files, unsafe)
}

// fixInputs is the audit of --fix and --diff: repairs rewrite the sources
// round after round, so the whole set is held, as one analysis. done is
// true when the diff is printed and nothing is left to report.
func (o *AuditOptions) fixInputs(ins []engine.Input, wd string, st *auditSettings, rd engine.Reading) (a *engine.Audited, reportTo io.Writer, notWritten error, done bool, err error) {
	res, err := fixWith(st, engine.Parse(reading(ins), rd), o.UnsafeFixes)
	if err != nil {
		return nil, nil, nil, true, err
	}
	for _, f := range res.Undone {
		// Never expected: the repairs are made not to. Say so rather
		// than write a workflow that is worse.
		fmt.Fprintf(o.IO.Err, "stormcheck: a round of fixes was left out: it would bring %s on node %q in %s (please report this)\n", f.RuleID, f.Node, f.File)
	}
	if o.Diff {
		return nil, nil, nil, true, o.printDiff(res)
	}
	reportTo, notWritten, err = o.writeFixes(res.Result, ins, wd)
	if err != nil {
		return nil, nil, nil, true, err
	}
	return st.ResultOf(res.Set, res.Filtered, res.Fixed, rd.Needs), reportTo, notWritten, false, nil
}
