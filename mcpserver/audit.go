package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/report"
)

// Options are the audit options a call may give, as on the command line.
type Options struct {
	N8nVersion  string   `json:"n8n_version,omitempty" jsonschema:"the n8n release the workflows run on, like 2.8.4"`
	MinSeverity string   `json:"min_severity,omitempty" jsonschema:"show only findings at or above: note, warning or error (default note)"`
	Rules       []string `json:"rules,omitempty" jsonschema:"rules to run, as --enable takes them: IDs, names, all, globs like RS1*, -RS105 to leave one out (default: the config's, else all)"`
	MaxFindings int      `json:"max_findings,omitempty" jsonschema:"most findings returned, those to change first, in report order (default 50); the counts cover them all"`
}

// defaultMaxFindings keeps an audit of a whole export within what an
// agent reads: n8n-real's 2,898 workflows have 3,378 findings, 5.5 MB of JSON.
const defaultMaxFindings = 50

func (o Options) maxFindings() (int, error) {
	switch {
	case o.MaxFindings == 0:
		return defaultMaxFindings, nil
	case o.MaxFindings < 0 || o.MaxFindings > engine.MaxCount:
		return 0, fmt.Errorf("max_findings %d: want 1 to %d (0: %d)", o.MaxFindings, engine.MaxCount, defaultMaxFindings)
	}
	return o.MaxFindings, nil
}

// AuditInput is the audit tool's input.
type AuditInput struct {
	Inputs
	Options
}

// FixInput is the fix tool's input.
type FixInput struct {
	Inputs
	Options
	Unsafe bool `json:"unsafe,omitempty" jsonschema:"apply the unsafe repairs too, as --unsafe-fixes: an Idempotency-Key header, settings.executionTimeout, an output cap from the config"`
}

// Finding is one finding, as the JSON report has it (secrets redacted).
type Finding struct {
	Rule       string   `json:"rule"`
	Name       string   `json:"name"`
	Severity   string   `json:"severity"`
	Confidence string   `json:"confidence"`
	File       string   `json:"file"`
	Line       int      `json:"line"`
	Column     int      `json:"column"`
	Workflow   string   `json:"workflow"`
	Node       string   `json:"node"`
	Message    string   `json:"message"`
	Fix        string   `json:"fix"`
	Chain      []Factor `json:"chain" jsonschema:"the retry layers that multiply to the attempts, outermost first"`
	Repair     string   `json:"repair" jsonschema:"safe or unsafe: the fix tool repairs it (unsafe ones only with unsafe=true); empty when stormcheck has no repair"`
	HelpURI    string   `json:"help_uri"`
}

// Factor is one layer of an attempt chain.
type Factor struct {
	Kind     string `json:"kind"`
	Value    *int   `json:"value" jsonschema:"attempts this layer multiplies by; null when it has no bound"`
	Node     string `json:"node"`
	Workflow string `json:"workflow"`
}

// AuditOutput is the audit tool's result.
type AuditOutput struct {
	Summary  string         `json:"summary" jsonschema:"what was found and what to change first, for an agent"`
	Counts   report.Summary `json:"counts"`
	Findings []Finding      `json:"findings"`
}

// FixedFile is one input after the repairs.
type FixedFile struct {
	Name    string `json:"name"`
	Changed bool   `json:"changed"`
	JSON    string `json:"json,omitempty" jsonschema:"the repaired workflow, byte for byte what audit --fix writes; only when changed"`
}

// FixOutput is the fix tool's result.
type FixOutput struct {
	Summary string      `json:"summary"`
	Fixed   int         `json:"fixed" jsonschema:"findings the repairs removed"`
	Files   []FixedFile `json:"files"`
	Diff    string      `json:"diff" jsonschema:"the repairs as a unified diff, for reading (credential-like values show as [REDACTED]); apply the json of files instead"`
	// Remaining are the findings left after the repairs.
	Remaining []Finding `json:"remaining"`
	Notes     []string  `json:"notes"`
}

// settings are the server's options with the call's over them.
func (s *server) settings(o Options) (*engine.Settings, error) {
	eo := s.cfg.Options
	eo.Now = time.Now()
	eo.Version = s.cfg.Version
	eo.N8nVersion = o.N8nVersion
	if o.MinSeverity != "" {
		sev, ok := analyze.ParseSeverity(o.MinSeverity)
		if !ok {
			return nil, fmt.Errorf("min_severity %q: want note, warning or error", o.MinSeverity)
		}
		eo.MinSeverity = sev
	}
	if len(o.Rules) > 0 {
		eo.Enable, eo.Disable = o.Rules, nil
	}
	st, err := engine.Resolve(eo)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", optionName(err), err)
	}
	if dir := s.cfg.ConfigDir; dir != "" {
		// Inputs are named from the working folder, as if their files were there.
		st.Filter.PathOf = func(name string) string {
			if r, err := filepath.Rel(dir, filepath.Join(s.cfg.Root, filepath.FromSlash(name))); err == nil && !strings.HasPrefix(r, "..") {
				return filepath.ToSlash(r)
			}
			return name
		}
	}
	return st, nil
}

