package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/report"
)

// End-to-end tests of the report flags: --format FMT=PATH, config,
// ignores, baselines, rule selection, fingerprints and redaction. Each test
// runs in its own folder, which is the working folder of the run.

// auditIn runs stormcheck with wd as the working folder.
func auditIn(t *testing.T, wd string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, &IO{
		In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(string) string { return "" },
		Getwd:  func() (string, error) { return wd, nil },
	})
	return result{code, out.String(), errb.String()}
}

// workspace copies files (testdata-relative source → workspace name) into
// a fresh folder and returns it.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type jsonReport struct {
	Summary  report.Summary `json:"summary"`
	Findings []struct {
		Rule        string `json:"rule"`
		File        string `json:"file"`
		Line        int    `json:"line"`
		Node        string `json:"node"`
		Message     string `json:"message"`
		Fingerprint string `json:"fingerprint"`
	} `json:"findings"`
}

func decodeReport(t *testing.T, s string) jsonReport {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("%v in:\n%s", err, s)
	}
	return r
}

func rulesOf(r jsonReport) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Rule+" "+f.Node)
	}
	return out
}

func TestAuditFormatsToFiles(t *testing.T) {
	wd := workspace(t, map[string]string{
		"flows/charge-card.json":    readExample(t, "charge-card.json"),
		"flows/error-summary.json":  readExample(t, "error-summary.json"),
		"flows/support-chat.json":   readExample(t, "support-chat-agent.json"),
		"flows/catalog-enrich.json": readExample(t, "catalog-enrichment.json"),
	})
	flows := filepath.Join(wd, "flows")
	r := auditIn(t, wd, "audit", "--fail-on", "never",
		"--format", "sarif=out/stormcheck.sarif", "--format", "github", "--format", "markdown=summary.md", "--format", "json=out/r.json", flows)
	if r.code != ExitOK || r.stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "::") {
		t.Errorf("stdout is not the github format:\n%s", r.stdout)
	}
	for _, f := range []struct{ format, path string }{{"sarif", "out/stormcheck.sarif"}, {"markdown", "summary.md"}, {"json", "out/r.json"}} {
		alone := auditIn(t, wd, "audit", "--fail-on", "never", "--format", f.format, flows)
		if got := readFile(t, filepath.Join(wd, f.path)); got != alone.stdout {
			t.Errorf("%s written to %s differs from --format %s on stdout", f.format, f.path, f.format)
		}
	}
	// SARIF URIs are relative to the working folder, with forward slashes.
	if sarif := readFile(t, filepath.Join(wd, "out/stormcheck.sarif")); !strings.Contains(sarif, `"uri": "flows/charge-card.json"`) {
		t.Errorf("SARIF has no repo-relative URI for flows/charge-card.json")
	}

	// The same run with the arguments in another order writes the same bytes.
	wd2 := wd + "-again"
	if err := os.Rename(wd, wd2); err != nil {
		t.Fatal(err)
	}
	defer os.Rename(wd2, wd)
	files, _ := filepath.Glob(filepath.Join(wd2, "flows", "*.json"))
	slices.Reverse(files)
	r2 := auditIn(t, wd2, append([]string{"audit", "--fail-on", "never", "--format", "json=out/r2.json", "--format", "markdown=summary2.md",
		"--format", "github", "--format", "sarif=out/stormcheck2.sarif"}, files...)...)
	if r2.stdout != r.stdout {
		t.Error("github output differs when the arguments come in another order")
	}
	for _, pair := range [][2]string{{"out/stormcheck.sarif", "out/stormcheck2.sarif"}, {"summary.md", "summary2.md"}, {"out/r.json", "out/r2.json"}} {
		if readFile(t, filepath.Join(wd2, pair[0])) != readFile(t, filepath.Join(wd2, pair[1])) {
			t.Errorf("%s and %s differ", pair[0], pair[1])
		}
	}
}

