package engine

import (
	"bytes"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// An Input is one thing an audit reads: a file, stdin, a workflow fetched
// from an instance or sent as text. Read returns its bytes, at most limit
// of them (else ErrTooLarge), each time it is called: the audit reads an
// input a second time when it belongs to a group of several or calls
// another workflow, so that it never holds every input at once.
type Input struct {
	Name string
	// At is the clean absolute path the name stands for ("" for a fetched
	// workflow, and stdin without a name); Path is the file read and
	// written by --fix (a link's target; "" when it is no file).
	At, Path string
	// Explicit: named by the user, not met in a folder (a file met in a
	// folder that holds no workflow is skipped, not an error).
	Explicit bool
	// Stdin: read from standard input ("-").
	Stdin bool
	// Skip says why the input is not read at all (a link out of the
	// inputs); it counts as a skipped file.
	Skip string
	Read func(limit int64) ([]byte, error)
}

// InputsOf makes inputs of sources held in memory.
func InputsOf(srcs []Source) []Input {
	ins := make([]Input, len(srcs))
	for i, s := range srcs {
		ins[i] = Input{Name: s.Name, Explicit: true, Read: func(limit int64) ([]byte, error) {
			if s.Err == nil && int64(len(s.Src)) > limit {
				return nil, ErrTooLarge
			}
			return s.Src, s.Err
		}}
	}
	return ins
}

// Reading says how inputs are read and what the report will render.
type Reading struct {
	// Limit is the largest input read; a larger one is an RS001 finding.
	Limit int64
	// SkipNonWorkflow treats named inputs like files met in a folder.
	SkipNonWorkflow bool
	// Needs is what the renderers read of the sources (report.NeedsOf).
	Needs report.Needs
}

// Audited is the report of an audit and the inputs it could not read
// (each also an RS001 finding in the report), named as reports show them;
// WhyNoWorkflow is the first problem of a file, as WhyNoWorkflow words it.
type Audited struct {
	*report.Result
	Unread        []string
	WhyNoWorkflow string

	st       *Settings
	wfs      []analyze.WorkflowSummary
	files    []keptFile
	filtered analyze.Filtered
	fixed    int
}

// Filtered are the findings of every severity after the filters, with
// Current, what a new baseline records (--fail-on counts them all).
func (a *Audited) Filtered() analyze.Filtered { return a.filtered }

// BaselineAll counts every finding as baselined: a new baseline has just
// recorded them (--write-baseline).
func (a *Audited) BaselineAll() {
	a.filtered.Baselined += len(a.filtered.Findings)
	a.filtered.Findings = []analyze.Finding{}
	a.Result = a.st.result(a.wfs, a.files, a.filtered, a.fixed, a.Capture)
}

func (s *Settings) audited(wfs []analyze.WorkflowSummary, files []keptFile, filtered analyze.Filtered, fixed int, c *report.Capture) *Audited {
	a := &Audited{Result: s.result(wfs, files, filtered, fixed, c), Unread: unread(files), st: s, wfs: wfs, files: files, filtered: filtered, fixed: fixed}
	for _, f := range files {
		if a.WhyNoWorkflow == "" {
			a.WhyNoWorkflow = f.problem
		}
	}
	return a
}

// Audit audits the inputs as one set in two passes, so that memory is
// bounded by the largest group of workflows that call each other (times
// the cores), not by the set:
//
//  1. each input is read and parsed; what other workflows need to resolve
//     a call to it is kept (analyze.Links), and the links group the inputs
//     (analyze.Components). An input that calls no workflow is audited
//     alone: it joins a group only as a callee. One that calls waits for
//     pass 2: in a project whose workflows call each other most callers
//     are in a group, and pass 1's audit of them would be thrown away (a
//     caller found alone is read and parsed twice instead);
//  2. an input alone in its group keeps pass 1's audit; the inputs of
//     every larger group, and a caller found alone, are read again and
//     audited together.
//
// Each group's audit keeps only plain values: its findings with their
// repairs (analyze.KeepOwned), the summaries of its workflows
// (analyze.Summarize), its ignore directives and what the renderers read
// of its sources (report.Capture); then the group is let go. The
// set-wide rules run on the summaries of every workflow, and the filters
// on every finding.
func (s *Settings) Audit(ins []Input, rd Reading) *Audited {
	a := &auditor{st: s, rd: rd, capture: report.NewCapture(rd.Needs)}
	a.local, a.setWide = analyze.SplitRules(s.Rules)

	// Pass 1.
	links := make([]analyze.Links, len(ins))
	alone := make([]group, len(ins))
	pool.Each(len(ins), func(i int) {
		f := a.parse(ins[i])
		links[i] = analyze.LinksOf(f)
		if !links[i].Calls() {
			alone[i] = a.audit([]*n8nschema.File{f})
		}
	})
	groups := analyze.Components(links)

	// Pass 2.
	done := make([]group, len(groups))
	var again []int
	for g, members := range groups {
		if len(members) == 1 && !links[members[0]].Calls() {
			done[g] = alone[members[0]]
		} else {
			again = append(again, g)
		}
	}
	alone = nil
	pool.Each(len(again), func(j int) {
		g := again[j]
		files := make([]*n8nschema.File, len(groups[g]))
		for k, i := range groups[g] {
			files[k] = a.parse(ins[i])
		}
		done[g] = a.audit(files)
	})

	// The groups in set order: by their files' places among the inputs.
	// What the end holds is copied once into slices of its size: the heap
	// is largest here.
	files := make([]keptFile, len(ins))
	dirs := make([][]analyze.Directive, len(groups))
	nwf := 0
	for g, r := range done {
		for k, i := range groups[g] {
			files[i] = r.files[k]
			nwf += len(r.files[k].workflows)
		}
		dirs[g] = r.dirs
	}
	wfs := make([]analyze.WorkflowSummary, 0, nwf)
	for i := range files {
		wfs = append(wfs, files[i].workflows...)
		files[i].workflows = nil // the copy in wfs is the one kept
	}
	// The set-wide rules run beside the sort of the groups' findings,
	// which are copied once, sorted, without joining them first.
	lists := make([][]analyze.Finding, 0, len(done)+1)
	for g := range done {
		lists = append(lists, done[g].found)
		done[g] = group{}
	}
	fo := s.Filter
	fo.Directives, fo.DirectivesCollected = analyze.MergeDirectives(dirs, groups), true
	filtered := analyze.FilterOwned(nil, analyze.UniqueWithSet(lists, wfs, a.setWide, &s.Analysis), fo)
	return s.audited(wfs, files, filtered, 0, a.capture)
}

// auditor is what both passes share.
type auditor struct {
	st             *Settings
	rd             Reading
	capture        *report.Capture
	local, setWide []*analyze.Rule
	texts          analyze.Texts // what the groups keep, one copy of each text
}

// group is what the audit keeps of a group of inputs, in their order.
type group struct {
	files []keptFile
	found []analyze.Finding
	dirs  []analyze.Directive
}

// keptFile is what the audit keeps of one input.
type keptFile struct {
	name      string
	explicit  bool
	skipped   bool   // no workflow, met in a folder
	unread    string // why it could not be read, "" when it was
	problem   string // its first problem, as WhyNoWorkflow words it
	workflows []analyze.WorkflowSummary
}

// audit builds a group, runs the rules that need only its workflows with
// their repairs, and keeps what the end of the audit needs.
func (a *auditor) audit(files []*n8nschema.File) group {
	set := analyze.Build(files, a.st.Analysis)
	fs := analyze.Run(set, a.local)
	fix.Attach(set, fs, a.st.FixOptions)
	dirs := analyze.CollectDirectives(set, a.st.Filter.All)
	a.capture.Group(set, fs, directivePlaces(set, dirs)...)
	wfs := a.texts.Summarize(set)
	g := group{files: make([]keptFile, len(files)), found: a.texts.KeepOwned(fs), dirs: dirs}
	for i, f := range files {
		k := keepFile(f)
		k.workflows, wfs = wfs[:len(f.Workflows):len(f.Workflows)], wfs[len(f.Workflows):]
		g.files[i] = k
		// What is kept names the source, which need not keep its bytes.
		f.Source.Release()
	}
	return g
}

// parse reads and parses one input. One that cannot be read becomes a
// file whose only problem says why (RS001).
func (a *auditor) parse(in Input) *n8nschema.File {
	if in.Skip != "" {
		// Counted as a skipped file; nothing of it is read or quoted.
		return &n8nschema.File{
			Source:   n8nschema.NewSource(in.Name, nil),
			Problems: []n8nschema.Problem{{Kind: n8nschema.NotWorkflow, Message: "skipped: " + in.Skip}},
		}
	}
	explicit := in.Explicit && !a.rd.SkipNonWorkflow
	src, err := in.Read(a.rd.Limit)
	if err != nil {
		return &n8nschema.File{
			Source:   n8nschema.NewSource(in.Name, nil),
			Problems: []n8nschema.Problem{{Kind: n8nschema.Unreadable, Message: UnreadMessage(err, a.rd.Limit)}},
			Explicit: explicit,
		}
	}
	f := n8nschema.Parse(n8nschema.NewSource(in.Name, src))
	f.Explicit = explicit
	if a.rd.SkipNonWorkflow {
		SkipNonJSON(f)
	}
	return f
}

// SkipNonJSON: under --skip-non-workflow, a file that does not parse and
// never mentions "nodes" (tsconfig.json with comments) is no workflow
// export either, so it is skipped like one; a truncated export still
// mentions its nodes and stays an RS001 error.
func SkipNonJSON(f *n8nschema.File) {
	if len(f.Workflows) > 0 || len(f.Problems) != 1 || f.Problems[0].Kind != n8nschema.InvalidJSON || bytes.Contains(f.Source.Src, []byte(`"nodes"`)) {
		return
	}
	f.Problems[0].Kind = n8nschema.NotWorkflow
	f.Problems[0].Message += "; it never mentions \"nodes\", so it is no workflow export"
}

func keepFile(f *n8nschema.File) keptFile {
	k := keptFile{name: f.Source.Name, explicit: f.Explicit}
	k.skipped = len(f.Workflows) == 0 && !f.Explicit && slices.ContainsFunc(f.Problems, func(p n8nschema.Problem) bool { return p.Kind == n8nschema.NotWorkflow })
	for _, p := range f.Problems {
		if p.Kind == n8nschema.Unreadable {
			k.unread = strings.TrimPrefix(p.Message, "not read: ")
			break
		}
	}
	k.problem = WhyNoWorkflow([]*n8nschema.File{f})
	return k
}

// unread names the inputs that could not be read, escaped: a file name is
// data and must not forge a CI log line.
func unread(files []keptFile) []string {
	var out []string
	for _, f := range files {
		if f.unread != "" {
			out = append(out, report.Printable(f.name)+" ("+f.unread+")")
		}
	}
	return out
}

// directivePlaces are where RS006 may report on the group's ignore
// directives once the group is let go: the filters make those findings at
// the end, from every group's directives.
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
