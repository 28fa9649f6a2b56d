package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/internal/ruledoc"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
	"github.com/stormcheck/stormcheck/simulate"
)

// addTools registers the tools, each with its input schema (derived from
// its Go type, with the enums and bounds the command line checks) and its
// output schema.
func (s *server) addTools(srv *mcp.Server) error {
	// Every tool only reads, and reaches nothing outside the server.
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)}
	var errs []error
	tool := func(name, title, desc string, schema *jsonschema.Schema, err error) *mcp.Tool {
		errs = append(errs, err)
		return &mcp.Tool{Name: name, Title: title, Description: desc, InputSchema: schema, Annotations: readOnly}
	}
	auditSchema, err := inputSchema[AuditInput]()
	mcp.AddTool(srv, tool("audit", "Audit n8n workflows for retry storms",
		"Audit n8n workflow exports (JSON text, or files under the working folder) as `stormcheck audit` does: "+
			"worst-case attempts per call across every retry layer, unkeyed retried writes, unbounded paid calls. "+
			"Returns the findings (rule, severity, node, message, attempt chain, fix) and a summary of what to change first.",
		auditSchema, err), s.audit)
	fixSchema, err := inputSchema[FixInput]()
	mcp.AddTool(srv, tool("fix", "Repair n8n workflows",
		"Repair what stormcheck can prove, as `stormcheck audit --fix` does, in memory: the smallest byte edits "+
			"(indentation and key order stay). Safe repairs make one retry layer own each call; unsafe=true adds an "+
			"Idempotency-Key header, settings.executionTimeout and an output cap. Returns each changed workflow's JSON, "+
			"the unified diff and the findings left. Writes no file.",
		fixSchema, err), s.fix)
	explainSchema, err := inputSchema[ExplainInput]()
	mcp.AddTool(srv, tool("explain", "Explain a stormcheck rule",
		"A rule's documentation, as `stormcheck explain`: why it matters in n8n, an example workflow that fires, "+
			"the same workflow fixed, and what the fix tool does for it.",
		explainSchema, err), s.explain)
	simSchema, err := inputSchema[SimulateInput]()
	mcp.AddTool(srv, tool("simulate", "Simulate a dependency outage",
		"Replay an outage of a dependency (a provider like openai, or a host) through the workflows, as "+
			"`stormcheck simulate` does, and return the totals: attempts during and after the outage, peak attempts "+
			"per second, duplicate writes, paid calls and cost, and how long the backlog took to drain.",
		simSchema, err), s.simulate)
	graphSchema, err := inputSchema[GraphInput]()
	mcp.AddTool(srv, tool("graph", "Draw workflows with attempts per node",
		"Draw the workflows as a Mermaid flowchart, as `stormcheck graph` does: every node with its worst-case "+
			"attempts, the calls between workflows, nodes over the attempt budget and unbounded cycles highlighted.",
		graphSchema, err), s.graph)
	return errors.Join(errs...)
}

// inputSchema is T's schema with the enums and bounds of its fields.
func inputSchema[T any]() (*jsonschema.Schema, error) {
	sc, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	bound := func(name string, lo, hi float64) {
		if p := sc.Properties[name]; p != nil {
			p.Minimum, p.Maximum = &lo, &hi
		}
	}
	enum := func(name string, vals ...any) {
		if p := sc.Properties[name]; p != nil {
			p.Enum = vals
		}
	}
	enum("min_severity", "note", "warning", "error")
	enum("failure", "502", "timeout")
	for _, n := range []string{"workers", "concurrency", "max_attempts", "max_findings"} {
		bound(n, 0, engine.MaxCount) // 0: the default
	}
	bound("executions", 0, engine.MaxCount)
	bound("rate_per_min", 0, 1e6)
	bound("latency_ms", 0, float64(simulate.MaxWindow.Milliseconds()))
	bound("window_s", 0, simulate.MaxWindow.Seconds())
	if p := sc.Properties["outages"]; p != nil {
		one := 1
		p.MinItems = &one
	}
	return sc, nil
}

// ExplainInput is the explain tool's input.
type ExplainInput struct {
	Rule string `json:"rule" jsonschema:"a rule ID or name, like RS201 or retried-write-without-idempotency"`
}

// ExplainOutput is a rule's documentation.
type ExplainOutput struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Title        string   `json:"title"`
	Severity     string   `json:"severity"`
	Confidence   string   `json:"confidence"`
	FixSafety    string   `json:"fix_safety"`
	Tags         []string `json:"tags"`
	Why          string   `json:"why"`
	BadExample   string   `json:"bad_example" jsonschema:"a workflow on which the rule fires"`
	FixedExample string   `json:"fixed_example" jsonschema:"the same workflow fixed: the rule is silent"`
	Config       string   `json:"config,omitempty" jsonschema:"the .stormcheck.yaml both examples run with, if any"`
	Fix          string   `json:"fix"`
	FixDoc       string   `json:"fix_doc" jsonschema:"what the fix tool does for this rule"`
	HelpURI      string   `json:"help_uri"`
}

