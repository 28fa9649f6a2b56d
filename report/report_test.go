package report

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The secrets of testdata/workflows/nightly.json; no report may show them.
var secrets = []string{"hunter2hunter2", "AbCdEf0123456789xyz", "tok_9f8e7d6c5b4a3f2e1d0c", "k3y-Zq9Wx8Vy7Ut6"}

// testRules stand in for package rules, which report must not import.
func testRules() []*analyze.Rule {
	mk := func(id, name, title string, sev analyze.Severity, conf analyze.Confidence, tags ...string) *analyze.Rule {
		return &analyze.Rule{
			ID: id, Name: name, Title: title, Severity: sev, Confidence: conf, Tags: tags,
			Doc: "Why " + name + " matters,\nwrapped over two lines.\n\nA second paragraph.",
			Fix: "Do the " + name + " fix",
			ReadExamples: func() analyze.Examples {
				return analyze.Examples{Bad: `{"bad": true}` + "\n", Good: `{"bad": false}` + "\n", Output: id + ".bad.json:1:1: fires\n"}
			},
			Run: func(*analyze.Pass) {},
		}
	}
	always := mk("RS010", "always-fails", "a node fails on every run that reaches it", analyze.Warning, analyze.High, "errors")
	always.FoldMore = func(key string, n int) string {
		return fmt.Sprintf("; %d more of the workflow's nodes call %q", n, key[strings.LastIndexByte(key, 0)+1:])
	}
	return []*analyze.Rule{
		mk("RS006", "unused-ignore", "ignore directive is malformed, unused or expired", analyze.Note, analyze.High, "input", "suppression"),
		always,
		mk("RS101", "attempt-budget", "worst-case attempts exceed the budget", analyze.Warning, analyze.High, "amplification"),
		mk("RS102", "self-trigger-loop", "a workflow can re-start itself", analyze.Error, analyze.High, "amplification", "loop"),
		mk("RS104", "nested-retries", "more than one layer retries the same operation", analyze.Warning, analyze.Medium, "amplification"),
		mk("RS201", "retried-write-without-idempotency", "a retried write carries no idempotency key", analyze.Error, analyze.Medium, "write"),
		mk("RS304", "paid-error-handler", "an error handler makes paid calls", analyze.Warning, analyze.Low, "spend"),
		mk("RS402", "silent-failure", "no failure signal", analyze.Warning, analyze.Medium, "observability"),
	}
}

