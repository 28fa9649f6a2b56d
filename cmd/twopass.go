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
	// capture holds what the renderers read of the released sources.
	capture *report.Capture
}

// auditInputs audits the inputs in two passes so that memory is bounded by
// the largest group of workflows that call each other (times the cores),
// not by the set. Pass 1 reads each input, keeps what other workflows need
// to resolve a call to it (analyze.Links) and drops it. The links group the
// inputs (analyze.Components): a group's Build gives its workflows what the
// whole set's would. Pass 2 reads each group again, audits it, captures
// what the renderers need and releases it. The rules that read the whole
// set (RS505) then run on the light set, and the filters on every finding.
//
// fix.Attach runs on each group's findings before the filters, which only
// leave findings out, fold them or change their severity; a repair depends
// on the finding's rule, node and detail alone. snippets says whether a
// text report will show source lines, which are then captured.
func auditInputs(ins []input, limit int64, skipNonWorkflow bool, st *auditSettings, fixOpts fix.Options, snippets bool) (audited, error) {
	groups := groupInputs(ins, limit, skipNonWorkflow)
	p := auditGroups(ins, groups, limit, skipNonWorkflow, st, fixOpts, snippets)
	set := analyze.Merge(p.sets, groups)
	all := slices.Concat(p.found...)
	all = append(all, analyze.Run(set, p.setWide)...)
	fo := st.filter
	fo.Directives, fo.DirectivesCollected = analyze.MergeDirectives(p.dirs, groups), true
	filtered := analyze.Filter(set, analyze.Unique(all), fo)
	return audited{set: set, files: set.Files, filtered: filtered, capture: p.capture}, unreadOf(set.Files)
}

// groupInputs is pass 1: it parses every input on all cores, keeping only
// its links, and groups the inputs by them (analyze.Components).
func groupInputs(ins []input, limit int64, skipNonWorkflow bool) [][]int {
	links := make([]analyze.Links, len(ins))
	pool.Each(len(ins), func(i int) { links[i] = analyze.LinksOf(parseInput(ins[i], limit, skipNonWorkflow)) })
	return analyze.Components(links)
}

// groupsAudited is what pass 2 keeps of each group, released.
type groupsAudited struct {
	sets    []*analyze.Set
	found   [][]analyze.Finding
	dirs    [][]analyze.Directive
	capture *report.Capture
	// setWide are the rules left for the merged set.
	setWide []*analyze.Rule
}

// auditGroups is pass 2: each group is parsed again, built, audited by the
// rules that need only its workflows, its repairs attached, its ignore
// directives collected and what the renderers read captured; then it is
// released. Groups run on all cores, each holding only itself.
func auditGroups(ins []input, groups [][]int, limit int64, skipNonWorkflow bool, st *auditSettings, fixOpts fix.Options, snippets bool) groupsAudited {
	local, setWide := analyze.SplitRules(st.rules)
	p := groupsAudited{
		sets: make([]*analyze.Set, len(groups)), found: make([][]analyze.Finding, len(groups)),
		dirs: make([][]analyze.Directive, len(groups)), capture: report.NewCapture(snippets), setWide: setWide,
	}
	pool.Each(len(groups), func(g int) {
		files := make([]*n8nschema.File, len(groups[g]))
		for j, i := range groups[g] {
			files[j] = parseInput(ins[i], limit, skipNonWorkflow)
		}
		set := analyze.Build(files, st.analysis)
		fs := analyze.Run(set, local)
		fix.Attach(set, fs, fixOpts)
		dirs := analyze.CollectDirectives(set, st.filter.All)
		p.capture.Group(set, fs, directivePlaces(set, dirs)...)
		set.Release()
		analyze.ReleaseFindings(fs)
		p.sets[g], p.found[g], p.dirs[g] = set, fs, dirs
	})
	return p
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

// directivePlaces are where RS006 may report on the group's ignore
// directives once it is released: the filters make those findings at the
// end, from every group's directives.
func directivePlaces(set *analyze.Set, dirs []analyze.Directive) []report.Place {
	if len(dirs) == 0 {
		return nil
	}
	type key struct {
		src      *n8nschema.Source
		name, id string
	}
	wfs := map[key]*n8nschema.Workflow{}
	for _, w := range set.Workflows {
		if k := (key{w.Source, w.Name, w.ID}); wfs[k] == nil {
			wfs[k] = w
		}
	}
	at := make([]report.Place, 0, len(dirs))
	for _, d := range dirs {
		at = append(at, report.Place{Workflow: wfs[key{d.Source, d.Workflow, d.WorkflowID}], Node: d.Node, Pos: d.Pos})
	}
	return at
}
