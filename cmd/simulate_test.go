package cmd

import (
	"encoding/json"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateSimulate = flag.Bool("update-simulate", false, "rewrite the simulate golden files")

const seedExample = "../testdata/examples/catalog-enrichment.json"

func TestSimulateExitCodes(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		want      int
		stderrHas string
	}{
		{"no outage", []string{"simulate", seedExample}, ExitUsage, "simulate needs --outage"},
		{"no path", []string{"simulate", "--outage", "openai:1m"}, ExitUsage, "simulate needs at least one PATH"},
		{"bad outage", []string{"simulate", seedExample, "--outage", "openai"}, ExitUsage, `--outage "openai": want DEP:DURATION`},
		{"bad duration", []string{"simulate", seedExample, "--outage", "openai:soon"}, ExitUsage, `"soon" is not a positive duration`},
		{"unknown dependency", []string{"simulate", seedExample, "--outage", "stripe:1m"}, ExitUsage,
			`no operation calls "stripe"; the dependencies are: catalog.example.com, n8n.example.com, openai, status.example.com`},
		{"rate and executions", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "5/min", "--executions", "3"}, ExitUsage, "exclude each other"},
		{"bad rate", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "5/week"}, ExitUsage, `--rate "5/week"`},
		{"NaN rate", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "NaN/s"}, ExitUsage, `--rate "NaN/s": want a number from 1/day`},
		{"infinite rate", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "+Inf/min"}, ExitUsage, `--rate "+Inf/min"`},
		{"rate too small", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "1e-300/s"}, ExitUsage, `--rate "1e-300/s"`},
		{"rate under once a day", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "0.5/h"}, ExitOK, ""},
		{"rate too large", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "1e300/s"}, ExitUsage, `--rate "1e300/s"`},
		{"bad failure", []string{"simulate", seedExample, "--outage", "openai:1m", "--failure", "503"}, ExitUsage, `--failure "503"`},
		{"bad format", []string{"simulate", seedExample, "--outage", "openai:1m", "--format", "gif"}, ExitUsage, `--format "gif": want text, json, svg or png`},
		{"bad show", []string{"simulate", seedExample, "--outage", "openai:1m", "--format", "svg", "--show", "-1"}, ExitUsage, `--show -1: want 0 or more`},
		{"show without a chart", []string{"simulate", seedExample, "--outage", "openai:1m", "--show", "5"}, ExitUsage, "they go with --format svg or png"},
		{"unknown deps", []string{"simulate", seedExample, "--outage", "openai:1m", "--format", "svg", "--deps", "openai,stripe"}, ExitUsage,
			`--deps "stripe": no attempt reached it; the dependencies are: catalog.example.com, n8n.example.com, openai, status.example.com`},
		{"event cap", []string{"simulate", seedExample, "--outage", "openai:1m", "--executions", "100", "--max-events", "1000"}, ExitFailure,
			"too many events: the run passed 1000 events at t="},
		{"unsafe fixes without compare", []string{"simulate", seedExample, "--outage", "openai:1m", "--unsafe-fixes"}, ExitUsage, "--unsafe-fixes goes with --compare"},
		{"window too long", []string{"simulate", seedExample, "--outage", "openai:25h"}, ExitUsage, "longer than 24h0m0s"},
		{"only input unread", []string{"simulate", seedExample, "--outage", "openai:1m", "--max-file-size", "100"}, ExitFailure,
			"1 input could not be read: testdata/examples/catalog-enrichment.json (larger than --max-file-size (100 bytes))"},
		{"dependency in an unread input", []string{"simulate", seedExample, "../testdata/examples/charge-card.json", "--outage", "openai:1m", "--max-file-size", "3000"}, ExitFailure,
			`1 input could not be read: testdata/examples/catalog-enrichment.json (larger than --max-file-size (3000 bytes)); no operation calls "openai"`},
		{"no items", []string{"simulate", seedExample, "--outage", "openai:1m", "--items", "0"}, ExitUsage, "--items 0: want a whole number from 1 to"},
		{"ok", []string{"simulate", seedExample, "--outage", "openai:1m"}, ExitOK, ""},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			r := run(t, tt.args...)
			if r.code != tt.want {
				t.Errorf("exit %d, want %d\nstderr:\n%s", r.code, tt.want, r.stderr)
			}
			if tt.stderrHas == "" && r.stderr != "" || !strings.Contains(r.stderr, tt.stderrHas) {
				t.Errorf("stderr %q, want it to contain %q", r.stderr, tt.stderrHas)
			}
		})
	}
}

