package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stormcheck/stormcheck/cmd"
	"github.com/stormcheck/stormcheck/mcpserver"
)

// The binary is built from main.go and cmd: importing cmd ties
// go test's cache to their sources, which the build below reads unseen.
var _ = cmd.Version

// These tests build the binary and speak MCP to `stormcheck mcp` over its
// stdin and stdout with the SDK's client, as an agent's MCP client does,
// and compare what the tools return with what the command line prints.

var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "stormcheck-mcp-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "stormcheck")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// examples is the folder of the example workflows, the seed incident among them.
const examples = "../testdata/examples"

// session starts `stormcheck mcp` in dir and connects to it. The server
// must exit cleanly when the client closes its stdin.
func session(t *testing.T, dir string, args ...string) (context.Context, *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	c := exec.CommandContext(ctx, bin, append([]string{"mcp"}, args...)...)
	c.Dir = dir
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	c.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "stormcheck-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: c}, nil)
	if err != nil {
		cancel()
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() {
		defer cancel()
		if err := cs.Close(); err != nil {
			t.Errorf("the server did not exit cleanly: %v", err)
		}
		if b, _ := os.ReadFile(stderr.Name()); len(b) > 0 {
			t.Errorf("the server wrote to stderr:\n%s", b)
		}
	})
	return ctx, cs
}

