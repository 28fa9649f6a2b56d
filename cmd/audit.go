package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/internal/safewrite"
	"github.com/stormcheck/stormcheck/n8napi"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// AuditOptions are the audit command's flags and inputs.
type AuditOptions struct {
	IO    *IO
	Paths []string
	// Formats are FMT (to stdout, at most one) or FMT=PATH entries.
	Formats       []string
	FailOn        string
	Color         string
	MaxAttempts   int
	Items         int
	Workers       int
	Concurrency   int
	Config        string
	Baseline      string
	WriteBaseline string
	Enable        []string
	Disable       []string
	MinConfidence string
	MinSeverity   string
	// Root is what report paths are relative to ("" for each input's git
	// top level); StdinFilename names stdin.
	Root          string
	StdinFilename string
	// SkipNonWorkflow treats named files like files met in a folder: one
	// that holds no workflow is skipped, not an error (pre-commit hooks).
	SkipNonWorkflow bool
	NoIgnores       bool
	// NoGitignore reads the files git ignores too; ShowConfig prints the
	// config found and the settings merged over it, and audits nothing.
	NoGitignore bool
	ShowConfig  bool
	MaxFileSize byteSize
	N8nVersion  string
	// Fix writes the safe repairs into the files; Diff prints them as a
	// unified diff and writes nothing; UnsafeFixes adds the unsafe ones.
	Fix         bool
	Diff        bool
	UnsafeFixes bool
	Remote      remoteOptions
	// Set lists the flags given on the command line; they override the config.
	Set map[string]bool
	// Now is when the run happens, for ignore entries' expires dates.
	Now func() time.Time
}

// output is one --format entry: a renderer and where it writes ("" is stdout).
type output struct {
	format string
	path   string
}

