// Package engine is stormcheck's audit without a front end: options
// resolved into settings, inputs found (files, folders, globs, stdin) and
// named, workflow sources parsed, audited, repaired, simulated and drawn. The command line (cmd) and the MCP
// server (mcpserver) both call it; neither parses the other's flags.
package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// MaxCount bounds every count given as an option (attempts, items,
// workers, concurrency): they multiply, and a million each is beyond any
// fleet without wrapping around.
const MaxCount = 1_000_000

// DefaultMaxFileSize bounds one input (a file, stdin, or a workflow sent
// as text). The largest real export in the corpus is 311,496 bytes and all
// 2,898 corpus workflows together are 41 MB, so an `export:workflow --all`
// of an instance that size fits six times over.
const DefaultMaxFileSize = 256 << 20

// ErrNoWorkflow: the inputs hold no workflow at all.
var ErrNoWorkflow = errors.New("no workflow found in the inputs")

// Options are what an audit is asked for, whoever asks: the command line
// merges its flags over the config into them, the MCP server its call's
// arguments over the config.
type Options struct {
	Analysis analyze.Options
	// Enable and Disable select rules as --enable and --disable do: IDs,
	// names, all, globs, -RS105 to remove one.
	Enable, Disable []string
	// Severities override rules' severities, by ID or name.
	Severities    map[string]analyze.Severity
	MinConfidence analyze.Confidence
	// MinSeverity hides findings below it from the result; they are
	// still counted (Summary.BelowSeverity).
	MinSeverity analyze.Severity
	Ignores     []analyze.Ignore
	NoIgnores   bool
	// Now is when the run happens, for ignore entries' expiry dates.
	Now        time.Time
	FixOptions fix.Options
	// N8nVersion is the n8n release the workflows run on; "" is the one
	// the node table was read from (n8nschema.N8nVersion).
	N8nVersion string
	// Version is stormcheck's, as reports name it.
	Version string
}

// DefaultOptions are the command line's defaults.
func DefaultOptions() Options {
	return Options{Analysis: analyze.DefaultOptions(), MinConfidence: analyze.Low, MinSeverity: analyze.Note, Now: time.Now()}
}

// An OptionError is an option that cannot be resolved; Option is
// "rules" (Enable, Disable), "severity" or "n8n_version".
type OptionError struct {
	Option string
	Err    error
}

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// Settings are resolved options: the rules that run, with their
// severities, and what the filters and repairs need.
type Settings struct {
	Analysis analyze.Options
	// Rules are the enabled rules, Listed every registered one (SARIF),
	// both with the configured severities.
	Rules, Listed []*analyze.Rule
	Filter        analyze.FilterOptions
	FixOptions    fix.Options
	MinSeverity   analyze.Severity
	N8nVersion    string
	Version       string
}

// Resolve checks the options and selects the rules.
func Resolve(o Options) (*Settings, error) {
	all := rules.All()
	enabled, err := analyze.SelectRules(all, o.Enable, o.Disable)
	if err != nil {
		return nil, &OptionError{"rules", err}
	}
	sev, err := analyze.ResolveSeverities(all, o.Severities)
	if err != nil {
		return nil, &OptionError{"severity", err}
	}
	if o.N8nVersion != "" {
		v, err := n8nschema.ParseVersion(o.N8nVersion)
		if err != nil {
			return nil, &OptionError{"n8n_version", err}
		}
		o.Analysis.N8nVersion = v
	}
	s := &Settings{
		Analysis: o.Analysis, Rules: analyze.WithSeverities(enabled, sev), Listed: analyze.WithSeverities(all, sev),
		FixOptions: o.FixOptions, MinSeverity: o.MinSeverity, N8nVersion: o.N8nVersion, Version: o.Version,
	}
	// What MinSeverity hides is neither counted as fixable nor repaired.
	s.FixOptions.MinSeverity = o.MinSeverity
	s.Filter = analyze.FilterOptions{
		Rules: s.Rules, All: all, Severities: sev, MinConfidence: o.MinConfidence,
		Ignores: o.Ignores, NoIgnores: o.NoIgnores, Now: o.Now.UTC(),
	}
	return s, nil
}

// VersionNote says what the facts know of the n8n release asked for:
// "" when they were checked on it or a later one (or none was asked
// for). An agent building for an older release should know the
// findings speak of the releases the facts were checked on.
func (s *Settings) VersionNote() string {
	v, err := n8nschema.ParseVersion(s.N8nVersion)
	if s.N8nVersion == "" || err != nil || n8nschema.Checked(v) {
		return ""
	}
	return "stormcheck's facts were checked on n8n " + n8nschema.KnownVersions[0].String() + " to " + n8nschema.NewestKnown().String() +
		"; on n8n " + s.N8nVersion + " node defaults and retries may differ"
}