// fixture parses the test workflows, builds findings as the rules would,
// and filters them (inline ignores, a baseline) the way audit does.
func fixture(t *testing.T) *Result {
	t.Helper()
	var files []*n8nschema.File
	for _, name := range []string{"workflows/error handlers/summarise.json", "workflows/nightly.json"} {
		src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, n8nschema.Parse(n8nschema.NewSource(name, src)))
	}
	// A hand-built set: the goldens pin the renderers, not the attempt model.
	set := &analyze.Set{Files: files, Options: analyze.DefaultOptions()}
	for _, f := range files {
		set.Workflows = append(set.Workflows, f.Workflows...)
	}
	rules := testRules()
	byID := map[string]*analyze.Rule{}
	for _, r := range rules {
		byID[r.ID] = r
	}
	wf := func(name string) *n8nschema.Workflow {
		for _, w := range set.Workflows {
			if w.Name == name {
				return w
			}
		}
		t.Fatalf("no workflow %q", name)
		return nil
	}
	factor := func(w *n8nschema.Workflow, kind, node string, v int) analyze.Factor {
		n := w.Node(node)
		return analyze.Factor{Kind: kind, Value: v, Unbounded: v == 0, Node: node, Workflow: w.Name, Pos: n.Pos, Source: w.Source}
	}
	finding := func(w *n8nschema.Workflow, node, id, msg string, chain ...analyze.Factor) analyze.Finding {
		r := byID[id]
		n := w.Node(node)
		f := analyze.Finding{
			RuleID: r.ID, RuleName: r.Name, RuleTitle: r.Title, URL: r.HelpURI(), Severity: r.Severity, Confidence: r.Confidence,
			File: w.Source.Name, Source: w.Source, Pos: n.Pos, Workflow: w.Name, WorkflowID: w.ID, Node: node,
			Message: msg, Fix: r.Fix, Detail: msg, Chain: chain,
		}
		f.Fingerprint = analyze.Fingerprint(&f)
		return f
	}
	nightly, errs := wf("Nightly enrichment"), wf("Summarise failures")
	openai := []analyze.Factor{factor(nightly, "node-retry", "OpenAI", 5), factor(nightly, "sdk-retry", "OpenAI Chat Model", 3)}
	selfTrigger := append(append([]analyze.Factor{}, openai...), factor(nightly, "self-trigger", "Restart", 0))
	set.Operations = []*analyze.Operation{
		{Workflow: errs, Node: errs.Node("Summarise"), Type: "@n8n/n8n-nodes-langchain.openAi", Dependency: "openai", Paid: true,
			Attempts: 3, CallsPerItem: 1, Factors: []analyze.Factor{factor(errs, "sdk-retry", "Summarise", 3)}},
		{Workflow: nightly, Node: nightly.Node("OpenAI"), Type: "@n8n/n8n-nodes-langchain.openAi", Dependency: "openai", Paid: true,
			Unbounded: true, CallsPerItem: 1, Factors: selfTrigger},
		{Workflow: nightly, Node: nightly.Node("Restart"), Type: "n8n-nodes-base.httpRequest", Dependency: "n8n.example.com", Write: true,
			Attempts: 1, CallsPerItem: 1},
	}
	restart := finding(nightly, "Restart", "RS102",
		`node "Restart" POSTs to "https://ops:hunter2hunter2@n8n.example.com/webhook/nightly?api_key=AbCdEf0123456789xyz", the webhook of its own workflow, with "Authorization: Bearer tok_9f8e7d6c5b4a3f2e1d0c"`,
		selfTrigger...)
	url, _ := nightly.Node("Restart").Param("url")
	restart.Pos = url.Pos()
	key, _ := nightly.Node("Restart").Param("headerParameters.parameters.1.value")
	write := finding(nightly, "Restart", "RS201", "the POST is retried by the self-trigger and sends no Idempotency-Key header")
	write.Pos = key.Pos()
	write.Repair = &analyze.Repair{Description: `Send Idempotency-Key on "Restart"`, Safety: analyze.Unsafe,
		Edits: []analyze.Edit{{Source: nightly.Source, Offset: key.ValuePos().Offset, Len: len(key.Raw()),
			Text:  `"={{ $execution.id }}-restart-{{ $itemIndex }}"`,
			Start: key.ValuePos(), End: nightly.Source.PosAt(key.ValuePos().Offset+len(key.Raw()), "")}}}
	restart.Related = []analyze.Related{{File: nightly.Source.Name, Pos: nightly.Node("Webhook").Pos, Message: `the webhook "nightly" it calls`}}
	// One shut-down model two nodes call: one finding, the other a
	// related place (analyze.Fold), the more severe one kept.
	retired := func(node string, sev analyze.Severity) analyze.Finding {
		f := finding(nightly, node, "RS010", fmt.Sprintf("node %q fails on every run that reaches it: it calls the model \"gpt-4-0314\", which OpenAI shut down", node))
		f.Severity, f.FoldKey = sev, "model\x00nightly\x00OpenAI\x00gpt-4-0314"
		return f
	}
	baselined := finding(errs, "Summarise", "RS304", `error workflow "Summarise failures" calls gpt-4o-mini once per failed execution`)
	findings := []analyze.Finding{
		restart,
		write,
		finding(nightly, "OpenAI", "RS101", "up to 15 attempts per logical operation; the budget is 10", openai...),
		finding(nightly, "OpenAI", "RS104", "node retries (5) and SDK retries (3) both retry the OpenAI call", openai...),
		finding(nightly, "Charge", "RS201", "a charge is retried without an idempotency key"),
		finding(nightly, "Webhook", "RS402", "no error workflow reports a failure of this webhook"),
		finding(errs, "Summarise", "RS104", "the error workflow's call retries 3 times inside the SDK", factor(errs, "sdk-retry", "Summarise", 3)),
		baselined,
		retired("OpenAI", analyze.Note),
		retired("OpenAI Chat Model", analyze.Warning),
	}
	analyze.SortFindings(findings)
	out := analyze.Filter(set, findings, analyze.FilterOptions{
		Rules: rules, Baseline: map[string]bool{baselined.Fingerprint: true},
		Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
	})
	res := wholeResult(set, out.Findings)
	res.Tool, res.Rules = Tool{Name: "stormcheck", Version: "v1.2.3"}, rules
	res.Summary = Summary{Files: 2, Workflows: 2, Nodes: 10, Ignored: out.Ignored, Baselined: out.Baselined, BelowConfidence: out.BelowConfidence}
	res.Summary.Count(out.Findings)
	return res
}

