package cmd

import (
	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
)

// GraphOptions are the graph command's flags.
type GraphOptions struct {
	IO          *IO
	Path        string
	Format      string
	MaxAttempts int
	MaxFileSize byteSize
	N8nVersion  string
}

func newGraphCmd(io *IO) *cobra.Command {
	opts := &GraphOptions{IO: io, MaxFileSize: defaultMaxFileSize}
	c := &cobra.Command{
		Use:   "graph FILE",
		Short: "Draw a workflow with its worst-case attempts per node",
		Long: `Draw the workflows of FILE as a Mermaid flowchart or a Graphviz digraph: every node, its
connections (AI sub-nodes dashed, error outputs labelled), the calls between workflows, and on each node
that calls out its worst-case attempts per logical operation. Nodes over --max-attempts are amber; nodes
on an unbounded cycle, and the edges of the cycle, are red. Paste the Mermaid text into a pull request, or
render the dot text with graphviz (dot -Tsvg).`,
		Example: `  stormcheck graph workflow.json
  stormcheck graph --format dot workflow.json | dot -Tsvg > workflow.svg`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("graph needs one FILE, got %d arguments\nRun 'stormcheck graph --help' for usage.", len(args))
			}
			opts.Path = args[0]
			if !oneOf(opts.Format, engine.GraphFormats...) {
				return usageErrorf("--format %q: want mermaid or dot", opts.Format)
			}
			if opts.MaxAttempts < 1 || opts.MaxAttempts > maxCount {
				return usageErrorf("--max-attempts %d: want a whole number from 1 to %d", opts.MaxAttempts, maxCount)
			}
			return runGraph(opts)
		},
	}
	c.Flags().StringVarP(&opts.Format, "format", "f", "mermaid", "output format: mermaid|dot")
	c.Flags().IntVar(&opts.MaxAttempts, "max-attempts", analyze.DefaultOptions().MaxAttempts, "attempt budget; nodes over it are highlighted")
	c.Flags().Var(&opts.MaxFileSize, "max-file-size", "largest file or stdin read")
	n8nVersionFlag(c.Flags(), &opts.N8nVersion)
	return c
}

func runGraph(o *GraphOptions) error {
	version, err := n8nVersion(o.N8nVersion, nil, o.IO.Err)
	if err != nil {
		return err
	}
	wd, err := o.IO.Getwd()
	if err != nil {
		return err
	}
	ins, err := collectInputs([]string{o.Path}, o.IO.In, engine.NewNamer(wd, "", ""), int64(o.MaxFileSize))
	if err != nil {
		return err
	}
	files, err := parseInputs(ins, int64(o.MaxFileSize), false)
	if err != nil {
		return err
	}
	opts := analyze.DefaultOptions()
	opts.MaxAttempts = o.MaxAttempts
	opts.N8nVersion = version
	set := analyze.Build(files, opts)
	if len(set.Workflows) == 0 {
		// Say why, as audit's RS001/RS002 finding would.
		if why := engine.WhyNoWorkflow(files); why != "" {
			return usageErrorf("no workflow found in %s", why)
		}
		return usageErrorf("no workflow found in %s", o.Path)
	}
	return engine.Graph(o.IO.Out, set, o.Format)
}