func optionName(err error) string {
	if oe, ok := err.(*engine.OptionError); ok {
		return oe.Option
	}
	return "options"
}

func (s *server) audit(_ context.Context, _ *mcp.CallToolRequest, in AuditInput) (*mcp.CallToolResult, AuditOutput, error) {
	out, err := call(s, func() (AuditOutput, error) {
		st, err := s.settings(in.Options)
		if err != nil {
			return AuditOutput{}, err
		}
		limit, err := in.maxFindings()
		if err != nil {
			return AuditOutput{}, err
		}
		ins, err := s.inputs(in.Inputs)
		if err != nil {
			return AuditOutput{}, err
		}
		doc, err := reportOf(st.Audit(ins, s.reading()).Result)
		if err != nil {
			return AuditOutput{}, err
		}
		return AuditOutput{Summary: auditSummary(doc, st, limit), Counts: doc.Summary, Findings: firstFindings(doc.Findings, limit)}, nil
	})
	return nil, out, err
}

func (s *server) fix(_ context.Context, _ *mcp.CallToolRequest, in FixInput) (*mcp.CallToolResult, FixOutput, error) {
	out, err := call(s, func() (FixOutput, error) {
		st, err := s.settings(in.Options)
		if err != nil {
			return FixOutput{}, err
		}
		limit, err := in.maxFindings()
		if err != nil {
			return FixOutput{}, err
		}
		ins, err := s.inputs(in.Inputs)
		if err != nil {
			return FixOutput{}, err
		}
		fx, err := st.Fix(engine.Parse(ins, s.reading()), in.Unsafe)
		if err != nil {
			return FixOutput{}, err
		}
		left, err := reportOf(st.ResultOf(fx.Set, fx.Filtered, fx.Fixed, report.Needs{}).Result)
		if err != nil {
			return FixOutput{}, err
		}
		out := FixOutput{Fixed: fx.Fixed, Diff: redactLines(fx.Diff()), Remaining: firstFindings(left.Findings, limit), Notes: []string{}}
		for _, f := range fx.Files {
			ff := FixedFile{Name: f.Source.Name, Changed: slices.Contains(fx.Changed, f.Source.Name)}
			if ff.Changed {
				ff.JSON = string(f.Source.Src)
			}
			out.Files = append(out.Files, ff)
		}
		for _, f := range fx.Undone {
			// Never expected: the repairs are made not to.
			out.Notes = append(out.Notes, fmt.Sprintf("a round of fixes was left out: it would bring %s on node %q in %s (please report this)",
				f.RuleID, report.Redact(f.Node), f.File))
		}
		out.Summary = fixSummary(out, left, st, in.Unsafe)
		return out, nil
	})
	return nil, out, err
}

// document is what the tools read of the JSON report: the report is
// rendered as `audit --format json` renders it, so what an agent sees is
// escaped and redacted exactly as the command line's output.
type document struct {
	Summary  report.Summary `json:"summary"`
	Findings []Finding      `json:"findings"`
}

