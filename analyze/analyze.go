// Package analyze holds the analysis: the graph of each workflow and the call
// graph across the analysis set, the attempt model, the rule, pass and
// finding types, and the filters that run after the rules. It does no I/O.
package analyze

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Severity is how loud a finding is; the values are SARIF's levels.
type Severity int

const (
	Note Severity = iota + 1
	Warning
	Error
)

var severityNames = []string{Note: "note", Warning: "warning", Error: "error"}

func (s Severity) String() string { return enumName(severityNames, int(s)) }

// ParseSeverity reads "error", "warning" or "note".
func ParseSeverity(s string) (Severity, bool) { return parseEnum[Severity](severityNames, s) }

// Confidence is how sure a rule is that a finding is real: the catalog's
// confidence in a fact (n8nschema.Confidence) is the finding's.
type Confidence = n8nschema.Confidence

const (
	Low    = n8nschema.ConfLow
	Medium = n8nschema.ConfMedium
	High   = n8nschema.ConfHigh
)

// ParseConfidence reads "low", "medium" or "high".
func ParseConfidence(s string) (Confidence, bool) {
	return parseEnum[Confidence](n8nschema.ConfidenceNames, s)
}

// enumName is the name of a value of an enum counted from 1; "none" for
// the zero value or one out of range.
func enumName(names []string, v int) string {
	if v > 0 && v < len(names) {
		return names[v]
	}
	return "none"
}

// parseEnum reads an enum value by its name; names[0] is the unnamed zero.
func parseEnum[T ~int](names []string, s string) (T, bool) {
	if i := slices.Index(names, s); i > 0 {
		return T(i), true
	}
	return 0, false
}

// Scope says what a rule's Run sees.
type Scope int

const (
	// PerWorkflow rules run once per workflow (the default).
	PerWorkflow Scope = iota
	// PerFile rules run once per input file, with Pass.Workflow nil.
	PerFile
)

// Rule is one check. Rules live in package rules, one file each.
type Rule struct {
	ID    string // RS + 3 digits; the first digit is the category
	Name  string // kebab-case slug; flags accept it like the ID
	Title string // one line, at most 60 characters, no period
	Doc   string // why it matters
	Fix   string // what to do, starting with a verb
	// FixSafety is the safety of the repair audit --fix makes (package
	// fix); zero when there is none. FixDoc says what the repair does and
	// why it is safe or not, or why the rule has no repair.
	FixSafety Safety
	FixDoc    string
	// ReadExamples reads the rule's examples (Examples); package rules
	// sets it to read rules/examples, which only the documentation asks.
	ReadExamples func() Examples
	// Severity and Confidence are the defaults; a finding may differ.
	Severity   Severity
	Confidence Confidence
	Tags       []string
	Scope      Scope
	// Run checks one workflow (or file) of a group of workflows that call
	// each other (Components). A rule that must read every workflow of
	// the set sets RunSet instead: it runs once, after every group, on
	// the summaries the audit kept (WorkflowSummary).
	Run    func(*Pass)
	RunSet func(*SetPass)
	// FoldsInto names a rule whose finding on the same node says all that
	// this rule's does: there this rule's finding is left out (Fold).
	FoldsInto string
	// Stored: the rule's findings are facts of the export as stored (its
	// JSON, names and ids, what the analysis could not resolve), not of
	// what a run does, so n8n refusing the runs (Graph.RefusedRun) or an
	// Error Trigger n8n is unlikely to start (Graph.idleErrorOnly) leaves
	// them as they are. Every other rule's findings on such runs are notes
	// that say so (Pass.Report).
	Stored bool
	// FoldMore is appended to a finding that others folded into, given
	// the key they share (FoldKey) and their number ("; also called by 2
	// more nodes").
	FoldMore func(key string, n int) string
}

// Examples document a rule with real workflows that the tests of package
// rules audit: Bad fires the rule, Good does not.
type Examples struct {
	Bad    string // n8n workflow JSON (rules/examples/RSNNN.bad.json)
	Good   string // the same workflow fixed (RSNNN.good.json)
	Output string // what `stormcheck audit --enable RSNNN RSNNN.bad.json` prints (RSNNN.bad.out)
	Config string // the .stormcheck.yaml both run with (RSNNN.stormcheck.yaml), if any
}

// Examples are the rule's examples, none without ReadExamples.
func (r *Rule) Examples() Examples {
	if r.ReadExamples == nil {
		return Examples{}
	}
	return r.ReadExamples()
}

// HelpURI is where the rule's documentation lives; derived, never typed.
func (r *Rule) HelpURI() string { return HelpURI(r.ID) }