func TestAuditFormatUsage(t *testing.T) {
	wd := workspace(t, map[string]string{"a.json": readExample(t, "charge-card.json")})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "text", "--format", "json"}, "at most one format can go to stdout"},
		{[]string{"--format", "sarif="}, "--format sarif=: the path is empty"},
		{[]string{"--format", "yaml=x.yaml"}, `--format "yaml"`},
		{[]string{"--format", "json=x", "--format", "sarif=x"}, "--format: x is named twice"},
		{[]string{"--enable", "RS9*"}, `unknown rule "RS9*"`},
		{[]string{"--min-confidence", "sure"}, `--min-confidence "sure"`},
		{[]string{"--baseline", "missing.json"}, "--baseline missing.json: no such file; write one with --write-baseline missing.json"},
		{[]string{"--max-attempts", "abc"}, `--max-attempts "abc": want a whole number`},
		{[]string{"--max-attempt", "3"}, "unknown flag: --max-attempt; did you mean --max-attempts?"},
		{[]string{"--api-key-file", "key.txt"}, "--api-key-file is read only with --n8n-url"},
	} {
		r := auditIn(t, wd, append(append([]string{"audit"}, tt.args...), filepath.Join(wd, "a.json"))...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
}

func TestAuditConfigFile(t *testing.T) {
	wd := workspace(t, map[string]string{
		".stormcheck.yaml": "fail_on: note\nrules:\n  disable: [RS302]\n  severity:\n    RS306: error\n",
		"sub/a.json":       readExample(t, "support-chat-agent.json"),
	})
	sub := filepath.Join(wd, "sub")
	a := filepath.Join(sub, "a.json")

	// Found upward from the working folder: RS302 is off, RS306 is an error.
	r := auditIn(t, sub, "audit", "--format", "json", a)
	if r.code != ExitFindings {
		t.Fatalf("exit %d, want 1 (fail_on: note); stderr %s", r.code, r.stderr)
	}
	want := []string{"RS306 When chat message received"}
	if diff := cmp.Diff(want, rulesOf(decodeReport(t, r.stdout))); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.stdout, `"severity": "error"`) {
		t.Error("rules.severity did not make RS306 an error")
	}

	// Flags win over the config.
	r = auditIn(t, sub, "audit", "--format", "json", "--fail-on", "never", "--disable", "RS503", a)
	if r.code != ExitOK {
		t.Errorf("--fail-on never: exit %d", r.code)
	}
	want = []string{"RS306 When chat message received", "RS302 OpenAI Chat Model"}
	if diff := cmp.Diff(want, rulesOf(decodeReport(t, r.stdout))); diff != "" {
		t.Errorf("--disable replaces the config's list (-want +got):\n%s", diff)
	}

	// --config names another file; an unknown key is exit 2 with its line.
	bad := filepath.Join(wd, "bad.yaml")
	if err := os.WriteFile(bad, []byte("items: 3\nfleet:\n  worker: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = auditIn(t, sub, "audit", "--config", bad, a)
	if r.code != ExitUsage || r.stderr != "stormcheck: "+bad+":3: unknown key \"worker\"; did you mean \"workers\"?\n" {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// ignoreWorkflow is support-chat-agent.json with directives in the notes
// of its model, which has no max-tokens bound (RS302).
func ignoreWorkflow(t *testing.T, notes string) string {
	t.Helper()
	src := readExample(t, "support-chat-agent.json")
	const anchor = `"name": "OpenAI Chat Model",`
	if !strings.Contains(src, anchor) {
		t.Fatalf("support-chat-agent.json has no %s", anchor)
	}
	return strings.Replace(src, anchor, anchor+"\n      \"notes\": "+strconv.Quote(notes)+",", 1)
}

func TestAuditIgnores(t *testing.T) {
	wd := workspace(t, map[string]string{
		"a.json": ignoreWorkflow(t, "stormcheck:ignore RS302 -- the provider caps output for this key\nstormcheck:ignore RS201 -- stale"),
		".stormcheck.yaml": `ignore:
  - rule: RS306
    path: "*.json"
    reason: the chat sits behind the shop's login
  - rule: RS503
    reason: gate coming in Q3
    expires: 2020-01-31
`,
	})
	a := filepath.Join(wd, "a.json")
	r := auditIn(t, wd, "audit", "--format", "json", "--fail-on", "never", a)
	rep := decodeReport(t, r.stdout)
	want := []string{"RS006 ", "RS006 OpenAI Chat Model"}
	if diff := cmp.Diff(want, rulesOf(rep)); diff != "" {
		t.Errorf("findings (-want +got):\n%s\nstderr: %s", diff, r.stderr)
	}
	if rep.Summary.Ignored != 2 {
		t.Errorf("summary ignored = %d, want 2 (RS302 by notes, RS306 by config; the expired entry ignores nothing)", rep.Summary.Ignored)
	}
	for _, f := range rep.Findings {
		if f.Rule == "RS006" && f.Node == "" && (f.File != ".stormcheck.yaml" || f.Line != 5 ||
			f.Message != `ignore entry expired on 2020-01-31 and no longer suppresses anything (reason was "gate coming in Q3")`) {
			t.Errorf("expired entry: %s:%d %s", f.File, f.Line, f.Message)
		}
	}
	text := auditIn(t, wd, "audit", "--fail-on", "never", a).stdout
	if !strings.Contains(text, "; 2 ignored\n") {
		t.Errorf("text summary does not count ignored findings:\n%s", text)
	}

	// --no-ignores: everything comes back, no RS006.
	r = auditIn(t, wd, "audit", "--format", "json", "--fail-on", "never", "--no-ignores", a)
	want = []string{"RS306 When chat message received", "RS302 OpenAI Chat Model"}
	if diff := cmp.Diff(want, rulesOf(decodeReport(t, r.stdout))); diff != "" {
		t.Errorf("--no-ignores findings (-want +got):\n%s", diff)
	}
}

// chargePair is a caller and its callee: RS101, RS104, RS201 and RS503 fire
// on the callee's "Create charge", and RS104 folds into RS101.
func chargePair(t *testing.T) (wd, callee, caller string) {
	wd = workspace(t, map[string]string{
		"a.json": readExample(t, "charge-card.json"), "b.json": readExample(t, "checkout-charge-order.json"),
	})
	return wd, filepath.Join(wd, "a.json"), filepath.Join(wd, "b.json")
}

func TestAuditBaseline(t *testing.T) {
	wd, a, b := chargePair(t)
	r := auditIn(t, wd, "audit", "--write-baseline", "base.json", a, b)
	if r.code != ExitOK || !strings.Contains(r.stdout, "no findings") || !strings.Contains(r.stdout, "3 in baseline") {
		t.Fatalf("--write-baseline: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var base struct {
		Version  int `json:"version"`
		Findings []struct {
			Fingerprint, Rule, File, Workflow, Node string
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(wd, "base.json"))), &base); err != nil {
		t.Fatal(err)
	}
	if base.Version != 1 || len(base.Findings) != 3 || !slices.IsSortedFunc(base.Findings, func(a, b struct{ Fingerprint, Rule, File, Workflow, Node string }) int {
		return strings.Compare(a.Fingerprint, b.Fingerprint)
	}) {
		t.Errorf("baseline: version %d, %d findings, sorted %v", base.Version, len(base.Findings), base.Findings)
	}
	if f := base.Findings[0]; f.File != "a.json" || f.Workflow == "" || f.Node == "" || f.Rule == "" {
		t.Errorf("baseline entry lacks what people read: %+v", f)
	}

	// With the baseline, only a new finding is reported.
	src := readExample(t, "charge-card.json")
	src = strings.Replace(src, `"name": "Create charge",`, `"name": "Create charge",`+"\n      \"notes\": \"stormcheck:ignore RS503\",", 1)
	if err := os.WriteFile(a, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r = auditIn(t, wd, "audit", "--format", "json", "--baseline", "base.json", a, b)
	rep := decodeReport(t, r.stdout)
	if diff := cmp.Diff([]string{"RS006 Create charge"}, rulesOf(rep)); diff != "" {
		t.Errorf("new findings (-want +got):\n%s", diff)
	}
	if rep.Summary.Baselined != 3 || r.code != ExitOK {
		t.Errorf("baselined %d, exit %d; want 3, 0", rep.Summary.Baselined, r.code)
	}
}

func TestAuditRuleSelection(t *testing.T) {
	wd, a, b := chargePair(t)
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"--enable", "RS1*"}, []string{"RS101 Create charge"}},
		{[]string{"--enable", "RS1*,-attempt-budget"}, []string{"RS104 Create charge"}},
		{[]string{"--enable", "all", "--disable", "RS1*", "--disable", "RS503"}, []string{"RS201 Create charge"}},
	} {
		r := auditIn(t, wd, append(append([]string{"audit", "--format", "json", "--fail-on", "never"}, tt.args...), a, b)...)
		if diff := cmp.Diff(tt.want, rulesOf(decodeReport(t, r.stdout))); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.args, diff)
		}
	}
	r := auditIn(t, wd, "audit", "--format", "json", "--fail-on", "never", "--min-confidence", "high", a, b)
	rep := decodeReport(t, r.stdout)
	if rep.Summary.BelowConfidence != 1 || len(rep.Findings) != 2 {
		t.Errorf("--min-confidence high: %d shown, %d below", len(rep.Findings), rep.Summary.BelowConfidence)
	}
}

