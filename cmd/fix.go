package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/fix"
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

// writeFixes writes the fixed files in place; the fixed stdin goes to
// stdout (as ruff does), and then the report goes to stderr, which it
// returns as where to report.
func (o *AuditOptions) writeFixes(res *fix.Result, ins []input) (io.Writer, error) {
	paths := map[string]string{}
	for _, in := range ins {
		paths[in.name] = in.path
		if in.stdin {
			// The sole input (validate): print it, fixed or not.
			for _, f := range res.Files {
				if f.Source.Name == in.name {
					if _, err := o.IO.Out.Write(f.Source.Src); err != nil {
						return nil, fmt.Errorf("write stdout: %w", err)
					}
				}
			}
			return o.IO.Err, nil
		}
	}
	now := sources(res)
	for _, name := range res.Changed {
		p := paths[name]
		if p == "" {
			return nil, fmt.Errorf("%s: not a file, cannot write the fix", name)
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, now[name], info.Mode().Perm()); err != nil {
			return nil, fmt.Errorf("write fix: %w", err)
		}
	}
	return o.IO.Out, nil
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

// fixInputs is the audit of --fix and --diff: repairs rewrite the sources
// round after round, so the whole set is held, as one analysis. done is
// true when the diff is printed and nothing is left to report.
func (o *AuditOptions) fixInputs(ins []input, st *auditSettings) (a audited, unread error, done bool, err error) {
	files, unread := parseInputs(ins, int64(o.MaxFileSize), o.SkipNonWorkflow)
	res, err := st.Fix(files, o.UnsafeFixes)
	if err != nil {
		return a, nil, true, err
	}
	for _, f := range res.Undone {
		// Never expected: the repairs are made not to. Say so rather
		// than write a workflow that is worse.
		fmt.Fprintf(o.IO.Err, "stormcheck: a round of fixes was left out: it would bring %s on node %q in %s (please report this)\n", f.RuleID, f.Node, f.File)
	}
	if o.Diff {
		return a, nil, true, o.printDiff(res)
	}
	reportTo, err := o.writeFixes(res.Result, ins)
	if err != nil {
		return a, nil, true, err
	}
	return audited{set: res.Set, files: res.Files, filtered: res.Filtered, fixed: res.Fixed, reportTo: reportTo}, unread, false, nil
}