// HelpURI returns the documentation URL of a rule ID.
func HelpURI(id string) string {
	if u, ok := helpURIs.Load(id); ok {
		return u.(string) // every finding carries one: made once per rule
	}
	u := "https://github.com/stormcheck/stormcheck/blob/main/docs/rules.md#" + strings.ToLower(id)
	if len(id) <= 8 { // a rule's, not some string of unbounded variety
		helpURIs.Store(strings.Clone(id), u)
	}
	return u
}

var helpURIs sync.Map // rule ID → HelpURI

// Related is a secondary place that explains a finding.
type Related struct {
	File    string            `json:"file"`
	Pos     n8nschema.Pos     `json:"-"`
	Message string            `json:"message"`
	Source  *n8nschema.Source `json:"-"`
}

// Finding is one reported problem. It carries its rule's ID, name and URL so
// that renderers never need the rules package.
type Finding struct {
	RuleID     string
	RuleName   string
	RuleTitle  string
	URL        string
	Severity   Severity
	Confidence Confidence
	File       string
	Source     *n8nschema.Source
	Pos        n8nschema.Pos
	Workflow   string
	WorkflowID string
	Node       string
	Message    string
	Fix        string
	// Detail tells apart findings of one rule on one node; with the rule,
	// workflow and node it makes the fingerprint. It never holds positions.
	Detail      string
	Related     []Related
	Chain       []Factor
	Fingerprint string
	// FoldKey: findings of one rule with the same key across the set are
	// reported once (Fold); empty never folds.
	FoldKey string
	// FoldLead: among the findings of its FoldKey and severity, this one
	// leads the fold (Diagnostic.FoldLead).
	FoldLead bool
	// Repair is the finding's repair, built by fix.Attach with the rule's
	// RepairWith; nil when it has none (or before fix.Attach ran).
	Repair     *Repair
	RepairWith RepairFunc
	// NoRepair says why a finding of a rule that has repairs has none.
	NoRepair string
}

// Diagnostic is what a rule reports; the pass fills in the rest.
type Diagnostic struct {
	Node     *n8nschema.Node // nil for workflow- or file-level findings
	Pos      n8nschema.Pos   // zero: the node's position, else the workflow's
	Message  string
	Detail   string
	Severity Severity // zero: the rule's default
	// Confidence zero: the rule's default.
	Confidence Confidence
	Fix        string // empty: the rule's Fix
	Related    []Related
	Chain      []Factor
	// FoldKey: diagnostics of the rule with the same key across the set
	// are reported once, at the first, with the others as related places.
	FoldKey string
	// NoteFoldKey: the FoldKey of the diagnostic when it is a note once
	// Report has read the blanks before it (a warning Report lowers to a
	// note folds too); a warning or error stays a finding of its own.
	NoteFoldKey string
	// FoldLead: the diagnostic says what matters most among those it folds
	// with at its severity (a request part dropped, beside names that change
	// nothing sent), so the fold keeps it rather than the first.
	FoldLead bool
	// Repair builds the finding's repair (nil: none).
	Repair RepairFunc
	// Stored: the finding holds whether or not a run starts (n8n cannot
	// build the workflow, a trigger's own refusal): n8n refusing the runs
	// for a blank required parameter (Graph.RefusedRun), or an idle Error
	// Trigger (Graph.idleErrorOnly), leaves it as is.
	Stored bool
	// Unreached: the finding says the node is not reached along a way the
	// rule names (RS003: a connection n8n drops), which holds whatever the
	// node's parameters are: what gates it is what lies before that way,
	// which the rule asks itself. Report adds no blank's clause
	// (Graph.BehindBlank): a node n8n does not execute fails on nothing.
	Unreached bool
	// From: for an Unreached finding, the node whose items it says do not
	// arrive (RS003: the source of the dropped connection). The runs the
	// finding reads are the ones that reach that node, so Report asks
	// Graph.RefusedRun of it, not of Node: when n8n refuses those runs for
	// a required parameter left blank, it names the blank before From, the
	// one on the finding's path, and a blank before Node's other inputs
	// gates nothing (n8n checks a run's start and the nodes after it, or a
	// destination's parents: n8n-core workflow-execute.js
	// checkReadyForExecution).
	From *n8nschema.Node
	// OwnFailure: the finding is about how the node's own failure is
	// handled (it continues past it, RS403; it retries it, RS503), which
	// holds whatever fails the node: its own blank, which makes that
	// failure, gates nothing; a blank every run passes before it still
	// does (Graph.BlankBefore).
	OwnFailure bool
	// BlankFault: the fault the finding names is the node's own blank (a
	// template's credential of a type the node does not take, Blank.Mends):
	// filling the blank in mends it, so Report says that (Blank.Mended)
	// rather than that the finding holds once it is filled in.
	BlankFault bool
	// FaultFirst: the fault the finding names stops its node before the
	// node's own blank would (a credential n8n asks for before the request
	// that names the blank resource): the finding holds as exported, and
	// Report names the blank as what fails the node once that is mended.
	FaultFirst bool
}