var positionRE = regexp.MustCompile(`"position":\s*\[\s*(-?[\d.]+),\s*(-?[\d.]+)\s*\]`)

// TestFingerprintsIgnorePositions drags every node on the canvas and
// audits again: the fingerprints must not change.
func TestFingerprintsIgnorePositions(t *testing.T) {
	names := []string{"catalog-enrichment.json", "charge-card.json", "checkout-charge-order.json", "error-alert.json",
		"error-summary.json", "order-sync-careful.json", "support-chat-agent.json"}
	files := map[string]string{}
	moved := map[string]string{}
	for _, n := range names {
		src := readExample(t, n)
		files["a/"+n] = src
		moved["a/"+n] = positionRE.ReplaceAllStringFunc(src, func(m string) string {
			xy := positionRE.FindStringSubmatch(m)
			x, _ := strconv.ParseFloat(xy[1], 64)
			y, _ := strconv.ParseFloat(xy[2], 64)
			return `"position": [` + strconv.FormatFloat(x+1234, 'f', -1, 64) + `, ` + strconv.FormatFloat(y-567, 'f', -1, 64) + `]`
		})
		if moved["a/"+n] == src {
			t.Fatalf("%s: no position moved", n)
		}
	}
	fingerprints := func(files map[string]string) []string {
		wd := workspace(t, files)
		r := auditIn(t, wd, "audit", "--format", "json", "--fail-on", "never", filepath.Join(wd, "a"))
		var fps []string
		for _, f := range decodeReport(t, r.stdout).Findings {
			fps = append(fps, f.Rule+" "+f.Fingerprint)
		}
		slices.Sort(fps)
		return fps
	}
	before, after := fingerprints(files), fingerprints(moved)
	if len(before) < 10 {
		t.Fatalf("only %d findings; the test needs a busy input", len(before))
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("fingerprints changed when nodes moved (-before +after):\n%s", diff)
	}
}