// call calls a tool that must succeed and decodes its structured output.
func call(ctx context.Context, t *testing.T, cs *mcp.ClientSession, name string, args, out any) *mcp.CallToolResult {
	t.Helper()
	res := callRaw(ctx, t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, text(res))
	}
	if res.StructuredContent == nil {
		t.Fatalf("%s: no structured output", name)
	}
	// The client decodes structured output with numbers as strings; the
	// text content is the same JSON, as the server wrote it (explain's is
	// the rule's Markdown).
	b := []byte(text(res))
	if name == "explain" {
		b, _ = json.Marshal(res.StructuredContent)
		b = bytes.ReplaceAll(b, []byte(`"tags":null`), []byte(`"tags":[]`))
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func callRaw(ctx context.Context, t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// cli runs the binary in dir and returns its stdout.
func cli(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	c := exec.Command(bin, args...)
	c.Dir = dir
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil && c.ProcessState.ExitCode() > 1 {
		t.Fatalf("stormcheck %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// place is what identifies a finding in both outputs.
type place struct {
	Rule, File string
	Line       int
	Node       string
	Message    string
}

func placesOf(fs []mcpserver.Finding) []place {
	out := []place{}
	for _, f := range fs {
		out = append(out, place{f.Rule, f.File, f.Line, f.Node, f.Message})
	}
	return out
}

// cliFindings runs audit --format json and returns its findings.
func cliFindings(t *testing.T, dir string, args ...string) []place {
	t.Helper()
	out := cli(t, dir, append([]string{"audit", "--format", "json", "--fail-on", "never", "--root", "."}, args...)...)
	var doc struct {
		Findings []struct {
			mcpserver.Finding
			Repair json.RawMessage `json:"repair"` // the CLI's is an object, the tool's its safety
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var fs []mcpserver.Finding
	for _, f := range doc.Findings {
		fs = append(fs, f.Finding)
	}
	return placesOf(fs)
}

// workflowsOf reads files of dir as workflows sent as text, named as the
// command line names them from dir.
func workflowsOf(t *testing.T, dir string, names ...string) []mcpserver.Workflow {
	t.Helper()
	var out []mcpserver.Workflow
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, mcpserver.Workflow{Name: n, JSON: string(b)})
	}
	return out
}

// copyDir copies the example workflows into a fresh folder.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	dir := t.TempDir()
	ents, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func jsonNames(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no workflows in %s: %v", dir, err)
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m
}

func TestToolsAndResources(t *testing.T) {
	ctx, cs := session(t, t.TempDir())
	if got := cs.InitializeResult().ServerInfo.Name; got != "stormcheck" {
		t.Errorf("server name %q", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s: want an input and an output schema", tool.Name)
		}
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: not marked read-only", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"audit", "explain", "fix", "graph", "simulate"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	rs, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	rules := cli(t, ".", "rules", "--format", "json")
	var listed struct {
		Rules []struct {
			ID string `json:"id"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(rules, &listed); err != nil || len(listed.Rules) == 0 {
		t.Fatalf("stormcheck rules --format json: %v", err)
	}
	if len(rs.Resources) != len(listed.Rules) {
		t.Errorf("%d resources, want one per rule (%d)", len(rs.Resources), len(listed.Rules))
	}
	doc, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "stormcheck://rules/RS102"})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile("../rules/examples/RS102.bad.json")
	if err != nil {
		t.Fatal(err)
	}
	if md := doc.Contents[0].Text; !strings.Contains(md, "`RS102`") || !strings.Contains(md, strings.TrimSpace(string(bad))) {
		t.Errorf("RS102's resource lacks its ID or its example:\n%s", md)
	}
}

// TestAuditSeedIncident: the seed incident sent as JSON text gets the
// findings the command line prints for the same files, RS102 and RS301
// among them, and a summary that names them.
func TestAuditSeedIncident(t *testing.T) {
	ctx, cs := session(t, t.TempDir())
	files := []string{"catalog-enrichment.json", "error-summary.json"}
	var out mcpserver.AuditOutput
	call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, examples, files...)}}, &out)
	got := placesOf(out.Findings)
	if diff := cmp.Diff(cliFindings(t, examples, files...), got); diff != "" {
		t.Errorf("the tool's findings differ from the command line's (-cli +tool):\n%s", diff)
	}
	rules := map[string]bool{}
	for _, f := range out.Findings {
		rules[f.Rule] = true
	}
	if !rules["RS102"] || !rules["RS301"] {
		t.Errorf("want RS102 and RS301, got %v", rules)
	}
	for _, id := range []string{"RS102", "RS301"} {
		if !strings.Contains(out.Summary, id) {
			t.Errorf("the summary does not name %s:\n%s", id, out.Summary)
		}
	}
	// The self-restart makes the others unbounded: it comes first.
	if !strings.Contains(out.Summary, "\n1. RS102 error at node \"Restart from last batch\"") {
		t.Errorf("the summary does not put the self-restart first:\n%s", out.Summary)
	}
	for _, f := range out.Findings {
		if f.Rule == "RS301" && len(f.Chain) == 0 {
			t.Errorf("RS301 has no attempt chain: %+v", f)
		}
	}

	// max_findings keeps those to change first, in report order; the
	// counts cover them all.
	all := len(out.Findings)
	call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, examples, files...)},
		Options: mcpserver.Options{MaxFindings: 2}}, &out)
	if len(out.Findings) != 2 || out.Findings[0].Rule != "RS301" || out.Findings[1].Rule != "RS102" || out.Counts.Findings != all ||
		!strings.Contains(out.Summary, fmt.Sprintf("the 2 to change first of %d", all)) {
		t.Errorf("max_findings 2: want RS301 and RS102 of %d, got %+v\n%s", all, placesOf(out.Findings), out.Summary)
	}

	// Options as on the command line.
	call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, examples, files...)},
		Options: mcpserver.Options{MinSeverity: "error", Rules: []string{"RS1*", "RS3*"}}}, &out)
	if diff := cmp.Diff(cliFindings(t, examples, append([]string{"--min-severity", "error", "--enable", "RS1*,RS3*"}, files...)...), placesOf(out.Findings)); diff != "" {
		t.Errorf("with options (-cli +tool):\n%s", diff)
	}
	if out.Counts.BelowSeverity == 0 {
		t.Errorf("findings below min_severity are not counted: %+v", out.Counts)
	}
	res := callRaw(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, examples, files...)},
		Options: mcpserver.Options{Rules: []string{"RS999"}}})
	if !res.IsError || !strings.Contains(text(res), "RS999") {
		t.Errorf("an unknown rule: want a tool error naming it, got %v %q", res.IsError, text(res))
	}

	// Files read from the working folder are named as the command line
	// names them, and the config there gives the defaults.
	dir := copyDir(t, examples)
	if err := os.WriteFile(filepath.Join(dir, ".stormcheck.yaml"), []byte("rules:\n  disable: [RS302]\n  severity: {RS501: error}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cs = session(t, dir)
	call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Paths: []string{"."}}}, &out)
	if diff := cmp.Diff(cliFindings(t, dir, "."), placesOf(out.Findings)); diff != "" {
		t.Errorf("the folder read by path (-cli +tool):\n%s", diff)
	}
	for _, f := range out.Findings {
		if f.Rule == "RS302" || (f.Rule == "RS501" && f.Severity != "error") {
			t.Errorf("the config is not applied: %+v", f)
		}
	}

	// A config elsewhere (--config): its ignore paths are relative to its
	// folder, as on the command line.
	top := t.TempDir()
	sub := filepath.Join(top, "sub")
	if err := os.Rename(dir, sub); err != nil {
		t.Fatal(err)
	}
	cfg := "ignore:\n  - rule: RS102\n    path: sub/catalog-enrichment.json\n    reason: resumed by hand\n"
	if err := os.WriteFile(filepath.Join(top, "ci.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cs = session(t, sub, "--config", "../ci.yaml")
	call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, sub, files...)}}, &out)
	if diff := cmp.Diff(cliFindings(t, sub, append([]string{"--config", "../ci.yaml"}, files...)...), placesOf(out.Findings)); diff != "" {
		t.Errorf("with a config elsewhere (-cli +tool):\n%s", diff)
	}
	if out.Counts.Ignored != 1 || slices.ContainsFunc(out.Findings, func(f mcpserver.Finding) bool { return f.Rule == "RS102" }) {
		t.Errorf("the ignore entry is not applied: %d ignored, %+v", out.Counts.Ignored, placesOf(out.Findings))
	}
}

// TestFixRoundTrip: fix returns, byte for byte, what audit --fix writes on
// a copy of the files, and auditing what it returns finds what the
// command line finds after --fix: the repaired findings are gone.
func TestFixRoundTrip(t *testing.T) {
	for _, unsafe := range []bool{false, true} {
		t.Run(fmt.Sprintf("unsafe=%v", unsafe), func(t *testing.T) {
			names := jsonNames(t, examples)
			dir := copyDir(t, examples)
			args := []string{"--fix", "."}
			if unsafe {
				args = append([]string{"--unsafe-fixes"}, args...)
			}
			before := cliFindings(t, dir, ".")
			after := cliFindings(t, dir, args...)

			ctx, cs := session(t, t.TempDir())
			var fx mcpserver.FixOutput
			call(ctx, t, cs, "fix", mcpserver.FixInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, examples, names...)}, Unsafe: unsafe}, &fx)
			var sent []mcpserver.Workflow
			changed := 0
			for _, f := range fx.Files {
				want, err := os.ReadFile(filepath.Join(dir, f.Name))
				if err != nil {
					t.Fatal(err)
				}
				orig, _ := os.ReadFile(filepath.Join(examples, f.Name))
				got := f.JSON
				if !f.Changed {
					got = string(orig)
				} else {
					changed++
				}
				if got != string(want) {
					t.Errorf("%s: the tool's repair differs from audit --fix's:\n%s", f.Name, cmp.Diff(string(want), got))
				}
				sent = append(sent, mcpserver.Workflow{Name: f.Name, JSON: got})
			}
			if changed == 0 || fx.Fixed == 0 || !strings.HasPrefix(fx.Diff, "--- a/") {
				t.Fatalf("nothing repaired (%d files, %d findings, diff %q): the examples have repairs", changed, fx.Fixed, fx.Diff)
			}
			if fx.Fixed != len(before)-len(after) {
				t.Errorf("fixed %d, the command line %d", fx.Fixed, len(before)-len(after))
			}
			if diff := cmp.Diff(after, placesOf(fx.Remaining)); diff != "" {
				t.Errorf("what fix says is left (-cli +tool):\n%s", diff)
			}
			var out mcpserver.AuditOutput
			call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflows: sent}}, &out)
			if diff := cmp.Diff(after, placesOf(out.Findings)); diff != "" {
				t.Errorf("auditing the repaired workflows (-cli after --fix +tool):\n%s", diff)
			}
		})
	}
}

// TestExplainSimulateGraph: explain, simulate and graph return what
// stormcheck explain, simulate and graph print.
func TestExplainSimulateGraph(t *testing.T) {
	ctx, cs := session(t, t.TempDir())
	var ex mcpserver.ExplainOutput
	res := call(ctx, t, cs, "explain", mcpserver.ExplainInput{Rule: "self-trigger-loop"}, &ex)
	bad, _ := os.ReadFile("../rules/examples/RS102.bad.json")
	good, _ := os.ReadFile("../rules/examples/RS102.good.json")
	if ex.ID != "RS102" || ex.BadExample != string(bad) || ex.FixedExample != string(good) || ex.Why == "" || ex.FixDoc == "" {
		t.Errorf("explain RS102: %+v", ex)
	}
	if !strings.Contains(text(res), "### Why") {
		t.Errorf("explain's text is not the rule's Markdown: %q", text(res))
	}
	if res := callRaw(ctx, t, cs, "explain", mcpserver.ExplainInput{Rule: "RS9\x1b[2J"}); !res.IsError || strings.Contains(text(res), "\x1b") {
		t.Errorf("an unknown rule: want a tool error without the control character, got %q", text(res))
	}

	files := []string{"catalog-enrichment.json", "error-summary.json"}
	var sim mcpserver.SimulateOutput
	call(ctx, t, cs, "simulate", mcpserver.SimulateInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, examples, files...)},
		Outages: []mcpserver.Outage{{Dependency: "openai", Seconds: 90}}, Executions: 20}, &sim)
	var want struct {
		Totals struct {
			AttemptsDuring  int      `json:"attempts_during"`
			AttemptsAfter   int      `json:"attempts_after"`
			DuplicateWrites int      `json:"duplicate_writes"`
			CostUSD         *float64 `json:"cost_usd"`
			DrainS          *float64 `json:"drain_s"`
		} `json:"totals"`
		Dependencies []struct {
			Peak int `json:"peak_per_s"`
		} `json:"dependencies"`
	}
	out := cli(t, examples, append([]string{"simulate", "--format", "json", "--outage", "openai:90s", "--executions", "20"}, files...)...)
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	peak := 0
	for _, d := range want.Dependencies {
		peak = max(peak, d.Peak)
	}
	got := sim.Totals
	if got.AttemptsDuring != want.Totals.AttemptsDuring || got.AttemptsAfter != want.Totals.AttemptsAfter ||
		got.DuplicateWrites != want.Totals.DuplicateWrites || got.PeakPerSecond != peak ||
		!cmp.Equal(got.CostUSD, want.Totals.CostUSD) || !cmp.Equal(got.DrainS, want.Totals.DrainS) {
		t.Errorf("simulate totals %+v, the command line's %+v (peak %d)", got, want.Totals, peak)
	}
	if got.AttemptsDuring == 0 {
		t.Errorf("no attempts during an outage of the seed incident's model")
	}
	if res := callRaw(ctx, t, cs, "simulate", mcpserver.SimulateInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, examples, files...)},
		Outages: []mcpserver.Outage{{Dependency: "openai", Seconds: 90}}, Executions: 5, RatePerMin: 5}); !res.IsError {
		t.Errorf("executions and rate_per_min together: want a tool error")
	}

	var g mcpserver.GraphOutput
	call(ctx, t, cs, "graph", mcpserver.GraphInput{Inputs: mcpserver.Inputs{Workflows: workflowsOf(t, examples, "catalog-enrichment.json")}}, &g)
	if wantG := cli(t, examples, "graph", "catalog-enrichment.json"); g.Mermaid != string(wantG) {
		t.Errorf("graph differs from the command line's:\n%s", cmp.Diff(string(wantG), g.Mermaid))
	}
	unbounded := false
	for _, n := range g.Nodes {
		unbounded = unbounded || (n.Node == "OpenAI" && n.Attempts == nil)
	}
	if !unbounded {
		t.Errorf("the seed incident's OpenAI node is not unbounded: %+v", g.Nodes)
	}
}

// TestMalformedRequests: lines that are no JSON-RPC message, and calls
// with bad arguments, get JSON-RPC errors or tool errors; the server
// answers the next request.
func TestMalformedRequests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Lines longer than a workflow of 1 KiB sent as text can be (about
	// 1 MiB) are refused.
	c := exec.CommandContext(ctx, bin, "mcp", "--max-file-size", "1KiB")
	c.Dir = t.TempDir()
	in, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{not json`,
		`[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`,
		`{"id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"audit","arguments":"a string"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"audit","arguments":{"workflow":7}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"audit","arguments":{"paths":["../../etc"]}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"no-such-tool","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"audit","arguments":{"workflow":"` + strings.Repeat("x", 2<<20) + `"}}}`,
		`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"audit","arguments":{"workflow":"{}","x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`,
	}
	go func() {
		for _, l := range lines {
			io.WriteString(in, l+"\n")
		}
	}()
	type reply struct {
		ID     json.RawMessage `json:"id"`
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	got := map[string]string{}
	sc := bufio.NewScanner(outPipe)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r reply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("a line that is no JSON-RPC message: %q", sc.Text())
		}
		what := "result"
		switch {
		case r.Error != nil:
			what = fmt.Sprintf("error %d", r.Error.Code)
		case r.Result != nil && r.Result.IsError:
			what = "tool error"
		}
		got[string(r.ID)] += what + ";"
		if string(r.ID) == "9" {
			break
		}
	}
	in.Close()
	if err := c.Wait(); err != nil {
		t.Errorf("the server did not exit cleanly: %v\n%s", err, stderr.String())
	}
	want := map[string]string{
		"1":    "result;",
		"null": "error -32700;error -32600;error -32600;error -32700;",
		"3":    "error -32600;",
		"4":    "tool error;", "5": "tool error;", "6": "tool error;",
		"7": "error -32602;", "8": "error -32601;", "9": "result;",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replies by request id (-want +got):\n%s", diff)
	}
}

// secretWorkflow holds a bearer token, an API-key header and credentials in
// the URL of a retried POST.
const secretWorkflow = `{"id":"sec1","name":"Payments","nodes":[` +
	`{"name":"Every hour","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{}},` +
	`{"parameters":{"method":"POST","sendHeaders":true,"headerParameters":{"parameters":[` +
	`{"name":"Authorization","value":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIzNA"},` +
	`{"name":"X-API-Key","value":"k3y-Zq9Wx8Vy7Ut6"}]},` +
	`"url":"https://ops:Hunter2Hunter2@api.payments.example.com/v1/charges?api_key=Sk9Xq2Lm4Np7Rt1Vw3"},` +
	`"name":"Pay","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,0],"retryOnFail":true,"maxTries":5}],` +
	`"connections":{"Every hour":{"main":[[{"node":"Pay","type":"main","index":0}]]}}}`

var secrets = []string{"Hunter2Hunter2", "Sk9Xq2Lm4Np7Rt1Vw3", "k3y-Zq9Wx8Vy7Ut6", "eyJhbGciOiJIUzI1NiJ9", "c2lnbmF0dXJlMTIzNA"}

// TestHostileWorkflows: a workflow too large, nested too deep, not JSON,
// with control characters and secrets gets findings (or a tool error),
// never a crash, and no secret comes back but in the repaired workflow
// itself.
func TestHostileWorkflows(t *testing.T) {
	ctx, cs := session(t, t.TempDir(), "--max-file-size", "64KiB")
	huge := `{"name":"huge","nodes":[],"connections":{},"pad":"` + strings.Repeat("x", 70<<10) + `"}`
	deep := `{"name":"deep","nodes":[{"name":"n","type":"n8n-nodes-base.set","parameters":{"v":` +
		strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}],"connections":{}}`
	cases := []struct {
		name, json, rule, message string
	}{
		{"huge.json", huge, "RS001", "larger than --max-file-size (64 KiB)"},
		{"deep.json", deep, "RS001", "nest more than"},
		{"truncated.json", secretWorkflow[:200], "RS001", ""},
		{"not-a-workflow.json", `[1, 2, 3]`, "RS002", ""},
		{"control.json", "{\"name\":\"a\x00b\",\"nodes\":[]}", "RS001", ""},
	}
	for _, c := range cases {
		var out mcpserver.AuditOutput
		call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflows: []mcpserver.Workflow{{Name: c.name, JSON: c.json}}}}, &out)
		if len(out.Findings) != 1 || out.Findings[0].Rule != c.rule || !strings.Contains(out.Findings[0].Message, c.message) {
			t.Errorf("%s: want one %s finding saying %q, got %+v", c.name, c.rule, c.message, out.Findings)
		}
	}

	res := callRaw(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflow: secretWorkflow}})
	all, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var out mcpserver.AuditOutput
	call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflow: secretWorkflow}}, &out)
	if !slices.ContainsFunc(out.Findings, func(f mcpserver.Finding) bool { return f.Rule == "RS201" }) {
		t.Fatalf("the retried POST is not found: %+v", out.Findings)
	}
	for _, s := range secrets {
		if bytes.Contains(all, []byte(s)) {
			t.Errorf("audit's result holds the secret %q", s)
		}
	}

	// Names with control characters reach the findings as data (JSON
	// escapes them) and the summary escaped.
	forged := strings.ReplaceAll(secretWorkflow, `"Pay"`, `"Pay \u0007\u001b[2J\r\n::error::forged"`)
	call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Workflow: forged}}, &out)
	if !slices.ContainsFunc(out.Findings, func(f mcpserver.Finding) bool { return f.Node == "Pay \a\x1b[2J\r\n::error::forged" }) {
		t.Errorf("the node's name is not the workflow's: %+v", out.Findings)
	}
	if !strings.Contains(out.Summary, "RS201") || strings.ContainsAny(out.Summary, "\x00\x07\x1b\r") {
		t.Errorf("the summary does not name RS201 or holds a control character: %q", out.Summary)
	}

	// The diff shows the lines around a repair: a credential there is
	// redacted; the repaired workflow is the workflow as given.
	flows := workflowsOf(t, examples, "checkout-charge-order.json", "charge-card.json")
	const note = `"notes": "call with Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIzNA",`
	flows[0].JSON = strings.Replace(flows[0].JSON, `"name": "Charge order",`, note+`"name": "Charge order",`, 1)
	var fx mcpserver.FixOutput
	call(ctx, t, cs, "fix", mcpserver.FixInput{Inputs: mcpserver.Inputs{Workflows: flows}}, &fx)
	if fx.Fixed == 0 || !fx.Files[1].Changed || !strings.Contains(fx.Diff, "[REDACTED]") {
		t.Fatalf("want the repair with the note redacted in its diff: %+v", fx)
	}
	shown := fx.Diff + fx.Summary + strings.Join(fx.Notes, "")
	for _, f := range fx.Remaining {
		shown += f.Message + f.Fix + f.Node
	}
	for _, s := range secrets {
		if strings.Contains(shown, s) {
			t.Errorf("fix's diff, summary or findings hold the secret %q", s)
		}
	}
	if !strings.Contains(fx.Files[1].JSON, note) {
		t.Errorf("the repaired workflow lost its note: it must be the workflow as given, repaired")
	}
}

// TestPathsStayInTheWorkingFolder: paths outside the working folder, by
// "..", an absolute path or a symbolic link, are never read.
func TestPathsStayInTheWorkingFolder(t *testing.T) {
	outside := t.TempDir()
	marker := "OutsideWorkflowMarker"
	wf := `{"name":"` + marker + `","nodes":[],"connections":{}}`
	if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "link.json")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linked-dir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "flows", "a.json"), []byte(strings.Replace(wf, marker, "Inside", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cs := session(t, root)
	for _, p := range [][]string{{"../" + filepath.Base(outside) + "/secret.json"}, {filepath.Join(outside, "secret.json")}, {"linked-dir/secret.json"}, {"linked-dir"}, {"link.json"}} {
		res := callRaw(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Paths: p}})
		b, _ := json.Marshal(res)
		if !res.IsError || bytes.Contains(b, []byte(marker)) {
			t.Errorf("%v: want a tool error, not the file: %s", p, b)
		}
	}
	// A named pipe is refused, not waited on for a writer.
	if err := exec.Command("mkfifo", filepath.Join(root, "pipe.json")).Run(); err == nil {
		var out mcpserver.AuditOutput
		call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Paths: []string{"pipe.json"}}}, &out)
		if len(out.Findings) != 1 || out.Findings[0].Rule != "RS001" || !strings.Contains(out.Findings[0].Message, "not a regular file") {
			t.Errorf("a named pipe: %+v", out.Findings)
		}
		if err := os.Remove(filepath.Join(root, "pipe.json")); err != nil {
			t.Fatal(err)
		}
	}

	// Met in a folder walk, the link that leaves is an input that could
	// not be read (RS001), as an unreadable file on the command line.
	for _, p := range []string{".", "flows/../."} {
		var out mcpserver.AuditOutput
		call(ctx, t, cs, "audit", mcpserver.AuditInput{Inputs: mcpserver.Inputs{Paths: []string{p}}}, &out)
		b, _ := json.Marshal(out)
		if bytes.Contains(b, []byte(marker)) {
			t.Errorf("%s: the workflow outside was read: %s", p, b)
		}
		if !slices.ContainsFunc(out.Findings, func(f mcpserver.Finding) bool { return f.Rule == "RS001" && f.File == "link.json" }) {
			t.Errorf("%s: want an RS001 finding on link.json, got %+v", p, out.Findings)
		}
	}
}