// Pass is what one rule sees of one workflow (or one file): its File,
// Workflow (nil for a file's pass), Set and Options are those of every
// pass over that workflow or file, held once (a group runs some forty
// passes a workflow).
type Pass struct {
	Rule *Rule
	*passOn
	found *[]Finding // nil until the first Report
}

// passOn is what the passes over one workflow or file share.
type passOn struct {
	File     *n8nschema.File
	Workflow *n8nschema.Workflow
	Set      *Set
	Options  *Options
}

// findings returns what the pass reported.
func (p *Pass) findings() []Finding {
	if p.found == nil {
		return nil
	}
	return *p.found
}

// Report records a finding.
func (p *Pass) Report(d Diagnostic) {
	f := newFinding(p.Rule, p.File.Source, d)
	if n := d.Node; n != nil {
		f.Node = n.Name
		if !f.Pos.IsValid() {
			f.Pos = n.Pos
		}
	}
	if w := p.Workflow; w != nil {
		onWorkflow(&f, p.Rule, w.Name, w.ID, w.Pos, w.ParametersLost)
		if !p.Rule.Stored && !d.Stored && p.Set != nil {
			// The runs the finding reads start once the blank is filled;
			// until then no run happens, so nothing is at stake yet: a
			// note, as for an export whose parameters were lost.
			at := d.Node
			if d.Unreached && d.From != nil {
				at = d.From
			}
			if node, param, publish, every, ok := p.Set.Graph(w).RefusedRun(at); ok {
				if p.Set.Graph(w).EditorRefused(at) {
					f.Message += EditorRequiredClause(node, param)
				} else {
					f.Message += RequiredClause(node, param, publish, every)
				}
				f.Severity = min(f.Severity, Note)
			} else if b, ok := p.Set.Graph(w).BehindBlank(d.Node); ok && !d.Unreached && (!d.OwnFailure || !b.Self) {
				if b.Self && d.BlankFault && b.Mends != "" {
					f.Message += b.Mended()
				} else if b.Self && d.FaultFirst {
					f.Message += "; mended, it still " + b.Until + " until " + b.Fill
				} else if b.Self {
					f.Message += b.Clause("it", "")
				} else {
					f.Message += b.Clause("that node", " and no run gets here")
				}
				f.Severity = min(f.Severity, Note)
			} else if b, ok := p.Set.Graph(w).BlankBefore(d.Node); ok && d.OwnFailure {
				f.Message += b.Clause("that node", " and no run gets here")
				f.Severity = min(f.Severity, Note)
			}
		}
		// A stored shape (a name used twice, a workflow n8n cannot build)
		// is wrong whichever trigger fires.
		if n := d.Node; n != nil && !p.Rule.Stored && !d.Stored && p.Set != nil {
			if ie, ok := p.Set.Graph(w).idleErrorOnly(n); ok {
				// n8n starts the named error workflow, never this one's
				// Error Trigger, for this workflow's failures.
				from := fmt.Sprintf("node %q runs only from Error Trigger %q, which", n.Name, ie.Trigger.Name)
				if n == ie.Trigger {
					from = fmt.Sprintf("Error Trigger %q", n.Name)
				}
				start := fmt.Sprintf("start the workflow its settings.errorWorkflow names (%q)", ie.Named)
				if ie.ByName {
					start = fmt.Sprintf("start no error workflow (settings.errorWorkflow %q is a name, and n8n looks it up by id)", ie.Named)
				}
				f.Message += fmt.Sprintf("; %s is unlikely to fire: this workflow's failures %s, not its own Error Trigger, "+
					"and no workflow of the set names this one as its error workflow", from, start)
				f.Severity = min(f.Severity, Note)
			}
		}
	}
	if d.NoteFoldKey != "" && f.Severity <= Note {
		f.FoldKey = d.NoteFoldKey
	}
	f.FoldLead = d.FoldLead
	if p.found == nil {
		p.found = new([]Finding)
	}
	*p.found = append(*p.found, f)
}