// secretWorkflow holds a bearer token, an API-key header and credentials in
// the URL of a retried POST, on the line the findings point at.
const secretWorkflow = `{"id":"sec1","name":"Payments","nodes":[` +
	`{"name":"Every hour","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{}},` +
	`{"parameters":{"method":"POST","sendHeaders":true,"headerParameters":{"parameters":[` +
	`{"name":"Authorization","value":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIzNA"},` +
	`{"name":"X-API-Key","value":"k3y-Zq9Wx8Vy7Ut6"}]},` +
	`"url":"https://ops:Hunter2Hunter2@api.payments.example.com/v1/charges?api_key=Sk9Xq2Lm4Np7Rt1Vw3"},` +
	`"name":"Pay","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,0],"retryOnFail":true,"maxTries":5}],` +
	`"connections":{"Every hour":{"main":[[{"node":"Pay","type":"main","index":0}]]}}}`

const secretPretty = `{
  "id": "sec2",
  "name": "Payments pretty",
  "nodes": [
    {
      "parameters": {
        "method": "POST",
        "url": "https://ops:Hunter2Hunter2@api.payments.example.com/v1/charges?api_key=Sk9Xq2Lm4Np7Rt1Vw3",
        "sendHeaders": true,
        "headerParameters": {
          "parameters": [
            {
              "name": "Authorization",
              "value": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIzNA"
            },
            {
              "name": "X-API-Key",
              "value": "k3y-Zq9Wx8Vy7Ut6"
            }
          ]
        }
      },
      "name": "Pay", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0], "retryOnFail": true, "maxTries": 5
    }
  ],
  "connections": {}
}`

func TestSecretsInNoFormat(t *testing.T) {
	secrets := []string{"Hunter2Hunter2", "Sk9Xq2Lm4Np7Rt1Vw3", "k3y-Zq9Wx8Vy7Ut6", "eyJhbGciOiJIUzI1NiJ9", "c2lnbmF0dXJlMTIzNA"}
	wd := workspace(t, map[string]string{"compact.json": secretWorkflow, "pretty.json": secretPretty})
	args := []string{"audit", "--fail-on", "never", filepath.Join(wd, "compact.json"), filepath.Join(wd, "pretty.json")}
	var all strings.Builder
	for _, format := range report.Formats {
		r := auditIn(t, wd, append(args, "--format", format)...)
		if !strings.Contains(r.stdout, "Pay") {
			t.Errorf("%s: no finding on node Pay; the test needs one:\n%s", format, r.stdout)
		}
		all.WriteString(r.stdout)
	}
	r := auditIn(t, wd, append(args, "--format", "text", "--color", "always", "--write-baseline", "b.json")...)
	all.WriteString(r.stdout + readFile(t, filepath.Join(wd, "b.json")))
	for _, s := range secrets {
		if strings.Contains(all.String(), s) {
			t.Errorf("a report shows the secret %q", s)
		}
	}
	// The compact snippet shows the masked URL credentials near the node.
	text := auditIn(t, wd, append(args, "--format", "text")...).stdout
	if !strings.Contains(text, "api_key=******************") {
		t.Errorf("the compact snippet does not show the masked key:\n%s", text)
	}
}