func (s *server) explain(_ context.Context, _ *mcp.CallToolRequest, in ExplainInput) (*mcp.CallToolResult, ExplainOutput, error) {
	r := engine.FindRule(in.Rule)
	if r == nil {
		return nil, ExplainOutput{}, fmt.Errorf("no rule %q: rules are named like RS201 or retried-write-without-idempotency (resources stormcheck://rules/ID list them)", report.Printable(in.Rule))
	}
	ex := r.Examples()
	out := ExplainOutput{
		ID: r.ID, Name: r.Name, Title: r.Title, Severity: r.Severity.String(), Confidence: r.Confidence.String(),
		FixSafety: r.FixSafety.String(), Tags: append([]string{}, r.Tags...), Why: strings.TrimSpace(r.Doc),
		BadExample: ex.Bad, FixedExample: ex.Good, Config: ex.Config,
		Fix: strings.TrimSpace(r.Fix), FixDoc: strings.TrimSpace(r.FixDoc), HelpURI: r.HelpURI(),
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: ruledoc.Markdown(r)}}}, out, nil
}

// addResources serves every rule's documentation, in Markdown, as the
// resource stormcheck://rules/ID.
func (s *server) addResources(srv *mcp.Server) {
	for _, r := range rules.All() {
		uri := "stormcheck://rules/" + r.ID
		doc := ruledoc.Markdown(r)
		srv.AddResource(&mcp.Resource{URI: uri, Name: r.ID, Title: r.ID + " " + r.Name + ": " + r.Title,
			Description: r.Title, MIMEType: "text/markdown", Size: int64(len(doc))},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: doc}}}, nil
			})
	}
}

// Outage is a dependency down from the start of the simulation.
type Outage struct {
	Dependency string  `json:"dependency" jsonschema:"a provider (openai) or a host (api.example.com), as the audit's operations name it"`
	Seconds    float64 `json:"seconds" jsonschema:"how long it is down, from 0 s"`
}

// SimulateInput is the simulate tool's input; zero values are the
// command line's defaults.
type SimulateInput struct {
	Inputs
	Outages     []Outage `json:"outages" jsonschema:"the dependencies down, each from 0 s"`
	Executions  int      `json:"executions,omitempty" jsonschema:"a backlog of N executions per entry workflow queued at 0 s"`
	RatePerMin  float64  `json:"rate_per_min,omitempty" jsonschema:"arrivals per minute per entry workflow (with neither, the triggers' schedules)"`
	Workers     int      `json:"workers,omitempty" jsonschema:"queue-mode workers (default: the config's, else 1)"`
	Concurrency int      `json:"concurrency,omitempty" jsonschema:"executions per worker (default: the config's, else 10)"`
	Failure     string   `json:"failure,omitempty" jsonschema:"how the dependency fails: 502 (default) or timeout"`
	LatencyMS   int      `json:"latency_ms,omitempty" jsonschema:"round trip of an answered call in ms (default 200)"`
	Seed        uint64   `json:"seed,omitempty" jsonschema:"seed of the SDK backoff's randomness (default 1)"`
	WindowS     float64  `json:"window_s,omitempty" jsonschema:"seconds simulated (default: the longest outage + 300)"`
}

// SimTotals sum a simulation.
type SimTotals struct {
	AttemptsDuring  int      `json:"attempts_during" jsonschema:"attempts sent while the dependency was down"`
	AttemptsAfter   int      `json:"attempts_after" jsonschema:"attempts sent after it recovered"`
	PeakPerSecond   int      `json:"peak_per_s" jsonschema:"the most attempts one dependency received in one second"`
	DuplicateWrites int      `json:"duplicate_writes"`
	PaidCalls       int      `json:"paid_calls"`
	CostUSD         *float64 `json:"cost_usd" jsonschema:"worst case billed; null when a paid call has no known price"`
	DrainS          *float64 `json:"drain_s" jsonschema:"seconds from recovery until the backlog drained; null when it did not in the window"`
	Arrived         int      `json:"executions_arrived"`
	Succeeded       int      `json:"executions_succeeded"`
	Failed          int      `json:"executions_failed"`
	StillQueued     int      `json:"still_queued"`
	WindowS         int      `json:"window_s"`
}