func newFinding(r *Rule, src *n8nschema.Source, d Diagnostic) Finding {
	return Finding{
		RuleID: r.ID, RuleName: r.Name, RuleTitle: r.Title, URL: r.HelpURI(),
		Severity: cmp.Or(d.Severity, r.Severity), Confidence: cmp.Or(d.Confidence, r.Confidence),
		File: src.Name, Source: src, Pos: d.Pos,
		Message: d.Message, Fix: cmp.Or(d.Fix, r.Fix), Detail: d.Detail, Related: d.Related, Chain: d.Chain, FoldKey: d.FoldKey,
		RepairWith: d.Repair,
	}
}

// onWorkflow names the finding's workflow. Without a position of its own
// a finding stands on its node, else on its workflow.
func onWorkflow(f *Finding, r *Rule, name, id string, pos n8nschema.Pos, paramsLost bool) {
	f.Workflow, f.WorkflowID = name, id
	if !f.Pos.IsValid() {
		f.Pos = pos
	}
	if paramsLost && r.ID >= "RS100" {
		// Every parameter was read as its default, and the defaults
		// are not what the author built (RS008 says so once).
		f.Severity = min(f.Severity, Note)
	}
}

// SetPass is what a set-wide rule (Rule.RunSet) sees: the summary of
// every workflow of the set, in set order.
type SetPass struct {
	Rule      *Rule
	Workflows []WorkflowSummary
	Options   *Options
	found     []Finding
}

// Report records a finding on an operation of a workflow of the set, or
// on the workflow when op is nil (d.Node is not read: the operation names
// its node).
func (p *SetPass) Report(w *WorkflowSummary, op *OperationSummary, d Diagnostic) {
	f := newFinding(p.Rule, w.Source, d)
	if op != nil {
		f.Node = op.Node
		if !f.Pos.IsValid() {
			f.Pos = op.Pos
		}
	}
	onWorkflow(&f, p.Rule, w.Name, w.ID, w.Pos, w.ParametersLost)
	p.found = append(p.found, f)
}

// RunSet runs the set-wide rules over the summaries of every workflow of
// the set and returns their findings sorted, without duplicates.
func RunSet(wfs []WorkflowSummary, rules []*Rule, opts *Options) []Finding {
	var all []Finding
	for _, r := range rules {
		all = append(all, runSetRule(wfs, r, opts)...)
	}
	return Unique(all)
}

// runSetRule is one set-wide rule's findings, fingerprinted.
func runSetRule(wfs []WorkflowSummary, r *Rule, opts *Options) []Finding {
	p := &SetPass{Rule: r, Workflows: wfs, Options: opts}
	r.RunSet(p)
	for i := range p.found {
		p.found[i].Fingerprint = Fingerprint(&p.found[i])
	}
	return p.found
}

// UniqueWithSet is Unique(append(lists, RunSet(wfs, rules, opts))...), the
// end of an audit: each set-wide rule, and the sort of lists, is a job of
// one pool, so that on two cores the rules run beside each other and
// beside the sort (the end runs after both passes, with no other work for
// the second core). The set-wide findings are then merged into the sorted
// lists: a merge that takes the lists' finding first among equal ones is
// the stable sort of them all, and dropping a repeat of the last kept
// gives what Unique does (a repeat compares equal, so Unique's drops
// within the set-wide findings are repeats next to each other in the
// merge too).
func UniqueWithSet(lists [][]Finding, wfs []WorkflowSummary, rules []*Rule, opts *Options) []Finding {
	found := make([][]Finding, len(rules))
	var ps []*Finding
	// The sort last: the rules, in their order, start first.
	pool.Each(len(rules)+1, func(i int) {
		if i == len(rules) {
			ps = sortedOf(lists)
			return
		}
		found[i] = runSetRule(wfs, rules[i], opts)
	})
	wide := Unique(found...)
	if len(ps)+len(wide) < 2 {
		// Unique's own answer (the list of the one finding, no copy).
		return Unique(append(lists, wide)...)
	}
	out := make([]Finding, 0, len(ps)+len(wide))
	for i, j := 0, 0; i < len(ps) || j < len(wide); {
		var p *Finding
		if j == len(wide) || i < len(ps) && compareFindings(ps[i], &wide[j]) <= 0 {
			p, i = ps[i], i+1
		} else {
			p, j = &wide[j], j+1
		}
		if n := len(out); n > 0 && sameFinding(&out[n-1], p) {
			continue
		}
		out = append(out, *p)
	}
	return out
}

