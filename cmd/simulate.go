package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/simulate"
	"github.com/stormcheck/stormcheck/simulate/chart"
)

// defaultShow is how many dependencies not down a chart draws.
const defaultShow = 3

// SimulateOptions are the simulate command's flags.
type SimulateOptions struct {
	IO          *IO
	Paths       []string
	Outages     []string
	Rate        string
	Executions  int
	Items       int
	Workers     int
	Concurrency int
	Latency     time.Duration
	Failure     string
	Seed        uint64
	Window      time.Duration
	MaxEvents   int
	Format      string
	Color       string
	Config      string
	MaxFileSize byteSize
	N8nVersion  string
	// Compare simulates the workflows after audit --fix too (in memory);
	// UnsafeFixes adds the unsafe repairs.
	Compare     bool
	UnsafeFixes bool
	NoGitignore bool
	// Show and Deps choose the dependencies an svg or png draws.
	Show int
	Deps []string
	// Trace is a file that gets every attempt as a JSON line.
	Trace string
	// Set lists the flags given on the command line; they override the config.
	Set map[string]bool
}

func newSimulateCmd(io *IO) *cobra.Command {
	def := analyze.DefaultOptions()
	o := &SimulateOptions{IO: io, MaxFileSize: defaultMaxFileSize}
	c := &cobra.Command{
		Use:   "simulate PATH... --outage DEP:DURATION",
		Short: "Replay a dependency outage through the workflows and chart the retry storm",
		Long: `Simulate an outage: executions arrive (a backlog with --executions, a steady --rate, or else each
trigger's schedule), take a slot among --workers × --concurrency, and run their nodes; every attempt
against a dependency that is down fails (a 502 after --latency, or a timeout after the node's timeout),
and n8n's retry layers decide what happens next: node retries with their fixed wait, SDK retries with
randomised exponential backoff, agent iterations, callers re-running sub-workflows, error workflows,
self-triggers and unguarded loops. After the outage the dependency answers normally.

The report charts, per dependency and per second, the attempts sent, and the executions waiting for a
slot; the totals give the attempts during and after the outage, duplicate writes, paid calls and their
cost, and the time the backlog took to drain. DEP is an operation's dependency: a provider (openai) or a
host (api.example.com). --compare replays the same outage after audit --fix, in memory, side by side.
The same --seed gives the same report. See docs/simulate.md.`,
		Example: `  stormcheck simulate workflows/ --outage api.vendor.com:90s --executions 3000 --workers 40 --concurrency 10
  stormcheck simulate flow.json --outage openai:10m --rate 30/min --failure timeout --format svg > storm.svg`,
		RunE: func(c *cobra.Command, args []string) error {
			o.Paths = args
			o.Set = map[string]bool{"workers": c.Flags().Changed("workers"), "concurrency": c.Flags().Changed("concurrency"),
				"items": c.Flags().Changed("items")}
			return runSimulate(o)
		},
	}
	f := c.Flags()
	f.StringArrayVar(&o.Outages, "outage", nil, "DEP:DURATION, a dependency down from 0 s (repeatable), e.g. openai:90s")
	f.StringVar(&o.Rate, "rate", "", "arrivals per entry workflow: N/min or N/s")
	f.IntVar(&o.Executions, "executions", 0, "a backlog of N executions per entry workflow queued at 0 s")
	f.IntVar(&o.Items, "items", def.Items, "items each execution carries from its trigger; a node that continues on its error output sends one item per failure on")
	f.IntVar(&o.Workers, "workers", def.Workers, "queue-mode workers")
	f.IntVar(&o.Concurrency, "concurrency", def.Concurrency, "executions per worker")
	f.DurationVar(&o.Latency, "latency", 200*time.Millisecond, "round trip of an answered call (a success or a 502)")
	f.StringVar(&o.Failure, "failure", "502", "how the dependency fails: 502|timeout")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the SDK backoff's randomness")
	f.DurationVar(&o.Window, "window", 0, "time simulated (default: the longest outage + 5m)")
	f.IntVar(&o.MaxEvents, "max-events", simulate.DefaultMaxEvents, "stop a run that passes this many events")
	f.StringVarP(&o.Format, "format", "f", "text", "output format: text|json|svg|png")
	f.IntVar(&o.Show, "show", defaultShow, "svg, png: the dependencies drawn after those down, the most attempted first")
	f.StringSliceVar(&o.Deps, "deps", nil, "svg, png: draw these dependencies, in this order (comma-separated)")
	f.StringVar(&o.Color, "color", "auto", "colour: auto|always|never (auto honours NO_COLOR and CLICOLOR_FORCE)")
	f.StringVar(&o.Config, "config", "", "config file (default: .stormcheck.yaml found upwards): fleet, prices, instance URLs; rules and ignores for --compare")
	f.BoolVar(&o.Compare, "compare", false, "simulate the workflows after audit --fix too (in memory), side by side")
	f.BoolVar(&o.UnsafeFixes, "unsafe-fixes", false, "with --compare, apply the unsafe repairs too, as audit --fix --unsafe-fixes")
	f.StringVar(&o.Trace, "trace", "", "write every attempt to FILE as a JSON line (sent_ms, answered_ms, dependency, workflow, node, ok), in the order answered")
	f.Var(&o.MaxFileSize, "max-file-size", "largest file or stdin read")
	n8nVersionFlag(f, &o.N8nVersion)
	f.BoolVar(&o.NoGitignore, "no-gitignore", false, "read the files .gitignore leaves out of a folder walk too")
	return c
}