// SimDependency is what one dependency received.
type SimDependency struct {
	Name            string   `json:"name"`
	DownS           float64  `json:"down_s"`
	AttemptsDuring  int      `json:"attempts_during"`
	AttemptsAfter   int      `json:"attempts_after"`
	PeakPerSecond   int      `json:"peak_per_s"`
	PeakAtS         int      `json:"peak_at_s"`
	DuplicateWrites int      `json:"duplicate_writes"`
	PaidCalls       int      `json:"paid_calls"`
	CostUSD         *float64 `json:"cost_usd"`
}

// SimulateOutput is the simulation's totals, without its series.
type SimulateOutput struct {
	Summary      string          `json:"summary"`
	Totals       SimTotals       `json:"totals"`
	Dependencies []SimDependency `json:"dependencies"`
	Notes        []string        `json:"notes"`
}

// simConfig checks the input as `stormcheck simulate` checks its flags.
func simConfig(in SimulateInput, a analyze.Options) (simulate.Config, error) {
	c := simulate.Config{Executions: in.Executions, RatePerMin: in.RatePerMin, Workers: a.Workers, Concurrency: a.Concurrency,
		Latency: 200 * time.Millisecond, Failure: simulate.Fail502, Seed: 1, MaxEvents: simulate.DefaultMaxEvents}
	if in.Workers != 0 {
		c.Workers = in.Workers
	}
	if in.Concurrency != 0 {
		c.Concurrency = in.Concurrency
	}
	if in.LatencyMS != 0 {
		c.Latency = time.Duration(in.LatencyMS) * time.Millisecond
	}
	if in.Seed != 0 {
		c.Seed = in.Seed
	}
	if in.Failure != "" {
		c.Failure = simulate.Failure(in.Failure)
	}
	maxS := simulate.MaxWindow.Seconds()
	switch {
	case len(in.Outages) == 0:
		return c, errors.New("outages: give at least one, like {\"dependency\": \"openai\", \"seconds\": 90}")
	case in.Executions > 0 && in.RatePerMin > 0:
		return c, errors.New("rate_per_min and executions exclude each other")
	case in.Executions < 0 || in.Executions > engine.MaxCount:
		return c, fmt.Errorf("executions %d: want 0 to %d", in.Executions, engine.MaxCount)
	case in.RatePerMin < 0 || in.RatePerMin > 1e6 || math.IsNaN(in.RatePerMin):
		return c, fmt.Errorf("rate_per_min %v: want a positive number up to 1e6", in.RatePerMin)
	case c.Workers < 1 || c.Concurrency < 1 || c.Workers > engine.MaxCount || c.Concurrency > engine.MaxCount:
		return c, fmt.Errorf("workers %d, concurrency %d: want whole numbers from 1 to %d", c.Workers, c.Concurrency, engine.MaxCount)
	case in.LatencyMS < 0 || float64(in.LatencyMS) > maxS*1000:
		return c, fmt.Errorf("latency_ms %d: want 0 or more, under %v", in.LatencyMS, simulate.MaxWindow)
	case c.Failure != simulate.Fail502 && c.Failure != simulate.FailTimeout:
		return c, fmt.Errorf("failure %q: want 502 or timeout", report.Printable(in.Failure))
	case !(in.WindowS >= 0 && in.WindowS <= maxS):
		return c, fmt.Errorf("window_s %v: want 0 (the default) to %v", in.WindowS, maxS)
	}
	c.Window = time.Duration(in.WindowS * float64(time.Second))
	for i, o := range in.Outages {
		if strings.TrimSpace(o.Dependency) == "" || !(o.Seconds > 0 && o.Seconds <= maxS) {
			return c, fmt.Errorf("outages[%d]: want a dependency and seconds from more than 0 to %v", i, maxS)
		}
		c.Outages = append(c.Outages, simulate.Outage{Dependency: o.Dependency, Duration: time.Duration(o.Seconds * float64(time.Second))})
	}
	return c, nil
}

func (s *server) simulate(_ context.Context, _ *mcp.CallToolRequest, in SimulateInput) (*mcp.CallToolResult, SimulateOutput, error) {
	out, err := call(s, func() (SimulateOutput, error) {
		st, err := s.settings(Options{})
		if err != nil {
			return SimulateOutput{}, err
		}
		sc, err := simConfig(in, st.Analysis)
		if err != nil {
			return SimulateOutput{}, err
		}
		ins, err := s.inputs(in.Inputs)
		if err != nil {
			return SimulateOutput{}, err
		}
		files := engine.Parse(ins, s.reading())
		r, err := st.Simulate(files, sc)
		if errors.Is(err, engine.ErrNoWorkflow) {
			return SimulateOutput{}, noWorkflow(files)
		}
		if err != nil {
			return SimulateOutput{}, errors.New(report.Printable(report.Redact(err.Error())))
		}
		return simOutput(r), nil
	})
	return nil, out, err
}