// Reportf reports a finding on a node at pos (zero pos: the node's).
func (p *Pass) Reportf(n *n8nschema.Node, pos n8nschema.Pos, format string, args ...any) {
	p.Report(Diagnostic{Node: n, Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// SplitRules parts rules, each part in the given order: those a group's
// set runs (Run) and the set-wide ones (RunSet).
func SplitRules(rules []*Rule) (group, setWide []*Rule) {
	for _, r := range rules {
		if isSetWide(r) {
			setWide = append(setWide, r)
		} else {
			group = append(group, r)
		}
	}
	return group, setWide
}

func isSetWide(r *Rule) bool { return r.RunSet != nil }

// Run runs every rule over every file and workflow of the set and returns
// the findings sorted by file, position and rule, without duplicates.
func Run(set *Set, rules []*Rule) []Finding {
	if !slices.ContainsFunc(rules, isSetWide) {
		// The engine's groups: it runs the set-wide rules itself, and
		// splitting the list made two slices per group.
		return runGroup(set, rules)
	}
	rules, setWide := SplitRules(rules)
	fs := runGroup(set, rules)
	if len(setWide) == 0 {
		return fs
	}
	return Unique(fs, RunSet(Summarize(set), setWide, &set.Options))
}

// runGroup is Run of the rules that need only the set (Rule.Run).
func runGroup(set *Set, rules []*Rule) []Finding {
	// Every pass (one rule over one file or workflow) runs on any core into
	// a list of its own; the lists are joined in the order a serial run
	// makes them (per file: the file rules, then each workflow's rules), so
	// the findings are the same before they are sorted. Passes, not files,
	// are the unit, so that one large workflow uses every core too. Rules
	// are pure and the set is read-only here (Source positions are
	// locked).
	perFile, perWorkflow := 0, 0
	for _, r := range rules {
		if r.Scope == PerFile {
			perFile++
		} else if r.Scope == PerWorkflow {
			perWorkflow++
		}
	}
	passes := make([]Pass, 0, len(set.Files)*perFile+len(set.Workflows)*perWorkflow)
	on := make([]passOn, 0, len(set.Files)+len(set.Workflows))
	add := func(f *n8nschema.File, w *n8nschema.Workflow, scope Scope) {
		on = append(on, passOn{File: f, Workflow: w, Set: set, Options: &set.Options})
		for _, r := range rules {
			if r.Scope == scope {
				passes = append(passes, Pass{Rule: r, passOn: &on[len(on)-1]})
			}
		}
	}
	for _, f := range set.Files {
		add(f, nil, PerFile)
		for _, w := range f.Workflows {
			add(f, w, PerWorkflow)
		}
	}
	pool.Each(len(passes), func(i int) {
		p := &passes[i]
		p.Rule.Run(p)
		found := p.findings()
		for j := range found {
			found[j].Fingerprint = Fingerprint(&found[j])
		}
	})
	// The findings are sorted and copied once, by pointers into the
	// passes' lists in a serial run's order; one alone is its pass's list.
	n, last := 0, 0
	for i := range passes {
		if k := len(passes[i].findings()); k > 0 {
			n, last = n+k, i
		}
	}
	switch n {
	case 0:
		return nil
	case 1:
		return passes[last].findings()[:1:1]
	}
	ps := make([]*Finding, 0, n)
	for i := range passes {
		found := passes[i].findings()
		for j := range found {
			ps = append(ps, &found[j])
		}
	}
	return uniqueOf(ps)
}

// SortFindings orders findings by file, line, column, rule, node, message.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int { return compareFindings(&a, &b) })
}

// compareFindings is SortFindings' order. It stops at the first field that
// differs: cmp.Or would compare all six, messages included, every time.
func compareFindings(a, b *Finding) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Pos.Line, b.Pos.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Pos.Col, b.Pos.Col); c != 0 {
		return c
	}
	if c := strings.Compare(a.RuleID, b.RuleID); c != 0 {
		return c
	}
	if c := strings.Compare(a.Node, b.Node); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

// Fingerprint identifies a finding across edits that move nodes around:
// rule, workflow (id, else file and name), node name and detail; never a
// line number or canvas position.
func Fingerprint(f *Finding) string {
	var buf [256]byte // most keys fit: no allocation
	key := append(buf[:0], f.RuleID...)
	key = append(key, 0)
	if f.WorkflowID != "" {
		key = append(key, f.WorkflowID...)
	} else {
		key = append(append(append(key, f.File...), 0), f.Workflow...)
	}
	key = append(append(append(append(key, 0), f.Node...), 0), f.Detail...)
	h := sha256.Sum256(key)
	return hex.EncodeToString(h[:8])
}