func newAuditCmd(io *IO, runF func(*AuditOptions) error) *cobra.Command {
	opts := &AuditOptions{IO: io, Now: time.Now, MaxFileSize: defaultMaxFileSize}
	def := analyze.DefaultOptions()
	c := &cobra.Command{
		Use:   "audit [PATH...]",
		Short: "Audit workflow files, folders, globs or stdin (-)",
		Long: `Audit n8n workflow exports. PATH is a file, a folder (walked recursively for *.json, in sorted
order), a glob, or - for stdin. Every workflow given in one run forms one analysis set, so calls between
them (Execute Workflow, error workflows, webhooks) are followed.

Settings come from .stormcheck.yaml, found from the first input's folder upward to the repository root
(or --config); flags given on the command line win. Reports name files relative to the repository root
(the git top level of each input, or --root), so reports, ignores and baselines are the same from any
working folder; --stdin-filename names stdin. Findings are left out when a node's notes or a sticky note covering the node say
"stormcheck:ignore RS201 -- reason", when a config ignore entry matches, when they are below
--min-confidence, or when their fingerprint is in the --baseline file.

Only regular files are read from folders, each up to --max-file-size (stdin too); an input that cannot
be read (a broken symlink, no permission, a named pipe or device given by name, too large) is an RS001
finding in the report of the others, and the run then exits 3.

--fix repairs what stormcheck can prove, with the smallest byte edits (indentation, key order, line
endings stay): ` + repairRules() + ` (stormcheck explain RULE says what each writes). The report then shows what is left. --diff prints the edits as a unified diff and
writes nothing. --fix never writes to an n8n instance: pull the workflows, fix the files, import them. With
stdin (-) as the only input, --fix writes the fixed workflow to stdout and the report to stderr.

Exit status: 0 nothing at or above --fail-on; 1 findings at or above it (with --diff: a file would
change); 2 usage error, bad config, or no workflow found in the inputs; 3 I/O or internal error, an
input that could not be read, or a file that could not be written (named; it is left as it was).`,
		Example: `  stormcheck audit workflows/
  stormcheck audit --format json --fail-on warning export.json
  stormcheck audit --format sarif=stormcheck.sarif --format github workflows/
  stormcheck audit --write-baseline .stormcheck-baseline.json workflows/
  stormcheck audit --baseline .stormcheck-baseline.json --enable 'RS1*,-RS105' workflows/
  stormcheck audit --diff workflows/
  stormcheck audit --fix --unsafe-fixes workflows/
  n8n export:workflow --all | stormcheck audit -`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			opts.Set = map[string]bool{}
			for _, name := range []string{"fail-on", "max-attempts", "items", "workers", "concurrency", "enable", "disable"} {
				opts.Set[name] = c.Flags().Changed(name)
			}
			if err := opts.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runAudit(opts)
		},
	}
	f := c.Flags()
	f.StringArrayVarP(&opts.Formats, "format", "f", []string{"text"},
		"output format "+strings.Join(report.Formats, "|")+"; FMT=PATH writes to a file (repeatable; stdout gets at most one)")
	f.StringVar(&opts.FailOn, "fail-on", "error", "exit 1 when a finding is at or above: error|warning|note|never")
	f.StringVar(&opts.Color, "color", "auto", "colour: auto|always|never (auto honours NO_COLOR, CLICOLOR_FORCE and FORCE_COLOR)")
	f.IntVar(&opts.MaxAttempts, "max-attempts", def.MaxAttempts, "attempt budget per logical operation")
	f.IntVar(&opts.Items, "items", def.Items, "items per execution assumed for per-execution figures")
	f.IntVar(&opts.Workers, "workers", def.Workers, "queue-mode workers, for in-flight ceilings")
	f.IntVar(&opts.Concurrency, "concurrency", def.Concurrency, "executions per worker, for in-flight ceilings")
	f.StringVar(&opts.Config, "config", "", "config file (default: "+configName+" in the first input's folder or above, up to the repository root)")
	f.StringVar(&opts.Baseline, "baseline", "", "report only findings whose fingerprint is not in this baseline file")
	f.StringVar(&opts.WriteBaseline, "write-baseline", "", "write the current findings' fingerprints to this file; they count as baselined")
	f.StringSliceVar(&opts.Enable, "enable", nil, "rules to run: IDs, names, all, globs like RS1*, -RS105 to remove one (default all)")
	f.StringSliceVar(&opts.Disable, "disable", nil, "rules not to run: IDs, names, all or globs")
	f.StringVar(&opts.MinConfidence, "min-confidence", "low", "leave out findings below: low|medium|high")
	f.StringVar(&opts.MinSeverity, "min-severity", "note", "show only findings at or above: note|warning|error (display only; --fail-on still counts all)")
	f.StringVar(&opts.Root, "root", "", "report paths relative to this folder (default: each input's git top level, else the working folder)")
	f.StringVar(&opts.StdinFilename, "stdin-filename", "", "the path stdin (-) stands for, in reports and for finding the config")
	f.BoolVar(&opts.SkipNonWorkflow, "skip-non-workflow", false, "skip named files that hold no workflow, as a folder walk does, and exit 0 when none does (for pre-commit hooks)")
	f.BoolVar(&opts.NoIgnores, "no-ignores", false, "disregard ignore directives in notes and the config's ignore list")
	f.BoolVar(&opts.NoGitignore, "no-gitignore", false, "read the files .gitignore leaves out of a folder walk too")
	f.BoolVar(&opts.ShowConfig, "show-config", false, "print the config file found and the settings merged over it, then stop")
	f.Var(&opts.MaxFileSize, "max-file-size", "largest file, stdin or fetched workflow read; a larger one is an RS001 finding and exit 3")
	f.BoolVar(&opts.Fix, "fix", false, "apply the safe repairs to the files in place, then report what is left")
	f.BoolVar(&opts.Diff, "diff", false, "print the repairs --fix would apply as a unified diff; write nothing")
	f.BoolVar(&opts.UnsafeFixes, "unsafe-fixes", false, "with --fix or --diff, apply the unsafe repairs too")
	n8nVersionFlag(f, &opts.N8nVersion)
	opts.Remote.addFlags(f)
	return c
}