func simOutput(r *simulate.Result) SimulateOutput {
	t := r.Totals
	out := SimulateOutput{
		Totals: SimTotals{AttemptsDuring: t.AttemptsDuring, AttemptsAfter: t.AttemptsAfter, DuplicateWrites: t.DuplicateWrites,
			PaidCalls: t.PaidCalls, CostUSD: t.CostUSD, DrainS: t.DrainS, Arrived: t.Arrived, Succeeded: t.Succeeded,
			Failed: t.Failed, StillQueued: t.StillQueued, WindowS: r.WindowS},
		Dependencies: []SimDependency{}, Notes: []string{},
	}
	for _, d := range r.Dependencies {
		out.Dependencies = append(out.Dependencies, SimDependency{Name: report.Redact(d.Name), DownS: d.DownS,
			AttemptsDuring: d.AttemptsDuring, AttemptsAfter: d.AttemptsAfter, PeakPerSecond: d.Peak, PeakAtS: d.PeakS,
			DuplicateWrites: d.DuplicateWrites, PaidCalls: d.PaidCalls, CostUSD: d.CostUSD})
		out.Totals.PeakPerSecond = max(out.Totals.PeakPerSecond, d.Peak)
	}
	for _, n := range r.Notes {
		out.Notes = append(out.Notes, report.Redact(n))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s during the outage and %s after it, at most %d a second on one dependency",
		count(t.AttemptsDuring, "attempt"), count(t.AttemptsAfter, "attempt"), out.Totals.PeakPerSecond)
	if t.DuplicateWrites > 0 {
		fmt.Fprintf(&b, "; %s", count(t.DuplicateWrites, "duplicate write"))
	}
	if t.CostUSD != nil && *t.CostUSD > 0 {
		fmt.Fprintf(&b, "; $%.2f billed", *t.CostUSD)
	}
	if t.DrainS != nil {
		fmt.Fprintf(&b, "; the backlog drained %.1f s after recovery.", *t.DrainS)
	} else {
		b.WriteString("; the backlog did not drain in the window.")
	}
	out.Summary = b.String()
	return out
}

// GraphInput is the graph tool's input.
type GraphInput struct {
	Inputs
	MaxAttempts int `json:"max_attempts,omitempty" jsonschema:"attempt budget: nodes over it are highlighted (default 10)"`
}

// GraphNode is one node that calls out, with its worst-case attempts.
type GraphNode struct {
	Workflow   string `json:"workflow"`
	Node       string `json:"node"`
	Type       string `json:"type"`
	Dependency string `json:"dependency"`
	Attempts   *int   `json:"attempts" jsonschema:"worst-case wire attempts per logical call; null when unbounded"`
}

// GraphOutput is the drawing, and the attempts it shows.
type GraphOutput struct {
	Mermaid string      `json:"mermaid"`
	Nodes   []GraphNode `json:"nodes"`
}

func (s *server) graph(_ context.Context, _ *mcp.CallToolRequest, in GraphInput) (*mcp.CallToolResult, GraphOutput, error) {
	out, err := call(s, func() (GraphOutput, error) {
		// As `stormcheck graph`: the default analysis with the budget.
		opts := analyze.DefaultOptions()
		if in.MaxAttempts != 0 {
			if in.MaxAttempts < 1 || in.MaxAttempts > engine.MaxCount {
				return GraphOutput{}, fmt.Errorf("max_attempts %d: want a whole number from 1 to %d", in.MaxAttempts, engine.MaxCount)
			}
			opts.MaxAttempts = in.MaxAttempts
		}
		ins, err := s.inputs(in.Inputs)
		if err != nil {
			return GraphOutput{}, err
		}
		files := engine.Parse(ins, s.reading())
		set := analyze.Build(files, opts)
		if len(set.Workflows) == 0 {
			return GraphOutput{}, noWorkflow(files)
		}
		var b bytes.Buffer
		if err := engine.Graph(&b, set, "mermaid"); err != nil {
			return GraphOutput{}, err
		}
		out := GraphOutput{Mermaid: b.String(), Nodes: []GraphNode{}}
		for _, op := range set.Operations {
			n := GraphNode{Workflow: report.Redact(op.Workflow.Label()), Node: report.Redact(op.Node.Name), Type: op.Type, Dependency: report.Redact(op.Dependency)}
			if !op.Unbounded {
				a := op.Attempts
				n.Attempts = &a
			}
			out.Nodes = append(out.Nodes, n)
		}
		return out, nil
	})
	return nil, out, err
}

// noWorkflow says why the inputs hold no workflow, as `stormcheck graph` does.
func noWorkflow(files []*n8nschema.File) error {
	if why := engine.WhyNoWorkflow(files); why != "" {
		return errors.New("no workflow found in " + why)
	}
	return engine.ErrNoWorkflow
}