// The seed incident: OpenAI down for the whole window, the workflow
// re-starting itself through its own webhook after every failed batch.
func TestSimulateGolden(t *testing.T) {
	base := []string{"simulate", seedExample, "--outage", "openai:10m", "--window", "10m", "--seed", "7"}
	for _, format := range []string{"text", "json", "svg"} {
		t.Run(format, func(t *testing.T) {
			r := run(t, append(base, "--format", format)...)
			if r.code != ExitOK || r.stderr != "" {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			golden := filepath.Join("testdata", "simulate", "catalog."+format)
			if *updateSimulate {
				if err := os.WriteFile(golden, []byte(r.stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), r.stdout); diff != "" {
				t.Errorf("%s (-want +got):\n%s", golden, diff)
			}
			if again := run(t, append(base, "--format", format)...); again.stdout != r.stdout {
				t.Error("a second run with the same seed differs")
			}
		})
	}
	r := run(t, append(base, "--format", "json")...)
	var out struct {
		Restarts []struct {
			Node   string
			Count  int
			Active bool `json:"active_at_end"`
		}
		Notes []string
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Restarts) != 1 || out.Restarts[0].Node != "Restart from last batch" || !out.Restarts[0].Active || out.Restarts[0].Count != 28 {
		t.Errorf("restarts %+v", out.Restarts)
	}
	if len(out.Notes) == 0 || !strings.Contains(out.Notes[0], "still re-starting the workflow when the window ended") {
		t.Errorf("notes %q", out.Notes)
	}
}

// --compare replays the same outage after audit --fix: the checkout's
// Execute Workflow gives up its 3 tries around the charge's 5 (RS101, one
// retry owner), so 15 attempts per execution become 5.
func TestSimulateCompare(t *testing.T) {
	r := run(t, "simulate", "../testdata/examples/checkout-charge-order.json", "../testdata/examples/charge-card.json",
		"--outage", "api.payments.example.com:90s", "--executions", "3000", "--workers", "40", "--concurrency", "10",
		"--compare", "--format", "json")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var out struct {
		Runs []struct {
			Label        string
			Dependencies []struct {
				Name   string
				Peak   int `json:"peak_per_s"`
				During int `json:"attempts_during"`
				After  int `json:"attempts_after"`
			}
			Totals struct {
				Succeeded int `json:"executions_succeeded"`
				Failed    int `json:"executions_failed"`
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	type fig struct {
		label                          string
		peak, during, after, ok, fails int
	}
	var got []fig
	for _, run := range out.Runs {
		for _, d := range run.Dependencies {
			if d.Name == "api.payments.example.com" {
				got = append(got, fig{run.Label, d.Peak, d.During, d.After, run.Totals.Succeeded, run.Totals.Failed})
			}
		}
	}
	want := []fig{
		// 400 slots; an execution takes 19 s to fail (3 rounds of 5 tries
		// 1.2 s apart, 2 s between rounds): 4 batches fail (24,000
		// attempts), the fifth has sent 10 each (4,000) when the service
		// recovers at 90 s, and it and the 1,000 left succeed.
		{"as given", 1400, 28000, 1400, 1400, 1600},
		// 5 tries, 5 s per batch: all 3,000 fail within 40 s.
		{"after audit --fix (1 finding repaired in 1 file)", 400, 15000, 0, 0, 3000},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(fig{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The fleet comes from .stormcheck.yaml unless a flag says otherwise.
func TestSimulateReadsTheFleetFromConfig(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(seedExample)
	if err != nil {
		t.Fatal(err)
	}
	wf := filepath.Join(dir, "wf.json")
	if err := os.WriteFile(wf, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".stormcheck.yaml"), []byte("fleet:\n  workers: 3\n  concurrency: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "3 workers × 2 concurrency"},
		{[]string{"--workers", "5"}, "5 workers × 2 concurrency"},
	} {
		r := run(t, append([]string{"simulate", wf, "--outage", "openai:1m"}, tc.args...)...)
		if r.code != ExitOK || !strings.Contains(r.stdout, tc.want) {
			t.Errorf("%v: exit %d, want %q in:\n%s%s", tc.args, r.code, tc.want, r.stdout, r.stderr)
		}
	}
}

// TestSimulateEscapesDependencies: dependency names are hosts read from
// workflows; the list an unknown --outage prints shows them escaped.
func TestSimulateEscapesDependencies(t *testing.T) {
	host := "evil\u202e\u2060\u061c\u0085\x1b[31m.example.com"
	wf := map[string]any{"id": "h1", "name": "H", "connections": map[string]any{
		"Webhook": map[string]any{"main": []any{[]any{map[string]any{"node": "Call", "type": "main", "index": 0}}}}},
		"nodes": []any{
			map[string]any{"parameters": map[string]any{}, "name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": []int{0, 0}, "webhookId": "a1"},
			map[string]any{"parameters": map[string]any{"method": "POST", "url": "https://" + host + "/v1", "options": map[string]any{}},
				"name": "Call", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": []int{200, 0}, "retryOnFail": true, "maxTries": 3},
		}}
	b, err := json.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "wf.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "simulate", p, "--outage", "nope:1m")
	want := `the dependencies are: evil\u202e\u2060\u061c\u0085\x1b[31m.example.com`
	if r.code != ExitUsage || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, ExitUsage, want)
	}
}

// The compare chart: two columns, and sentences that say what the fixes
// change, from the results.
func TestSimulateCompareChart(t *testing.T) {
	pay := []string{"simulate", "../testdata/examples/checkout-charge-order.json", "../testdata/examples/charge-card.json",
		"--outage", "api.payments.example.com:90s", "--compare"}
	tests := []struct {
		name   string
		args   []string
		golden string
		want   []string
	}{
		{"payments backlog", append(pay, "--executions", "300", "--workers", "4", "--concurrency", "10"), "payments-compare.svg", []string{
			"With the fixes, api.payments.example.com receives 1,500 attempts instead of 2,940 (peak 40/s instead of 140/s).",
			"Fewer executions succeed with the fixes: 0 instead of 140, and 300 fail instead of 160. As given, retries outlasted the outage:",
		}},
		// Executions arrive steadily: those that give up free their slot
		// for the next, so the API sees more attempts while it is down.
		{"payments rate", append(pay, "--rate", "5/s"), "", []string{
			"receives more attempts during the outage with the fixes (888 instead of 700) because executions give up sooner and free their slots",
		}},
		// The examples' only fix is on another dependency than openai.
		{"seed incident", []string{"simulate", "../testdata/examples", "--outage", "openai:10m", "--window", "10m", "--compare"}, "", []string{
			"The fixes change nothing this outage reaches",
		}},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			r := run(t, append(tt.args, "--format", "svg")...)
			if r.code != ExitOK || r.stderr != "" {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			// Sentences are wrapped over lines: join the texts.
			text := regexp.MustCompile(`</text>\n<text[^>]*>`).ReplaceAllString(r.stdout, " ")
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("the chart does not say %q", w)
				}
			}
			if tt.golden == "" {
				return
			}
			golden := filepath.Join("testdata", "simulate", tt.golden)
			if *updateSimulate {
				if err := os.WriteFile(golden, []byte(r.stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), r.stdout); diff != "" {
				t.Errorf("%s (-want +got):\n%s", golden, diff)
			}
		})
	}
	r := runArgs(t, nil, true, "", append(tests[0].args, "--format", "png")...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "redirect it to a file") || r.stdout != "" {
		t.Errorf("png to a terminal: exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, append(tests[0].args, "--format", "png")...)
	if r.code != ExitOK {
		t.Fatalf("png: exit %d: %s", r.code, r.stderr)
	}
	if _, err := png.Decode(strings.NewReader(r.stdout)); err != nil {
		t.Errorf("png: %v", err)
	}
}

// TestReadmeChart: the README shows the seed incident's --compare PNG, and
// the command it gives draws a picture of that size (-update-simulate
// draws it again).
func TestReadmeChart(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const cmdLine = "stormcheck simulate testdata/examples --outage openai:10m --window 10m --compare --format png"
	text := strings.Join(strings.Fields(string(readme)), " ")
	if !strings.Contains(text, "`"+cmdLine+"`") || !strings.Contains(text, "(docs/simulate-compare.png)") {
		t.Fatalf("README does not show docs/simulate-compare.png with `%s`", cmdLine)
	}
	r := run(t, "simulate", "../testdata/examples", "--outage", "openai:10m", "--window", "10m", "--compare", "--format", "png")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	path := filepath.Join("..", "docs", "simulate-compare.png")
	if *updateSimulate {
		if err := os.WriteFile(path, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	committed, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := png.DecodeConfig(strings.NewReader(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if committed.Width != drawn.Width || committed.Height != drawn.Height {
		t.Errorf("docs/simulate-compare.png is %d × %d, the command draws %d × %d: go test ./cmd -run TestReadmeChart -update-simulate",
			committed.Width, committed.Height, drawn.Width, drawn.Height)
	}
}

// The seed incident as n8n 2.8.4 ran it (regular mode, no concurrency
// limit): with one product 12 executions in 240 s; with three, one restart
// per failed product, so executions 1, 3, 9, 27, 81 in 100 s.
func TestSimulateItemsMultiplyRestarts(t *testing.T) {
	for _, tc := range []struct {
		items, window string
		started       int
	}{
		{"1", "240s", 12},
		{"3", "100s", 121},
	} {
		r := run(t, "simulate", seedExample, "--outage", "openai:"+tc.window, "--window", tc.window,
			"--items", tc.items, "--concurrency", "1000", "--format", "json")
		if r.code != ExitOK {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		var out struct {
			Items  int
			Totals struct {
				Started int `json:"executions_started"`
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatal(err)
		}
		if out.Totals.Started != tc.started || strconv.Itoa(out.Items) != tc.items {
			t.Errorf("--items %s: %d executions started in %s (items %d), want %d", tc.items, out.Totals.Started, tc.window, out.Items, tc.started)
		}
	}
}

// --trace writes every attempt as a JSON line: the checkout's 3 tries
// around the charge's 5 are 15 attempts at the payment API.
func TestSimulateTrace(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "attempts.jsonl")
	r := run(t, "simulate", "../testdata/examples/checkout-charge-order.json", "../testdata/examples/charge-card.json",
		"--outage", "api.payments.example.com:10m", "--executions", "1", "--trace", trace)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var last struct {
		SentMS     int64  `json:"sent_ms"`
		Dependency string `json:"dependency"`
		Node       string `json:"node"`
		OK         *bool  `json:"ok"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 15 || last.Dependency != "api.payments.example.com" || last.OK == nil || *last.OK || last.SentMS <= 0 {
		t.Errorf("%d lines, last %+v", len(lines), last)
	}
	if r := run(t, "simulate", seedExample, "--outage", "openai:1m", "--compare", "--trace", trace); r.code != ExitUsage ||
		!strings.Contains(r.stderr, "--trace and --compare exclude each other") {
		t.Errorf("--trace with --compare: exit %d, %s", r.code, r.stderr)
	}
}

// The engine's own cases (testdata/engine, run in n8n 2.8.4 by
// scripts/e2e-oracle.sh): an Agent v3 whose tool fails ends the execution
// after the tool's 3 tries and 1 model call; a vector store drives its
// embeddings, 7 attempts.
func TestSimulateEngineCases(t *testing.T) {
	for _, tc := range []struct {
		file, outage           string
		failed, answered, exec int
	}{
		{"tool-agent-v3", "127.0.0.1:25690", 3, 1, 1},
		{"embeddings-vectorstore", "openai", 7, 0, 1},
	} {
		// As n8n 2.8.4 ran them.
		r := run(t, "simulate", "../testdata/engine/"+tc.file+".json", "--n8n-version", "2.8.4", "--outage", tc.outage+":1h", "--window", "10m", "--format", "json")
		if r.code != ExitOK {
			t.Fatalf("%s: exit %d: %s", tc.file, r.code, r.stderr)
		}
		var out struct {
			Dependencies []struct {
				Name   string
				Sent   []int
				Failed int `json:"failed_total"`
			}
			Totals struct {
				Failed int `json:"executions_failed"`
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatal(err)
		}
		sent, failed := 0, 0
		for _, d := range out.Dependencies {
			for _, n := range d.Sent {
				sent += n
			}
			failed += d.Failed
		}
		if failed != tc.failed || sent-failed != tc.answered || out.Totals.Failed != tc.exec {
			t.Errorf("%s: %d failed and %d answered attempts, %d failed executions; want %d, %d, %d",
				tc.file, failed, sent-failed, out.Totals.Failed, tc.failed, tc.answered, tc.exec)
		}
	}
}
