// Package mcpserver is `stormcheck mcp`: a Model Context Protocol server
// that lets an agent building n8n workflows audit, repair, explain,
// simulate and draw them before they ship. Each tool calls the engine as
// the command line does, with the same limits, escaping and redaction; no
// tool writes a file or reaches the network, and paths stay under the
// working folder.
package mcpserver

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stormcheck/stormcheck/engine"
)

// Config is what the server is started with.
type Config struct {
	// Root is the working folder: paths given to tools are read under
	// it and nowhere else.
	Root string
	// Options are the audit's defaults (the config file's settings);
	// a call's arguments go over them. ConfigDir is the config file's
	// folder, which its ignore paths are written against ("" for none).
	Options   engine.Options
	ConfigDir string
	// MaxFileSize bounds each workflow, sent as text or read from a file.
	MaxFileSize int64
	Version     string
}

// server holds what every tool reads.
type server struct {
	cfg  Config
	root *os.Root
	// mu runs one tool call at a time: each already uses every core
	// (internal/pool), and one at a time bounds the memory a client can
	// make the server hold.
	mu sync.Mutex
}

// New returns the MCP server with its tools and resources. The caller
// closes the returned closer (the working folder) when it is done.
func New(cfg Config) (*mcp.Server, func() error, error) {
	root, err := os.OpenRoot(cfg.Root)
	if err != nil {
		return nil, nil, err
	}
	if cfg.MaxFileSize <= 0 {
		cfg.MaxFileSize = engine.DefaultMaxFileSize
	}
	s := &server{cfg: cfg, root: root}
	srv := mcp.NewServer(&mcp.Implementation{Name: "stormcheck", Title: "stormcheck: retry storms in n8n workflows", Version: cfg.Version},
		&mcp.ServerOptions{Instructions: instructions})
	if err := s.addTools(srv); err != nil {
		root.Close()
		return nil, nil, err
	}
	s.addResources(srv)
	return srv, root.Close, nil
}

// Run serves MCP over the transport (stdio for `stormcheck mcp`) until the
// client closes it.
func Run(ctx context.Context, cfg Config, t mcp.Transport) error {
	srv, closeRoot, err := New(cfg)
	if err != nil {
		return err
	}
	defer closeRoot()
	return srv.Run(ctx, t)
}

const instructions = `stormcheck audits n8n workflow exports for retry storms: retries that multiply across node
retries, SDK retries, agent loops, sub-workflows and error workflows; writes repeated without an
idempotency key; paid calls with no bound. Before you ship a workflow, call audit with its JSON; apply
what fix returns (safe repairs change only retry settings; unsafe ones add headers, timeouts or caps,
ask for them with unsafe=true); explain a rule with explain; simulate an outage to show its cost.`

// call runs one tool call's work alone, and turns a panic into the
// call's error rather than the end of the server.
func call[Out any](s *server, work func() (Out, error)) (out Out, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			var zero Out
			out, err = zero, fmt.Errorf("stormcheck: internal error: %v (please report this)", r)
			debug.PrintStack() // to stderr, the client's log
		}
	}()
	return work()
}
