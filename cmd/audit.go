package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// AuditOptions are the audit command's flags and inputs.
type AuditOptions struct {
	IO          *IO
	Paths       []string
	Format      string
	FailOn      string
	Color       string
	MaxAttempts int
	Items       int
	Workers     int
	Concurrency int
	Remote      remoteOptions
}

func newAuditCmd(io *IO, runF func(*AuditOptions) error) *cobra.Command {
	opts := &AuditOptions{IO: io}
	def := analyze.DefaultOptions()
	c := &cobra.Command{
		Use:   "audit [PATH...]",
		Short: "Audit workflow files, folders, globs or stdin (-)",
		Long: `Audit n8n workflow exports. PATH is a file, a folder (walked recursively for *.json, in sorted
order), a glob, or - for stdin. Every workflow given in one run forms one analysis set, so calls between
them (Execute Workflow, error workflows, webhooks) are followed.

Exit status: 0 nothing at or above --fail-on; 1 findings at or above it; 2 usage error, bad config, or no
workflow found in the inputs; 3 I/O or internal error.`,
		Example: `  stormcheck audit workflows/
  stormcheck audit --format json --fail-on warning export.json
  n8n export:workflow --all | stormcheck audit -`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
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
	f.StringVarP(&opts.Format, "format", "f", "text", "output format: "+strings.Join(report.Formats, "|"))
	f.StringVar(&opts.FailOn, "fail-on", "error", "exit 1 when a finding is at or above: error|warning|note|never")
	f.StringVar(&opts.Color, "color", "auto", "colour: auto|always|never (auto honours NO_COLOR and CLICOLOR_FORCE)")
	f.IntVar(&opts.MaxAttempts, "max-attempts", def.MaxAttempts, "attempt budget per logical operation")
	f.IntVar(&opts.Items, "items", def.Items, "items per execution assumed for per-execution figures")
	f.IntVar(&opts.Workers, "workers", def.Workers, "queue-mode workers, for in-flight ceilings")
	f.IntVar(&opts.Concurrency, "concurrency", def.Concurrency, "executions per worker, for in-flight ceilings")
	opts.Remote.addFlags(f)
	return c
}

func (o *AuditOptions) validate() error {
	if len(o.Paths) == 0 && o.Remote.URL == "" {
		return usageErrorf("audit needs a PATH (a file, folder, glob, or - for stdin)\nRun 'stormcheck audit --help' for usage.")
	}
	if !oneOf(o.Format, report.Formats...) {
		return usageErrorf("--format %q: want one of %s", o.Format, strings.Join(report.Formats, ", "))
	}
	if !oneOf(o.FailOn, "error", "warning", "note", "never") {
		return usageErrorf("--fail-on %q: want error, warning, note or never", o.FailOn)
	}
	if !oneOf(o.Color, "auto", "always", "never") {
		return usageErrorf("--color %q: want auto, always or never", o.Color)
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"--max-attempts", o.MaxAttempts}, {"--items", o.Items}, {"--workers", o.Workers}, {"--concurrency", o.Concurrency}} {
		if n.v < 1 {
			return usageErrorf("%s %d: want a whole number of at least 1", n.name, n.v)
		}
	}
	return nil
}

func oneOf(s string, set ...string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

func runAudit(o *AuditOptions) error {
	wd, err := o.IO.Getwd()
	if err != nil {
		return err
	}
	ins, err := collectInputs(o.Paths, o.IO.In, wd)
	if err != nil {
		return err
	}
	if o.Remote.URL != "" {
		remote, err := remoteInputs(&o.Remote, o.IO)
		if err != nil {
			return err
		}
		ins = sortInputs(append(ins, remote...))
	}
	files, err := parseInputs(ins)
	if err != nil {
		return err
	}
	aopts := analyze.DefaultOptions()
	aopts.MaxAttempts, aopts.Items, aopts.Workers, aopts.Concurrency = o.MaxAttempts, o.Items, o.Workers, o.Concurrency
	set := analyze.Build(files, aopts)
	findings := analyze.Run(set, rules.All())

	res := &report.Result{Tool: report.Tool{Name: "stormcheck", Version: Version()}, Set: set, Findings: findings}
	res.Summary.Files = len(files)
	res.Summary.Workflows = len(set.Workflows)
	for _, w := range set.Workflows {
		res.Summary.Nodes += len(w.Nodes)
	}
	for _, f := range files {
		if len(f.Workflows) == 0 && !f.Explicit && len(f.Problems) > 0 {
			res.Summary.SkippedFiles++
		}
	}
	res.Summary.Count(findings)

	r, err := report.New(o.Format, report.Options{Color: colorEnabled(o.Color, o.IO), TTY: o.IO.OutIsTTY})
	if err != nil {
		return err
	}
	if err := r.Render(o.IO.Out, res); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if len(set.Workflows) == 0 {
		return usageErrorf("no workflow found in the inputs (%d %s read)", len(files), plural(len(files), "file", "files"))
	}
	if failOn, ok := analyze.ParseSeverity(o.FailOn); ok {
		for _, f := range findings {
			if f.Severity >= failOn {
				return errFindings
			}
		}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