func TestFixtureCounts(t *testing.T) {
	res := fixture(t)
	want := Summary{Files: 2, Workflows: 2, Nodes: 10, Findings: 8, Errors: 2, Warnings: 4, Notes: 2, Ignored: 2, Baselined: 1, FixableUnsafe: 1}
	if diff := cmp.Diff(want, res.Summary); diff != "" {
		t.Errorf("summary mismatch (-want +got):\n%s", diff)
	}
}

var goldens = []struct {
	file   string
	format string
	opts   Options
}{
	{"golden.txt", "text", Options{}},
	{"golden.concise.txt", "concise", Options{}},
	{"golden.color.txt", "text", Options{Color: true, TTY: true}},
	{"golden.json", "json", Options{}},
	{"golden.sarif", "sarif", Options{}},
	{"golden.github.txt", "github", Options{}},
	{"golden.md", "markdown", Options{}},
}

func render(t *testing.T, format string, opts Options, res *Result) []byte {
	t.Helper()
	r, err := New(format, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Render(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	res := fixture(t)
	for _, g := range goldens {
		t.Run(g.file, func(t *testing.T) {
			got := render(t, g.format, g.opts, res)
			path := filepath.Join("testdata", g.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./report -update)", err)
			}
			if !bytes.Equal(want, got) {
				t.Errorf("%s differs from the golden; rerun with -update and review the diff:\n%s", g.format, lineDiff(string(want), string(got)))
			}
		})
	}
}

// lineDiff shows the first differing line, enough to find the change.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n- " + a + "\n+ " + b
		}
	}
	return ""
}

func TestNoSecretInAnyFormat(t *testing.T) {
	res := fixture(t)
	for _, g := range goldens {
		out := string(render(t, g.format, g.opts, res))
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s (%+v) shows the secret %q", g.format, g.opts, s)
			}
		}
	}
}

func TestTextPlainHasNoEscapes(t *testing.T) {
	out := render(t, "text", Options{}, fixture(t))
	if bytes.Contains(out, []byte("\x1b[")) {
		t.Error("text without colour holds ANSI escapes")
	}
	color := render(t, "text", Options{Color: true}, fixture(t))
	if !bytes.Contains(color, []byte("\x1b[")) {
		t.Error("text with colour holds no ANSI escapes")
	}
}

// TestMarkdownNoFindings: with nothing to report (here all baselined) the
// comment says so and shows no worst operation, though the set has one.
func TestMarkdownNoFindings(t *testing.T) {
	res := fixture(t)
	res.Findings = nil
	res.Summary.Count(nil)
	res.Summary.Baselined = 5
	got := string(render(t, "markdown", Options{}, res))
	want := "## stormcheck\n\nNo findings in 2 workflows (2 files, 10 nodes). Not shown: 2 ignored, 5 in the baseline.\n"
	if got != want {
		t.Errorf("markdown with no finding:\n%s\nwant:\n%s", got, want)
	}
}
