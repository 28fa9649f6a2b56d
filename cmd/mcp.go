package cmd

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/mcpserver"
)

// MCPOptions are the mcp command's flags.
type MCPOptions struct {
	IO          *IO
	Config      string
	MaxFileSize byteSize
}

func newMCPCmd(io *IO) *cobra.Command {
	o := &MCPOptions{IO: io, MaxFileSize: defaultMaxFileSize}
	c := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the audit to AI agents over the Model Context Protocol (stdio)",
		Long: `Serve stormcheck as a Model Context Protocol server on stdin and stdout, for agents that build n8n
workflows: tools audit, fix, explain, simulate and graph, and every rule's documentation as the resource
stormcheck://rules/ID. Workflows come as JSON text, or as files and folders under the working folder
(never outside it, not through symbolic links). No tool writes a file or reaches the network: fix returns
the repaired JSON. The settings of .stormcheck.yaml (found from the working folder upward, or --config)
are the defaults; a call's n8n_version, min_severity and rules go over them. See README.md.`,
		Example: `  stormcheck mcp
  claude mcp add stormcheck -- stormcheck mcp`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return runMCP(o, mcpserver.Stdio(io.In, io.Out, int64(o.MaxFileSize)))
		},
	}
	c.Flags().StringVar(&o.Config, "config", "", "config file (default: "+configName+" in the working folder or above, up to the repository root)")
	c.Flags().Var(&o.MaxFileSize, "max-file-size", "largest workflow read, sent as text or from a file; a larger one is an RS001 finding")
	return c
}

func runMCP(o *MCPOptions, t mcp.Transport) error {
	wd, err := o.IO.Getwd()
	if err != nil {
		return err
	}
	// The config's settings as audit reads them with no flags given.
	def := analyze.DefaultOptions()
	ao := &AuditOptions{Config: o.Config, MinConfidence: "low", MinSeverity: "note", MaxAttempts: def.MaxAttempts,
		Items: def.Items, Workers: def.Workers, Concurrency: def.Concurrency, Set: map[string]bool{}}
	n := engine.NewNamer(wd, "", "")
	cfg, err := ao.loadConfig(n, wd)
	if err != nil {
		return err
	}
	if cfg == nil {
		cfg = &Config{}
	}
	return mcpserver.Run(context.Background(), mcpserver.Config{
		Root: wd, Options: ao.engineOptions(cfg), ConfigDir: cfg.Dir, MaxFileSize: int64(o.MaxFileSize), Version: Version(),
	}, t)
}