// config turns the flags into a simulation config.
func (o *SimulateOptions) config() (simulate.Config, error) {
	c := simulate.Config{Executions: o.Executions, Workers: o.Workers, Concurrency: o.Concurrency, Latency: o.Latency,
		Failure: simulate.Failure(o.Failure), Seed: o.Seed, Window: o.Window, MaxEvents: o.MaxEvents}
	if len(o.Paths) == 0 {
		return c, usageErrorf("simulate needs at least one PATH\nRun 'stormcheck simulate --help' for usage.")
	}
	if len(o.Outages) == 0 {
		return c, usageErrorf("simulate needs --outage DEP:DURATION, e.g. --outage openai:90s")
	}
	for _, s := range o.Outages {
		i := strings.LastIndex(s, ":")
		if i <= 0 {
			return c, usageErrorf("--outage %q: want DEP:DURATION, e.g. api.example.com:90s", s)
		}
		d, err := time.ParseDuration(s[i+1:])
		if err != nil || d <= 0 {
			return c, usageErrorf("--outage %q: %q is not a positive duration (90s, 10m)", s, s[i+1:])
		}
		c.Outages = append(c.Outages, simulate.Outage{Dependency: s[:i], Duration: d})
	}
	if o.UnsafeFixes && !o.Compare {
		return c, usageErrorf("--unsafe-fixes goes with --compare")
	}
	if o.Trace != "" && o.Compare {
		return c, usageErrorf("--trace and --compare exclude each other")
	}
	if o.Rate != "" {
		if o.Executions > 0 {
			return c, usageErrorf("--rate and --executions exclude each other")
		}
		r, err := parseRate(o.Rate)
		if err != nil {
			return c, err
		}
		c.RatePerMin = r
	}
	switch {
	case o.Executions < 0:
		return c, usageErrorf("--executions %d: want 0 or more", o.Executions)
	case o.Items < 1 || o.Items > maxCount:
		return c, usageErrorf("--items %d: want a whole number from 1 to %d", o.Items, maxCount)
	case o.Workers < 1 || o.Concurrency < 1 || o.Workers > maxCount || o.Concurrency > maxCount:
		// Their product is the slot count: 2^32 × 2^32 wrapped to 0 slots.
		return c, usageErrorf("--workers %d, --concurrency %d: want whole numbers from 1 to %d", o.Workers, o.Concurrency, maxCount)
	case o.Latency < 0:
		return c, usageErrorf("--latency %v: want 0 or more", o.Latency)
	case !oneOf(o.Failure, "502", "timeout"):
		return c, usageErrorf("--failure %q: want 502 or timeout", o.Failure)
	case o.Window < 0:
		return c, usageErrorf("--window %v: want a positive duration", o.Window)
	case o.MaxEvents < 1:
		return c, usageErrorf("--max-events %d: want at least 1", o.MaxEvents)
	case !oneOf(o.Format, "text", "json", "svg", "png"):
		return c, usageErrorf("--format %q: want text, json, svg or png", o.Format)
	case o.Show < 0:
		return c, usageErrorf("--show %d: want 0 or more", o.Show)
	case (o.Show != defaultShow || len(o.Deps) > 0) && !oneOf(o.Format, "svg", "png"):
		return c, usageErrorf("--show and --deps choose what a chart draws: they go with --format svg or png")
	case o.Format == "png" && o.IO.OutIsTTY:
		return c, usageErrorf("--format png writes a picture, not text: redirect it to a file, e.g. > storm.png")
	case !oneOf(o.Color, "auto", "always", "never"):
		return c, usageErrorf("--color %q: want auto, always or never", o.Color)
	}
	return c, nil
}

// parseRate reads N/min, N/s or N (per minute).
func parseRate(s string) (float64, error) {
	num, unit, _ := strings.Cut(s, "/")
	per := 1.0
	switch unit {
	case "", "min", "m":
	case "s", "sec":
		per = 60
	case "h", "hour":
		per = 1.0 / 60
	default:
		return 0, usageErrorf("--rate %q: want N/min or N/s", s)
	}
	n, err := strconv.ParseFloat(num, 64)
	// NaN passes every comparison as false; a rate so small that one
	// arrival is further apart than a day has no arrival in any window.
	if err != nil || math.IsNaN(n) || n <= 0 || n > 1e6 || n*per < minRatePerMin {
		return 0, usageErrorf("--rate %q: want a number from 1/day to 1000000 per minute or per second", s)
	}
	return n * per, nil
}