func reportOf(res *report.Result) (*document, error) {
	var buf bytes.Buffer
	if err := (report.JSON{}).Render(&buf, res); err != nil {
		return nil, err
	}
	var raw struct {
		Summary  report.Summary `json:"summary"`
		Findings []struct {
			Finding
			Repair *struct {
				Safety string `json:"safety"`
			} `json:"repair"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		return nil, err
	}
	doc := &document{Summary: raw.Summary, Findings: make([]Finding, 0, len(raw.Findings))}
	for _, f := range raw.Findings {
		if f.Repair != nil {
			f.Finding.Repair = f.Repair.Safety
		}
		if f.Chain == nil {
			f.Chain = []Factor{}
		}
		doc.Findings = append(doc.Findings, f.Finding)
	}
	return doc, nil
}

// firstToChange is how many findings the summary names.
const firstToChange = 3

// auditSummary says, in a few lines an agent reads before the findings,
// what was found and what to change first: the most severe findings, and
// among equals those at a node that makes other findings' attempts
// unbounded (a self-restart, a loop): changing it bounds them all. Report
// order breaks ties.
func auditSummary(doc *document, st *engine.Settings, limit int) string {
	var b strings.Builder
	c := doc.Summary
	if c.Findings == 0 {
		fmt.Fprintf(&b, "No findings at or above %s in %s (%s): nothing to change.", st.MinSeverity,
			count(c.Workflows, "workflow"), count(c.Nodes, "node"))
		if c.BelowSeverity > 0 {
			fmt.Fprintf(&b, " %s below min_severity %s not shown.", count(c.BelowSeverity, "finding"), st.MinSeverity)
		}
	} else {
		fmt.Fprintf(&b, "%s (%d errors, %d warnings, %d notes) in %s. Change first:\n",
			count(c.Findings, "finding"), c.Errors, c.Warnings, c.Notes, count(c.Workflows, "workflow"))
		order, causes := ranked(doc.Findings)
		for n, i := range order[:min(firstToChange, len(order))] {
			f := doc.Findings[i]
			fmt.Fprintf(&b, "%d. %s %s", n+1, f.Rule, f.Severity)
			if f.Node != "" {
				fmt.Fprintf(&b, " at node %q", report.Printable(f.Node))
			}
			if f.Workflow != "" {
				fmt.Fprintf(&b, " in workflow %q", report.Printable(f.Workflow))
			}
			fmt.Fprintf(&b, ": %s. Fix: %s", report.Printable(f.Message), report.Printable(f.Fix))
			if c := causes[nodeOf(f)]; c > 0 {
				fmt.Fprintf(&b, " (this node makes %s unbounded)", count(c, "other finding"))
			}
			switch f.Repair {
			case "safe":
				b.WriteString(" (the fix tool does this)")
			case "unsafe":
				b.WriteString(" (the fix tool does this with unsafe=true)")
			}
			b.WriteString("\n")
		}
		if c.Fixable+c.FixableUnsafe > 0 {
			fmt.Fprintf(&b, "%d with a safe repair and %d with an unsafe one: call fix, then audit its json again.\n", c.Fixable, c.FixableUnsafe)
		}
		if len(doc.Findings) > limit {
			fmt.Fprintf(&b, "findings lists the %d to change first of %d (max_findings).", limit, len(doc.Findings))
		}
	}
	return addNote(b.String(), st)
}

// ranked orders findings by what to change first: the most severe, and
// among equals those at a node that makes the most other findings
// unbounded; report order breaks ties.
func ranked(fs []Finding) (order []int, causes map[node]int) {
	causes = unboundedBy(fs)
	order = make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	sev := func(f Finding) int { s, _ := analyze.ParseSeverity(f.Severity); return int(s) }
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := fs[i], fs[j]
		return cmp.Or(sev(b)-sev(a), causes[nodeOf(b)]-causes[nodeOf(a)])
	})
	return order, causes
}

// firstFindings keeps the limit findings ranked first, in report order.
func firstFindings(fs []Finding, limit int) []Finding {
	if len(fs) <= limit {
		return fs
	}
	order, _ := ranked(fs)
	out := make([]Finding, 0, limit)
	for _, i := range slices.Sorted(slices.Values(order[:limit])) {
		out = append(out, fs[i])
	}
	return out
}

type node struct{ workflow, name string }

func nodeOf(f Finding) node { return node{f.Workflow, f.Node} }

// unboundedBy counts, per node, the findings at other nodes whose attempt
// chain has no bound because of it.
func unboundedBy(fs []Finding) map[node]int {
	m := map[node]int{}
	for _, f := range fs {
		seen := map[node]bool{}
		for _, c := range f.Chain {
			if k := (node{c.Workflow, c.Node}); c.Value == nil && k != nodeOf(f) && !seen[k] {
				seen[k] = true
				m[k]++
			}
		}
	}
	return m
}

func fixSummary(out FixOutput, left *document, st *engine.Settings, unsafe bool) string {
	changed := 0
	for _, f := range out.Files {
		if f.Changed {
			changed++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Repaired %s in %s; %s left.", count(out.Fixed, "finding"), count(changed, "file"), count(left.Summary.Findings, "finding"))
	if !unsafe && left.Summary.FixableUnsafe > 0 {
		fmt.Fprintf(&b, " %d more have an unsafe repair: call fix with unsafe=true.", left.Summary.FixableUnsafe)
	}
	if changed > 0 {
		b.WriteString(" Use each changed file's json as the workflow.")
	}
	return addNote(b.String(), st)
}

func addNote(s string, st *engine.Settings) string {
	if n := st.VersionNote(); n != "" {
		s = strings.TrimRight(s, "\n") + "\nNote: " + n + "."
	}
	return strings.TrimRight(s, "\n")
}

// redactLines redacts each line of a diff: a context line may quote a
// credential of the workflow.
func redactLines(diff string) string {
	lines := strings.SplitAfter(diff, "\n")
	for i, l := range lines {
		lines[i] = report.Redact(l)
	}
	return strings.Join(lines, "")
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