func (o *AuditOptions) validate() error {
	if len(o.Paths) == 0 && o.Remote.URL == "" && !o.ShowConfig {
		return usageErrorf("audit needs a PATH (a file, folder, glob, or - for stdin)\nRun 'stormcheck audit --help' for usage.")
	}
	if _, err := o.outputs(); err != nil {
		return err
	}
	if o.Fix && !o.Diff && o.Remote.URL != "" {
		return usageErrorf("--fix never writes to an n8n instance: run 'stormcheck pull --n8n-url %s --out DIR', then 'stormcheck audit --fix DIR', and import the fixed files", n8napi.RedactURL(o.Remote.URL))
	}
	if (o.Fix || o.Diff) && slices.Contains(o.Paths, "-") && len(o.Paths) > 1 {
		return usageErrorf("--fix and --diff read stdin (-) only as the sole input")
	}
	if !oneOf(o.FailOn, "error", "warning", "note", "never") {
		return usageErrorf("--fail-on %q: want error, warning, note or never", o.FailOn)
	}
	if !oneOf(o.Color, "auto", "always", "never") {
		return usageErrorf("--color %q: want auto, always or never", o.Color)
	}
	if o.Remote.APIKeyFile != "" && o.Remote.URL == "" {
		return usageErrorf("--api-key-file is read only with --n8n-url: give the instance's URL too, or drop the flag")
	}
	if o.Remote.Insecure && o.Remote.URL == "" {
		return usageErrorf("--insecure applies only to --n8n-url: give the instance's URL too, or drop the flag")
	}
	if _, ok := analyze.ParseSeverity(o.MinSeverity); !ok {
		return usageErrorf("--min-severity %q: want note, warning or error", o.MinSeverity)
	}
	if _, ok := analyze.ParseConfidence(o.MinConfidence); !ok {
		return usageErrorf("--min-confidence %q: want low, medium or high", o.MinConfidence)
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"--max-attempts", o.MaxAttempts}, {"--items", o.Items}, {"--workers", o.Workers}, {"--concurrency", o.Concurrency}} {
		if n.v < 1 || n.v > maxCount {
			return usageErrorf("%s %d: want a whole number from 1 to %d", n.name, n.v, maxCount)
		}
	}
	if _, err := analyze.SelectRules(rules.All(), o.Enable, o.Disable); err != nil {
		return usageErrorf("--enable/--disable: %v%s", err, ruleHint(rules.All(), append(slices.Clone(o.Enable), o.Disable...)...))
	}
	return nil
}

// outputs parses --format entries: known formats, at most one to stdout,
// no file named twice.
func (o *AuditOptions) outputs() ([]output, error) {
	var outs []output
	stdout := 0
	for _, e := range o.Formats {
		fmtName, p, toFile := strings.Cut(e, "=")
		if !oneOf(fmtName, report.Formats...) {
			return nil, usageErrorf("--format %q: want one of %s, optionally as FMT=PATH", fmtName, strings.Join(report.Formats, ", "))
		}
		if toFile && p == "" {
			return nil, usageErrorf("--format %s=: the path is empty", fmtName)
		}
		if !toFile {
			stdout++
		}
		if slices.ContainsFunc(outs, func(x output) bool { return toFile && x.path == p }) {
			return nil, usageErrorf("--format: %s is named twice", p)
		}
		outs = append(outs, output{format: fmtName, path: p})
	}
	if stdout > 1 {
		return nil, usageErrorf("--format: at most one format can go to stdout; write the others with FMT=PATH")
	}
	return outs, nil
}

func oneOf(s string, set ...string) bool {
	return slices.Contains(set, s)
}

// auditSettings are the flags merged over the config: the engine's
// settings and the exit threshold.
type auditSettings struct {
	*engine.Settings
	failOn string
}

func runAudit(o *AuditOptions) error {
	wd, err := o.IO.Getwd()
	if err != nil {
		return err
	}
	n := engine.NewNamer(wd, o.Root, o.StdinFilename)
	// The node table and the patterns are built on another core while
	// this one lists the inputs, until the listing ends: the patterns not
	// compiled by then are compiled when first needed (one file's audit
	// needs few of them).
	var ins []engine.Input
	var listed atomic.Bool
	pool.Each(2, func(job int) {
		if job == 0 {
			ins, err = collectInputs(o.Paths, o.IO.In, n, int64(o.MaxFileSize))
			listed.Store(true)
		} else {
			n8nschema.Prepare()
			lazyregexp.CompileWhile(func() bool { return !listed.Load() })
		}
	})
	if err != nil {
		return err
	}
	cfg, err := o.loadConfig(n, configStart(ins, wd))
	if err != nil {
		return err
	}
	ins = o.dropIgnored(ins, cfg, n)
	st, err := o.settings(cfg, wd, ins)
	if err != nil {
		return err
	}
	if o.ShowConfig {
		return o.showConfig(cfg, st, ins)
	}
	if o.Remote.URL != "" {
		remote, err := remoteInputs(&o.Remote, o.IO)
		if err != nil {
			return err
		}
		ins = engine.SortInputs(append(ins, remote...))
	}
	outs, err := o.outputs()
	if err != nil {
		return err
	}
	formats := make([]string, len(outs))
	for i, out := range outs {
		formats[i] = out.format
	}
	rd := engine.Reading{Limit: int64(o.MaxFileSize), SkipNonWorkflow: o.SkipNonWorkflow, Needs: report.NeedsOf(formats...)}
	// Inputs that could not be read are findings in the report of the
	// others (unread); the run still exits 3 once the report is written.
	var a *engine.Audited
	var notWritten error
	reportTo := o.IO.Out
	if o.Fix || o.Diff {
		// Repairs rewrite the sources, so --fix holds the whole set.
		var done bool
		if a, reportTo, notWritten, done, err = o.fixInputs(ins, wd, st, rd); err != nil || done {
			return err
		}
	} else {
		a = st.Audit(reading(ins), rd)
	}
	// A file that could not be written is left as it was and named after
	// the report, which is written all the same (exit 3).
	failed := []error{unreadErr(a.Unread), notWritten}
	if o.WriteBaseline != "" {
		if err := writeOutput(inWd(o.WriteBaseline, wd), encodeBaseline(a.Filtered().Current)); err != nil {
			failed = append(failed, fmt.Errorf("write baseline: %w", err))
		} else {
			a.BaselineAll()
		}
	}
	if err := o.render(a.Result, wd, reportTo); err != nil {
		return errors.Join(append(failed, err)...)
	}
	if err := errors.Join(failed...); err != nil {
		return err
	}
	if a.Summary.Workflows == 0 && !o.SkipNonWorkflow {
		return usageErrorf("no workflow found in the inputs (%d %s read)", a.Summary.Files, plural(a.Summary.Files, "file", "files"))
	}
	if failOn, ok := analyze.ParseSeverity(st.failOn); ok {
		for _, f := range a.Filtered().Findings {
			if f.Severity >= failOn {
				return errFindings
			}
		}
	}
	return nil
}