// minRatePerMin is one arrival a day: the longest window is 24 h
// (simulate.MaxWindow).
const minRatePerMin = 1.0 / (24 * 60)

func runSimulate(o *SimulateOptions) error {
	sc, err := o.config()
	if err != nil {
		return err
	}
	wd, err := o.IO.Getwd()
	if err != nil {
		return err
	}
	n := engine.NewNamer(wd, "", "")
	ins, err := collectInputs(o.Paths, o.IO.In, n, int64(o.MaxFileSize))
	if err != nil {
		return err
	}
	// The analysis is audit's, with its config (fleet, prices, instance
	// URLs, rules, ignores), so that --compare replays what audit --fix
	// leaves; a flag given wins over the config.
	ao := &AuditOptions{Config: o.Config, FailOn: "never", MinConfidence: "low", Workers: o.Workers, Concurrency: o.Concurrency,
		MaxAttempts: analyze.DefaultOptions().MaxAttempts, Items: o.Items, Set: o.Set, N8nVersion: o.N8nVersion, NoGitignore: o.NoGitignore, IO: o.IO}
	cfg, err := ao.loadConfig(n, configStart(ins, wd))
	if err != nil {
		return err
	}
	ins = ao.dropIgnored(ins, cfg, n) // as audit: no git-ignored or excluded copy
	st, err := ao.settings(cfg, wd, ins)
	if err != nil {
		return err
	}
	sc.Workers, sc.Concurrency, sc.Items = st.Analysis.Workers, st.Analysis.Concurrency, st.Analysis.Items
	// An unreadable input is reported after the others are simulated.
	files, unread := parseInputs(ins, int64(o.MaxFileSize), false)
	var traceErr error
	if o.Trace != "" {
		tf, err := os.Create(inWd(o.Trace, wd))
		if err != nil {
			return usageErrorf("--trace: %v", err)
		}
		enc := json.NewEncoder(tf)
		sc.Trace = func(a simulate.Attempt) {
			if traceErr == nil {
				traceErr = enc.Encode(a)
			}
		}
		defer func() {
			if cerr := tf.Close(); traceErr == nil {
				traceErr = cerr
			}
		}()
	}
	first, err := st.Simulate(files, sc)
	if errors.Is(err, engine.ErrNoWorkflow) {
		if unread != nil {
			return unread // why no workflow was found: exit 3, as audit
		}
		return noWorkflow(files, analyze.Build(files, st.Analysis), st.Rules)
	}
	runs := []simulate.Labelled{{Result: nil}}
	if runs[0].Result, err = simulateErr(first, err); err != nil {
		if unread != nil {
			// The dependency may be in the input that was not read.
			return fmt.Errorf("%w; %v", unread, err)
		}
		return err
	}
	if o.Compare {
		fixed, err := st.Fix(files, o.UnsafeFixes)
		if err != nil {
			return err
		}
		label := "after audit --fix"
		if o.UnsafeFixes {
			label += " --unsafe-fixes"
		}
		label += fmt.Sprintf(" (%d %s repaired in %d %s)", fixed.Fixed, plural(fixed.Fixed, "finding", "findings"),
			len(fixed.Changed), plural(len(fixed.Changed), "file", "files"))
		after, err := simulateErr(simulate.Run(fixed.Set, sc))
		if err != nil {
			return err
		}
		runs[0].Label = "as given"
		runs = append(runs, simulate.Labelled{Label: label, Result: after})
	}
	switch o.Format {
	case "json":
		err = simulateJSON(o.IO.Out, runs)
	case "svg", "png":
		if err := chart.CheckDeps(runs, o.Deps); err != nil {
			return usageErrorf("%v", err)
		}
		write := chart.SVG
		if o.Format == "png" {
			write = chart.PNG
		}
		err = write(o.IO.Out, runs, chart.Options{Show: o.Show, Deps: o.Deps})
	default:
		err = simulate.Text(o.IO.Out, runs, colorEnabled(o.Color, o.IO))
	}
	if err != nil {
		return err
	}
	if traceErr != nil {
		return fmt.Errorf("--trace: %w", traceErr)
	}
	return unread
}

// simulateErr makes a simulation's error a usage error (an unknown
// dependency, a window too long), except the event cap: exit 3.
func simulateErr(r *simulate.Result, err error) (*simulate.Result, error) {
	if err != nil && !errors.Is(err, simulate.ErrTooManyEvents) {
		// It lists dependencies, hosts read from workflows: escaped.
		return nil, usageErrorf("%s", report.Printable(err.Error()))
	}
	return r, err
}