// Source is one input held in memory: the name reports show and its
// bytes, or why they could not be read.
type Source struct {
	Name string
	Src  []byte
	Err  error
}

// ErrTooLarge: an input is larger than the size limit.
var ErrTooLarge = errors.New("larger than --max-file-size")

// Parse reads and parses the inputs on all cores, in their order, and
// holds them all: fix rounds, simulate and graph need the whole set at
// once (Audit reads in two passes instead). An input that cannot be read,
// or is larger than the limit, becomes a file whose only problem says why
// (RS001).
func Parse(ins []Input, rd Reading) []*n8nschema.File {
	a := &auditor{rd: rd}
	files := make([]*n8nschema.File, len(ins))
	pool.Each(len(ins), func(i int) { files[i] = a.parse(ins[i]) })
	return files
}

// Unread names the files that could not be read, as Audited.Unread does.
func Unread(files []*n8nschema.File) []string {
	kept := make([]keptFile, len(files))
	for i, f := range files {
		kept[i] = keepFile(f)
	}
	return unread(kept)
}

// TooLargeMessage is the RS001 text for an input over the size limit.
func TooLargeMessage(limit int64) string {
	return fmt.Sprintf("not read: larger than --max-file-size (%s)", FormatSize(limit))
}

// FormatSize shows a size in the largest binary unit that divides it.
func FormatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + " " + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Check analyses files as one set, as the audit does: every enabled rule,
// then the filters (ignores, baseline, confidence, severities).
func (s *Settings) Check(files []*n8nschema.File) (*analyze.Set, analyze.Filtered) {
	set := analyze.Build(files, s.Analysis)
	return set, analyze.Filter(set, analyze.Run(set, s.Rules), s.Filter)
}

// ResultOf is the report of an analysis of the whole set (Check): the
// set's summaries and what the renderers read of its sources are taken
// from it, as Audit takes them from each group.
func (s *Settings) ResultOf(set *analyze.Set, filtered analyze.Filtered, fixed int, need report.Needs) *Audited {
	c := report.NewCapture(need)
	c.Group(set, filtered.Findings)
	kept := make([]keptFile, len(set.Files))
	for i, f := range set.Files {
		kept[i] = keepFile(f)
	}
	return s.audited(analyze.Summarize(set), kept, filtered, fixed, c)
}

// result is the report of an audit: the filtered findings at or above
// MinSeverity, and the summary counting them, those below it, the fixable
// ones (whatever their severity, since --fix repairs them all) and the
// fixed ones.
func (s *Settings) result(wfs []analyze.WorkflowSummary, files []keptFile, filtered analyze.Filtered, fixed int, c *report.Capture) *report.Result {
	res := &report.Result{
		Tool:      report.Tool{Name: "stormcheck", Version: s.Version},
		Workflows: wfs, Rules: s.Listed, Findings: filtered.Findings, Capture: c,
	}
	sum := &res.Summary
	sum.Files, sum.Workflows = len(files), len(wfs)
	for _, w := range wfs {
		sum.Nodes += w.Nodes
	}
	// Skipped files are JSON met in a folder that is no workflow at all;
	// broken workflow files are RS001 errors, not skipped.
	for _, f := range files {
		if f.skipped {
			sum.SkippedFiles++
		}
	}
	sum.Ignored, sum.Baselined, sum.BelowConfidence = filtered.Ignored, filtered.Baselined, filtered.BelowConfidence
	all := res.Findings
	if below := func(f analyze.Finding) bool { return f.Severity < s.MinSeverity }; slices.ContainsFunc(all, below) {
		res.Findings = slices.DeleteFunc(slices.Clone(all), below)
	}
	sum.Count(res.Findings)
	sum.BelowSeverity = len(all) - len(res.Findings)
	sum.Fixed = fixed
	return res
}

// WhyNoWorkflow says why files hold no workflow: the first problem of the
// first file that has one, with its place, escaped and redacted as a
// report shows it; "" when no file has a problem.
func WhyNoWorkflow(files []*n8nschema.File) string {
	for _, f := range files {
		if len(f.Problems) > 0 {
			p := f.Problems[0]
			at := ""
			if p.Pos.IsValid() {
				at = ":" + p.Pos.String()
			}
			return report.Printable(f.Source.Name) + at + ": " + report.Printable(report.Redact(p.Message))
		}
	}
	return ""
}

// FindRule finds a registered rule by ID or name, ignoring case; nil when
// there is none.
func FindRule(key string) *analyze.Rule {
	key = strings.TrimSpace(key)
	for _, r := range rules.All() {
		if strings.EqualFold(r.ID, key) || strings.EqualFold(r.Name, key) {
			return r
		}
	}
	return nil
}
