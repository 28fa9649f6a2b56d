// Package cmd is stormcheck's command line: cobra commands, inputs (files,
// folders, globs, stdin), configuration and exit codes.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/internal/pool"
)

// Exit codes, the same for every format (docs/design.md#exit-codes).
const (
	ExitOK       = 0 // nothing at or above --fail-on
	ExitFindings = 1 // findings at or above --fail-on
	ExitUsage    = 2 // bad flag, argument or config; no workflow in the inputs
	ExitFailure  = 3 // I/O or internal error
)

// version is stamped by the release build (-ldflags -X).
var version = ""

// Version returns stormcheck's version: the stamped one, else the module
// version `go install …@vX` records, else "dev".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// longVersion is what --version and `stormcheck version` print: the
// version, then the commit it was built from and whether the checkout had
// changes, as `go build` records them from git (a release's stamped
// version says it already, but a source build says only "dev").
func longVersion() string {
	bi, _ := debug.ReadBuildInfo()
	v, rev := Version(), revision(bi)
	if bi != nil && v == bi.Main.Version {
		return v // a pseudo-version names the commit (and +dirty) already
	}
	return v + rev
}

// revision is " (commit abc123def456, modified)" from the build's VCS
// settings; "" when the build has none (go run, go test, -buildvcs=false).
func revision(bi *debug.BuildInfo) string {
	if bi == nil {
		return ""
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		return " (commit " + rev + ", modified)"
	}
	return " (commit " + rev + ")"
}

// IO is what a command reads and writes; tests supply their own.
type IO struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	Getenv func(string) string
	// OutIsTTY and ErrIsTTY say whether stdout/stderr are terminals.
	OutIsTTY bool
	ErrIsTTY bool
	// Getwd is the working folder inputs and config are relative to.
	Getwd func() (string, error)

	mu   sync.Mutex
	ends []func() // run when the command ends (atEnd)
}

// Main runs stormcheck with the process's stdin and environment.
func Main(args []string, stdout, stderr io.Writer) int {
	return Run(args, &IO{
		In: os.Stdin, Out: stdout, Err: stderr, Getenv: os.Getenv,
		OutIsTTY: isTerminal(stdout), ErrIsTTY: isTerminal(stderr), Getwd: os.Getwd,
	})
}

// usageError is a bad flag, argument or config: exit 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// usageWithHelp is a usage error followed by the line that says where help
// is ("Run 'stormcheck audit --help' for usage.").
func usageWithHelp(c *cobra.Command, err error) error {
	return &usageError{helpHint{err, c.CommandPath()}}
}

// helpHint is an error printed with a help line after it. The line is
// added when printing, not wrapped into the error's text.
type helpHint struct {
	err  error
	path string
}

func (e helpHint) Error() string { return fmt.Sprintf("%v\nRun '%s --help' for usage.", e.err, e.path) }
func (e helpHint) Unwrap() error { return e.err }

// findingsError says findings reached --fail-on: exit 1, nothing to print.
var errFindings = errors.New("findings at or above --fail-on")

// Run runs stormcheck with the given I/O and returns the exit code.
func Run(args []string, io *IO) (code int) {
	defer func() {
		if r := recover(); r != nil {
			stack := debug.Stack()
			if p, ok := r.(*pool.Panic); ok {
				stack = p.Stack // where the parser or rule panicked, on its worker
			}
			fmt.Fprintf(io.Err, "stormcheck: internal error: %v\n%s", r, stack)
			code = ExitFailure
		}
	}()
	defer io.end()
	root := newRootCmd(io)
	root.SetArgs(args)
	err := root.Execute()
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errFindings):
		return ExitFindings
	case errors.Is(err, errKept):
		fmt.Fprintf(io.Err, "stormcheck: %v\n", err)
		return ExitFindings
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(io.Err, "stormcheck: %v\n", err)
		return ExitUsage
	}
	// Several failures (inputs not read, files not written): one line each.
	for _, e := range joined(err) {
		fmt.Fprintf(io.Err, "stormcheck: %v\n", e)
	}
	return ExitFailure
}

// joined lists the errors errors.Join put together, at any depth; err
// alone when it joins none.
func joined(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var all []error
	for _, e := range j.Unwrap() {
		all = append(all, joined(e)...)
	}
	return all
}

func newRootCmd(io *IO) *cobra.Command {
	root := &cobra.Command{
		Use:   "stormcheck",
		Short: "Audit n8n workflows for retry storms",
		Long: `stormcheck audits exported n8n workflows. It builds the node graph and the call graph between
workflows, computes the worst-case wire attempts of every external call once node retries, SDK retries,
agent loops, sub-workflows, error workflows and self-triggers multiply, and reports what makes a retry
storm possible, each finding with its place in the JSON and a fix.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       longVersion(),
	}
	// stdout carries only reports; help and errors go to stderr, except help asked for.
	root.SetErr(io.Err)
	root.SetOut(io.Out)
	root.SetIn(io.In)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageWithHelp(c, flagError(c, err))
	})
	root.SetVersionTemplate("stormcheck {{.Version}}\n")
	root.AddCommand(
		newAuditCmd(io, nil),
		newRulesCmd(io),
		newGraphCmd(io),
		newExplainCmd(io),
		newSimulateCmd(io),
		newPullCmd(io),
		newMCPCmd(io),
		newVersionCmd(io),
	)
	// Runnable, so that an unknown subcommand reaches Args and is a usage
	// error instead of help with exit 0.
	root.Args = cobra.NoArgs
	root.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	argsAreUsage(root)
	addCompletions(root, io)
	return root
}

// argsAreUsage makes every argument-count error (unknown subcommand, extra
// arguments) a usage error, like flag errors: exit 2, not 3.
func argsAreUsage(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				return usageWithHelp(c, unknownCommand(c, args, err))
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		argsAreUsage(sub)
	}
}

func newVersionCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print stormcheck's version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(io.Out, "stormcheck %s\n", longVersion())
			return err
		},
	}
}
