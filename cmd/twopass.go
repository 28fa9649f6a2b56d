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

// auditInputs audits the inputs so that memory is bounded by the largest
// group of workflows that call each other (times the cores), not by the
// set. Pass 1 reads each input, keeps what other workflows need to resolve
// a call to it (analyze.Links) and audits it alone, keeping only what the
// renderers need (groupAuditor.audit), then drops it. The links group the inputs
// (analyze.Components): a group's Build gives its workflows what the whole
// set's would, so an input alone in its group keeps pass 1's audit. Pass 2
// reads the inputs of every larger group again and audits them together.
// The rules that read the whole set (RS505) then run on the light set, and
// the filters on every finding.
//
// fix.Attach runs on each group's findings before the filters, which only
// leave findings out, fold them or change their severity; a repair depends
// on the finding's rule, node and detail alone. need says what the
// renderers asked for read of the sources (report.Capture).
func auditInputs(ins []input, limit int64, skipNonWorkflow bool, st *auditSettings, fixOpts fix.Options, need report.Needs) (audited, error) {
	a := newGroupAuditor(limit, skipNonWorkflow, st, fixOpts, need)
	alone, groups := a.firstPass(ins)
	return a.end(groups, a.secondPass(ins, groups, alone))
}

// end joins the groups' audits: it merges their sets, runs the SetWide
// rules on the merged set and filters every finding.
func (a *groupAuditor) end(groups [][]int, groupsDone []groupAudited) (audited, error) {
	sets := make([]*analyze.Set, len(groups))
	found := make([][]analyze.Finding, len(groups))
	dirs := make([][]analyze.Directive, len(groups))
	for g, r := range groupsDone {
		sets[g], found[g], dirs[g] = r.set, r.found, r.dirs
	}
	// The SetWide rules need the merged set; the groups' findings do not:
	// they are sorted on the other core meanwhile. Each job writes its own
	// results, so nothing depends on which ends first.
	var (
		set   *analyze.Set
		wide  []analyze.Finding
		local analyze.Joined
		fo    = a.st.Filter
	)
	pool.Each(2, func(job int) {
		if job == 0 {
			set = analyze.Merge(sets, groups)
			wide = analyze.Run(set, a.setWide)
			return
		}
		for _, r := range groupsDone {
			a.capture.Add(r.taken)
		}
		local = analyze.JoinOf(found...)
		fo.Directives, fo.DirectivesCollected = analyze.MergeDirectives(dirs, groups), true
	})
	filtered := analyze.FilterOwned(set, local.Unique(wide), fo)
	return audited{set: set, files: set.Files, filtered: filtered, capture: a.capture}, unreadOf(set.Files)
}

// groupAuditor audits groups of inputs: the settings both passes share.
type groupAuditor struct {
	limit           int64
	skipNonWorkflow bool
	st              *auditSettings
	fixOpts         fix.Options
	capture         *report.Capture
	// local are the rules that need only a group; setWide those left for
	// the merged set.
	local, setWide []*analyze.Rule
}

func newGroupAuditor(limit int64, skipNonWorkflow bool, st *auditSettings, fixOpts fix.Options, need report.Needs) *groupAuditor {
	local, setWide := analyze.SplitRules(st.Rules)
	return &groupAuditor{
		limit: limit, skipNonWorkflow: skipNonWorkflow, st: st, fixOpts: fixOpts,
		capture: report.NewCapture(need), local: local, setWide: setWide,
	}
}

// groupAudited is what the audit keeps of a group, released: the light
// set, its findings and ignore directives, and what the renderers read of
// its sources (not yet added to the capture).
type groupAudited struct {
	set   *analyze.Set
	found []analyze.Finding
	dirs  []analyze.Directive
	taken report.Taken
}

// firstPass parses every input on all cores, keeps its links and audits
// it alone; it returns those audits and the groups the links make.
func (a *groupAuditor) firstPass(ins []input) (alone []groupAudited, groups [][]int) {
	links := make([]analyze.Links, len(ins))
	alone = make([]groupAudited, len(ins))
	pool.Each(len(ins), func(i int) {
		f := parseInput(ins[i], a.limit, a.skipNonWorkflow)
		links[i] = analyze.LinksOf(f)
		alone[i] = a.audit([]*n8nschema.File{f})
	})
	return alone, analyze.Components(links)
}

// secondPass audits each group of more than one input, parsing its inputs
// again, on all cores; a group of one keeps its first-pass audit.
func (a *groupAuditor) secondPass(ins []input, groups [][]int, alone []groupAudited) []groupAudited {
	done := make([]groupAudited, len(groups))
	var again []int
	for g, group := range groups {
		if len(group) == 1 {
			done[g] = alone[group[0]]
		} else {
			again = append(again, g)
		}
		for _, i := range group {
			alone[i] = groupAudited{} // not held twice
		}
	}
	pool.Each(len(again), func(j int) {
		g := again[j]
		files := make([]*n8nschema.File, len(groups[g]))
		for k, i := range groups[g] {
			files[k] = parseInput(ins[i], a.limit, a.skipNonWorkflow)
		}
		done[g] = a.audit(files)
	})
	return done
}

// audit builds a group, runs the rules that need only its workflows,
// attaches their repairs, collects its ignore directives and takes what
// the renderers read; then it releases the group.
func (a *groupAuditor) audit(files []*n8nschema.File) groupAudited {
	set := analyze.Build(files, a.st.Analysis)
	fs := analyze.Run(set, a.local)
	fix.Attach(set, fs, a.fixOpts)
	dirs := analyze.CollectDirectives(set, a.st.Filter.All)
	taken := a.capture.Take(set, fs, directivePlaces(set, dirs)...)
	set.Release()
	fs = analyze.ReleaseFindings(fs)
	return groupAudited{set: set, found: fs, dirs: dirs, taken: taken}
}

// parseInput reads and parses one input. One that cannot be read becomes
// a file whose only problem says why (RS001). Under --skip-non-workflow a
// file that is no JSON export at all is skipped like one met in a folder.
func parseInput(in input, limit int64, skipNonWorkflow bool) *n8nschema.File {
	if in.skip != "" {
		// Counted as a skipped file; nothing of it is read or quoted.
		return &n8nschema.File{
			Source:   n8nschema.NewSource(in.name, nil),
			Problems: []n8nschema.Problem{{Kind: n8nschema.NotWorkflow, Message: "skipped: " + in.skip}},
		}
	}
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