// loadConfig reads --config, else the .stormcheck.yaml found upward from
// start; nil when there is none.
func (o *AuditOptions) loadConfig(n *engine.Namer, start string) (*Config, error) {
	p := o.Config
	if p != "" {
		p = n.Abs(p)
	} else {
		found, err := n.FindConfig(start, configNames...)
		if err != nil || found == "" {
			return nil, asUsage(err)
		}
		p = found
	}
	return loadConfig(p, n.Name(p), rules.All())
}

// configStart is where the config search begins: the folder of the first
// input (in name order, so argument order does not matter) that is a
// file or a named stdin; the working folder when there is none.
func configStart(ins []engine.Input, wd string) string {
	for _, in := range ins {
		if in.At != "" {
			return filepath.Dir(in.At)
		}
	}
	return wd
}

// settings merges the flags over the config: a flag given on the command
// line wins, then the config, then the flag's default.
func (o *AuditOptions) settings(cfg *Config, wd string, ins []engine.Input) (*auditSettings, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	var errw io.Writer
	if o.IO != nil {
		errw = o.IO.Err
	}
	v, err := n8nVersion(o.N8nVersion, cfg, errw)
	if err != nil {
		return nil, err
	}
	eo := o.engineOptions(cfg)
	eo.N8nVersion = v.String()
	s, err := engine.Resolve(eo)
	if oe := (*engine.OptionError)(nil); errors.As(err, &oe) && oe.Option == "severity" {
		return nil, usageErrorf("%s: rules.severity: %v", cfg.Path, err)
	} else if err != nil {
		return nil, usageErrorf("%v", err)
	}
	st := &auditSettings{Settings: s, failOn: o.FailOn}
	if !o.Set["fail-on"] && cfg.FailOn != "" {
		st.failOn = cfg.FailOn
	}
	if cfg.Dir != "" {
		st.Filter.PathOf = configPaths(cfg.Dir, ins)
	}
	if o.Baseline != "" {
		if st.Filter.Baseline, err = readBaseline(inWd(o.Baseline, wd), o.Baseline); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// engineOptions are the flags merged over the config (not nil), as the
// engine takes them.
func (o *AuditOptions) engineOptions(cfg *Config) engine.Options {
	eo := engine.DefaultOptions()
	eo.Version = Version()
	a := &eo.Analysis
	a.MaxAttempts = pick(o.Set["max-attempts"], o.MaxAttempts, cfg.MaxAttempts)
	a.Items = pick(o.Set["items"], o.Items, cfg.Items)
	a.Workers = pick(o.Set["workers"], o.Workers, cfg.Fleet.Workers)
	a.Concurrency = pick(o.Set["concurrency"], o.Concurrency, cfg.Fleet.Concurrency)
	cfg.options(a)
	eo.Enable, eo.Disable = cfg.Rules.Enable, cfg.Rules.Disable
	if o.Set["enable"] {
		eo.Enable = o.Enable
	}
	if o.Set["disable"] {
		eo.Disable = o.Disable
	}
	eo.Severities = map[string]analyze.Severity{}
	for k, v := range cfg.Rules.Severity {
		eo.Severities[k], _ = analyze.ParseSeverity(v) // checked by loadConfig
	}
	eo.MinConfidence, _ = analyze.ParseConfidence(o.MinConfidence)
	eo.MinSeverity, _ = analyze.ParseSeverity(o.MinSeverity)
	if o.Now != nil {
		eo.Now = o.Now()
	}
	eo.Ignores, eo.NoIgnores = cfg.ignores(), o.NoIgnores
	if cfg.Fix.MaxTokens != nil {
		eo.FixOptions.MaxTokens = *cfg.Fix.MaxTokens
	}
	return eo
}

// configPaths maps report names to paths relative to the config's folder,
// which its ignore globs are written against.
func configPaths(dir string, ins []engine.Input) func(string) string {
	rel := map[string]string{}
	for _, in := range ins {
		if in.At == "" {
			continue
		}
		if r, err := filepath.Rel(dir, in.At); err == nil && !strings.HasPrefix(r, "..") {
			rel[in.Name] = filepath.ToSlash(r)
		}
	}
	return func(name string) string {
		if r, ok := rel[name]; ok {
			return r
		}
		return name
	}
}

// pick returns the flag's value when it was given, else the config's when
// set, else the flag's default.
func pick(flagSet bool, flag int, cfg *int) int {
	if !flagSet && cfg != nil {
		return *cfg
	}
	return flag
}

// render writes every --format entry: files first, then the one to stdout
// (to out, which is stderr when --fix writes the fixed stdin to stdout).
func (o *AuditOptions) render(res *report.Result, wd string, w io.Writer) error {
	outs, err := o.outputs()
	if err != nil {
		return err
	}
	// A report file that cannot be written does not keep the others, or
	// the one on stdout, from being written.
	var failed []error
	for _, out := range outs {
		if out.path == "" {
			continue
		}
		if err := renderFile(out, res, inWd(out.path, wd), o.linkBase()); err != nil {
			failed = append(failed, err)
		}
	}
	for _, out := range outs {
		if out.path != "" {
			continue
		}
		r, err := report.New(out.format, report.Options{Color: colorEnabled(o.Color, o.IO), TTY: o.IO.OutIsTTY, LinkBase: o.linkBase(), UnsafeFixes: o.UnsafeFixes})
		if err != nil {
			return err
		}
		if err := r.Render(w, res); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	}
	return errors.Join(failed...)
}

// linkBase is where GitHub shows the repository's files at the commit a
// workflow run audits, for markdown's links; "" outside Actions, and with
// --root (report paths are then not the repository's).
func (o *AuditOptions) linkBase() string {
	server, repo, sha := o.IO.Getenv("GITHUB_SERVER_URL"), o.IO.Getenv("GITHUB_REPOSITORY"), o.IO.Getenv("GITHUB_SHA")
	if server == "" || repo == "" || sha == "" || o.Root != "" {
		return ""
	}
	return strings.TrimRight(server, "/") + "/" + repo + "/blob/" + sha + "/"
}

func renderFile(out output, res *report.Result, p, linkBase string) error {
	r, err := report.New(out.format, report.Options{LinkBase: linkBase})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("write %s report: %w", out.format, err)
	}
	if err := writeOutputWith(p, func(w io.Writer) error { return r.Render(w, res) }); err != nil {
		return fmt.Errorf("write %s report: %w", out.format, err)
	}
	return nil
}

// writeOutput writes a file named on the command line (a report, a
// baseline) with safewrite: whole or not at all. A link at that name is
// replaced, not followed (a checkout can plant one), unless it leads to
// a device or pipe (/dev/stdout).
func writeOutput(p string, b []byte) error {
	return writeOutputWith(p, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

func writeOutputWith(p string, write func(io.Writer) error) error {
	err := safewrite.WriteWith(p, safewrite.Options{ReplaceLink: true}, write)
	var se *safewrite.Error
	if errors.As(err, &se) {
		// Named as given, escaped: the path may hold anything.
		return fmt.Errorf("%s: %s", report.Printable(p), report.Printable(se.Err.Error()))
	}
	return err
}

// inWd resolves a path given on the command line against the working folder.
func inWd(p, wd string) string {
	if filepath.IsAbs(p) || wd == "" {
		return p
	}
	return filepath.Join(wd, p)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// repairRules words which rules --fix repairs and which only with
// --unsafe-fixes, from the rules' own fix safety, so the help cannot fall
// behind a rule that gains a repair.
func repairRules() string {
	var safe, unsafe []string
	for _, r := range rules.All() {
		switch r.FixSafety {
		case analyze.Safe:
			safe = append(safe, r.ID)
		case analyze.Unsafe:
			unsafe = append(unsafe, r.ID)
		}
	}
	return "safe repairs for " + strings.Join(safe, ", ") + "; --unsafe-fixes adds those of " + strings.Join(unsafe, ", ")
}