// TestAuditExpiresUsesNow pins the clock used for expires dates.
func TestAuditExpiresUsesNow(t *testing.T) {
	opts := &AuditOptions{Now: func() time.Time { return time.Date(2026, 3, 1, 0, 0, 0, 0, time.FixedZone("x", 5*3600)) }}
	st, err := opts.settings(&Config{}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 2, 28, 19, 0, 0, 0, time.UTC); !st.Filter.Now.Equal(want) || st.Filter.Now.Location() != time.UTC {
		t.Errorf("filter clock = %v, want %v in UTC", st.Filter.Now, want)
	}
}

// TestAuditMinSeverity: --min-severity hides findings in every format and
// counts them in the summary; --fail-on still sees them.
func TestAuditMinSeverity(t *testing.T) {
	wd, a, b := chargePair(t)
	for _, format := range []string{"json", "concise", "sarif", "github", "markdown", "text"} {
		r := auditIn(t, wd, "audit", "--format", format, "--min-severity", "warning", "--fail-on", "note", a, b)
		if r.code != ExitFindings {
			t.Errorf("%s: exit %d, want %d: --fail-on counts the hidden note", format, r.code, ExitFindings)
		}
		hidden := "RS503"
		if format == "sarif" { // SARIF lists every rule; results name theirs by ruleId
			hidden = `"ruleId": "RS503"`
		}
		if strings.Contains(r.stdout, hidden) {
			t.Errorf("%s: the RS503 note is shown under --min-severity warning:\n%s", format, r.stdout)
		}
		if !strings.Contains(r.stdout, "RS201") || !strings.Contains(r.stdout, "RS101") {
			t.Errorf("%s: a warning or error is hidden:\n%s", format, r.stdout)
		}
	}
	r := auditIn(t, wd, "audit", "--format", "json", "--min-severity", "error", a, b)
	rep := decodeReport(t, r.stdout)
	if diff := cmp.Diff([]string{"RS201 Create charge"}, rulesOf(rep)); diff != "" || rep.Summary.BelowSeverity != 2 {
		t.Errorf("--min-severity error: below %d, findings (-want +got):\n%s", rep.Summary.BelowSeverity, diff)
	}
	r = auditIn(t, wd, "audit", "--format", "concise", "--min-severity", "error", a, b)
	if !strings.HasSuffix(r.stdout, "1 finding (1 error, 0 warnings, 0 notes) in 2 workflows (2 files, 5 nodes); 2 below --min-severity\n") { // the hidden RS101 warning is not counted fixable
		t.Errorf("concise summary:\n%s", r.stdout)
	}
	r = auditIn(t, wd, "audit", "--min-severity", "fatal", a)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--min-severity") {
		t.Errorf("--min-severity fatal: exit %d, stderr %q", r.code, r.stderr)
	}
}

// The markdown summary's worst operation is one the report shows: the
// self-restarting OpenAI call has no RS503 finding, so with only RS503
// enabled the worst shown is the charge its caller retries (15 attempts).
func TestMarkdownWorstOperationIsReported(t *testing.T) {
	r := run(t, "audit", "--format", "markdown", "--enable", "RS503", "../testdata/examples")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "### Worst operation: `Create charge` in Charge card\n") {
		t.Errorf("worst operation is not the charge:\n%s", r.stdout)
	}
}

// --min-severity hides findings from the report and from --fix: the
// fixable counts tell what --fix would repair of what is shown (a safe
// repair of a warning, an unsafe one of another warning, on the examples:
// none left under --min-severity error).
func TestFixableCountsFollowMinSeverity(t *testing.T) {
	all := decodeReport(t, run(t, "audit", "--format", "json", "../testdata/examples").stdout).Summary
	if all.Fixable != 1 || all.FixableUnsafe != 1 {
		t.Fatalf("the examples: fixable %d (+%d unsafe), want 1 (+1)", all.Fixable, all.FixableUnsafe)
	}
	r := run(t, "audit", "--format", "json", "--min-severity", "error", "../testdata/examples")
	got := decodeReport(t, r.stdout).Summary
	if got.Fixable != 0 || got.FixableUnsafe != 0 {
		t.Errorf("--min-severity error: fixable %d (+%d unsafe), want 0: the fixable findings are warnings", got.Fixable, got.FixableUnsafe)
	}
}
