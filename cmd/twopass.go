package cmd

import (
	"io"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// audited is what the two passes leave of an analysis: a light set (names,
// positions, operations; no source bytes or parameters), the light files,
// and the filtered findings with everything the renderers need captured.
type audited struct {
	set      *analyze.Set
	files    []*n8nschema.File
	filtered analyze.Filtered
	// fixed counts the findings --fix repaired; reportTo is where the
	// report goes (stderr when --fix prints the fixed stdin).
	fixed    int
	reportTo io.Writer
}

// auditInputs audits the inputs in two passes so that memory is bounded by
// the largest group of workflows that call each other (times the cores),
// not by the set. Pass 1 reads each input, keeps what other workflows need
// to resolve a call to it (analyze.Links) and drops it. The links group the
// inputs (analyze.Components): a group's Build gives its workflows what the
// whole set's would. Pass 2 reads each group again, audits it, captures
// what the renderers need and releases it. The rules that read the whole
// set (RS505) then run on the light set, and the filters on every finding.
func auditInputs(ins []input, limit int64, skipNonWorkflow bool, st *auditSettings, fixOpts fix.Options) (audited, error) {
	// TODO(lead): analyze.Links/Components, set-wide rules, capture and
	// release as they land; until then one group holds the set.
	group := make([]int, len(ins))
	for i := range group {
		group[i] = i
	}
	groups := [][]int{group}

	type part struct {
		set      *analyze.Set
		findings []analyze.Finding
	}
	parts := make([]part, len(groups))
	pool.Each(len(groups), func(g int) {
		files := make([]*n8nschema.File, len(groups[g]))
		pool.Each(len(groups[g]), func(j int) {
			files[j] = parseInput(ins[groups[g][j]], limit, skipNonWorkflow)
		})
		set := analyze.Build(files, st.analysis)
		fs := analyze.Run(set, st.rules)
		parts[g] = part{set, fs}
	})
	set, all := parts[0].set, parts[0].findings
	filtered := analyze.Filter(set, all, st.filter)
	fix.Attach(set, filtered.Findings, fixOpts)
	return audited{set: set, files: set.Files, filtered: filtered}, unreadOf(set.Files)
}

// parseInput reads and parses one input. One that cannot be read becomes
// a file whose only problem says why (RS001). Under --skip-non-workflow a
// file that is no JSON export at all is skipped like one met in a folder.
func parseInput(in input, limit int64, skipNonWorkflow bool) *n8nschema.File {
	src, err := in.read(limit)
	if err != nil {
		return &n8nschema.File{
			Source:   n8nschema.NewSource(in.name, nil),
			Problems: []n8nschema.Problem{{Kind: n8nschema.Unreadable, Message: unreadMessage(err, limit)}},
			Explicit: in.explicit,
		}
	}
	f := parse(n8nschema.NewSource(in.name, src))
	f.Explicit = in.explicit
	if skipNonWorkflow {
		skipNonJSON([]*n8nschema.File{f})
	}
	return f
}

// unreadOf lists the inputs that could not be read, for exit 3.
func unreadOf(files []*n8nschema.File) error {
	var unread []string
	for _, f := range files {
		if slices.ContainsFunc(f.Problems, func(p n8nschema.Problem) bool { return p.Kind == n8nschema.Unreadable }) {
			// A file name is data: escaped, so it cannot forge a CI log line.
			unread = append(unread, report.Printable(f.Source.Name)+" ("+strings.TrimPrefix(f.Problems[0].Message, "not read: ")+")")
		}
	}
	if unread != nil {
		return &unreadError{unread}
	}
	return nil
}
