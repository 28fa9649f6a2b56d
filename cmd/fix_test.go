package cmd

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/schematest"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// copyTree copies the .json files below src into a new temporary folder
// (and a config with fix.max_tokens beside them), so --fix never writes to
// the repository or ../shared.
func copyTree(t *testing.T, src string) (dir, config string) {
	t.Helper()
	dir = t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dir, "wf", rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	config = filepath.Join(dir, "stormcheck.yaml")
	if err := os.WriteFile(config, []byte("fix:\n  max_tokens: 800\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "wf"), config
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = b
		}
		return nil
	})
	return out
}

type fixDoc struct {
	Summary struct {
		Findings int `json:"findings"`
		Fixed    int `json:"fixed"`
	} `json:"summary"`
	Findings []struct {
		Rule        string `json:"rule"`
		File        string `json:"file"`
		Workflow    string `json:"workflow"`
		WorkflowID  string `json:"workflow_id"`
		Node        string `json:"node"`
		Fingerprint string `json:"fingerprint"`
		Repair      *struct {
			Safety string `json:"safety"`
			Edits  []struct {
				File   string `json:"file"`
				Offset int    `json:"offset"`
				Length int    `json:"length"`
				Text   string `json:"text"`
			} `json:"edits"`
		} `json:"repair"`
	} `json:"findings"`
}

func decodeFix(t *testing.T, r result) fixDoc {
	t.Helper()
	var d fixDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("stdout is not JSON: %v\nstderr: %s", err, r.stderr)
	}
	return d
}

func TestFixRefusesAnInstance(t *testing.T) {
	r := run(t, "audit", "--fix", "--n8n-url", "http://127.0.0.1:1")
	// pull's own syntax: --n8n-url URL --out DIR
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--fix never writes to an n8n instance") ||
		!strings.Contains(r.stderr, "run 'stormcheck pull --n8n-url http://127.0.0.1:1 --out DIR', then 'stormcheck audit --fix DIR'") {
		t.Errorf("exit %d, stderr %q; want a usage error that says to pull first", r.code, r.stderr)
	}
	r = run(t, "audit", "--fix", "-", td("clean.json"))
	if r.code != ExitUsage || !strings.Contains(r.stderr, "stdin (-) only as the sole input") {
		t.Errorf("exit %d, stderr %q; want a usage error", r.code, r.stderr)
	}
}

func TestFixInPlace(t *testing.T) {
	dir, cfg := copyTree(t, filepath.Join("..", "testdata", "examples"))
	before := readTree(t, dir)
	// The JSON report names the repairs without applying them.
	plain := decodeFix(t, run(t, "audit", "--config", cfg, "--format", "json", "--fail-on", "never", dir))
	repairs := map[string]string{}
	for _, f := range plain.Findings {
		if f.Repair != nil {
			repairs[f.Rule+" "+f.Node] = f.Repair.Safety
		}
	}
	want := map[string]string{"RS101 Create charge": "safe", "RS302 OpenAI": "unsafe", "RS504 OpenAI": "unsafe",
		"RS302 Summarise failure": "unsafe", "RS302 OpenAI Chat Model": "unsafe"}
	for k, v := range want {
		if repairs[k] != v {
			t.Errorf("repair of %s: %q, want %q (all: %v)", k, repairs[k], v, repairs)
		}
	}

	// --diff writes nothing and exits 1.
	d := run(t, "audit", "--config", cfg, "--diff", dir)
	if d.code != ExitFindings || !strings.Contains(d.stdout, "-      \"retryOnFail\": true,\n+      \"retryOnFail\": false,\n") ||
		!strings.Contains(d.stderr, "would fix 1 finding in 1 file") {
		t.Errorf("--diff: exit %d\nstdout:\n%s\nstderr:\n%s", d.code, d.stdout, d.stderr)
	}
	if after := readTree(t, dir); !equalTrees(before, after) {
		t.Error("--diff wrote a file")
	}

	// --fix writes the safe repair; the report shows what is left.
	r := run(t, "audit", "--config", cfg, "--fix", "--fail-on", "never", dir)
	if r.code != ExitOK || !strings.Contains(r.stdout, "found 16 findings (1 fixed, 15 remaining: ") {
		t.Errorf("--fix: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	u := decodeFix(t, run(t, "audit", "--config", cfg, "--fix", "--unsafe-fixes", "--format", "json", "--fail-on", "never", dir))
	if u.Summary.Fixed != 4 || u.Summary.Findings != 11 {
		t.Errorf("--unsafe-fixes: %d fixed, %d left; want 4 and 11", u.Summary.Fixed, u.Summary.Findings)
	}
	for _, f := range u.Findings {
		if _, ok := want[f.Rule+" "+f.Node]; ok {
			t.Errorf("%s on %q is still reported after --fix --unsafe-fixes", f.Rule, f.Node)
		}
	}
	fixed := readTree(t, dir)
	for p, b := range fixed {
		if strings.HasSuffix(p, ".json") && !json.Valid(b) {
			t.Errorf("%s: invalid JSON after --fix", p)
		}
	}
	// A second --fix changes no byte.
	again := decodeFix(t, run(t, "audit", "--config", cfg, "--fix", "--unsafe-fixes", "--format", "json", "--fail-on", "never", dir))
	if again.Summary.Fixed != 0 || !equalTrees(fixed, readTree(t, dir)) {
		t.Errorf("a second --fix fixed %d and changed files", again.Summary.Fixed)
	}
}

func TestFixStdin(t *testing.T) {
	// ruff's convention: the fixed source goes to stdout, the report to stderr.
	src, err := os.ReadFile(filepath.Join("..", "fix", "testdata", "stripe_charge.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := runArgs(t, nil, false, string(src), "audit", "--fix", "--unsafe-fixes", "--fail-on", "never", "-")
	want := bytes.Replace(src, []byte(`      "parameters": {
        "method": "POST",`), []byte(`      "parameters": {
        "sendHeaders": true,
        "headerParameters": {
          "parameters": [
            {
              "name": "Idempotency-Key",
              "value": "={{ $json.order_id }}-create-charge"
            }
          ]
        },
        "method": "POST",`), 1)
	if r.code != ExitOK || r.stdout != string(want) {
		t.Errorf("exit %d; stdout is not the fixed workflow:\n%s", r.code, fix.Diff("stdin", want, []byte(r.stdout)))
	}
	if !strings.Contains(r.stderr, "(1 fixed, ") {
		t.Errorf("the report goes to stderr with the fixed count:\n%s", r.stderr)
	}
	// Without --fix, stdin is audited as before: the report on stdout.
	if r := runArgs(t, nil, false, string(src), "audit", "--fail-on", "never", "-"); !strings.Contains(r.stdout, "RS201") {
		t.Errorf("plain audit of stdin:\n%s", r.stdout)
	}
}

func equalTrees(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// writtenKey matches the members a repair writes or expands: a line --fix
// removes must hold one of them.
var writtenKey = regexp.MustCompile(`"(retryOnFail|maxTries|maxRetries|executionTimeout|settings|sendHeaders|headerParameters|parameters|options|maxTokens|maxTokensToSample|maxOutputTokens)"`)

// prefixedOnly reports a removed line that an added line of the diff
// holds again with "=" inserted after opening quotes only: RS012's repair
// begins string values with "=".
func prefixedOnly(removed string, lines []string) bool {
	was := removed[1:]
	for _, l := range lines {
		if !strings.HasPrefix(l, "+") || strings.HasPrefix(l, "+++") {
			continue
		}
		if now := l[1:]; len(now) > len(was) && strings.ReplaceAll(now, `"=`, `"`) == strings.ReplaceAll(was, `"=`, `"`) {
			return true
		}
	}
	return false
}

// TestCorpusFixRoundTrip runs --fix --unsafe-fixes on a temporary copy of
// the corpus: every finding with a repair is gone, no group of findings
// grows, every file stays valid JSON, the diff removes only lines of the
// members it changes, and a second run changes nothing.
func TestCorpusFixRoundTrip(t *testing.T) {
	real := sharedtest.Path(t, "corpus", "n8n-real")
	dir, cfg := copyTree(t, real)
	before := readTree(t, dir)
	args := []string{"audit", "--config", cfg, "--format", "json", "--fail-on", "never", dir}
	first := decodeFix(t, run(t, args...))
	r := run(t, append([]string{"audit", "--fix", "--unsafe-fixes"}, args[1:]...)...)
	if r.code != ExitOK {
		t.Fatalf("--fix: exit %d: %s", r.code, r.stderr)
	}
	after := decodeFix(t, r)
	if after.Summary.Fixed == 0 {
		t.Fatal("nothing fixed in the corpus")
	}
	// A finding is new when its fingerprint was not reported before and
	// its group (rule, file, workflow) grew: a finding folded across the
	// set keeps its fingerprint when a fix moves it to another file, and
	// RS505 moves to another node of its workflow.
	seen, left := map[string]bool{}, map[string]bool{}
	group := func(rule, file, wfID, wf string) string { return rule + "\x00" + file + "\x00" + wfID + "\x00" + wf }
	count := map[string]int{}
	for _, f := range first.Findings {
		seen[f.Rule+f.Fingerprint] = true
		count[group(f.Rule, f.File, f.WorkflowID, f.Workflow)]--
	}
	for _, f := range after.Findings {
		left[f.Rule+f.Fingerprint] = true
		count[group(f.Rule, f.File, f.WorkflowID, f.Workflow)]++
	}
	for _, f := range after.Findings {
		if g := group(f.Rule, f.File, f.WorkflowID, f.Workflow); !seen[f.Rule+f.Fingerprint] && count[g] > 0 {
			t.Errorf("a finding appeared after --fix: %s on %q in %s", f.Rule, f.Node, f.File)
		}
	}
	repaired := 0
	for _, f := range first.Findings {
		if f.Repair != nil {
			repaired++
			if left[f.Rule+f.Fingerprint] {
				t.Errorf("%s: %s on %q has a repair but is still reported", f.File, f.Rule, f.Node)
			}
		}
	}
	if after.Summary.Fixed < repaired {
		t.Errorf("%d fixed, fewer than the %d findings with a repair", after.Summary.Fixed, repaired)
	}
	now := readTree(t, dir)
	changed := 0
	for p, old := range before {
		b := now[p]
		if bytes.Equal(old, b) {
			continue
		}
		changed++
		var v any
		if err := json.Unmarshal(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), &v); err != nil {
			t.Errorf("%s: not valid JSON after --fix: %v", p, err)
		}
		if !bytes.Contains(old, []byte("\n")) && bytes.Contains(b, []byte("\n")) {
			t.Errorf("%s: a one-line file got more lines", p)
		}
		lines := strings.Split(fix.Diff(p, old, b), "\n")
		for _, l := range lines {
			if strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---") && !writtenKey.MatchString(l) && !prefixedOnly(l, lines) {
				t.Errorf("%s: --fix removed a line it did not mean to change: %.200q", p, l)
			}
		}
	}
	t.Logf("%d findings fixed in %d files (%d had a repair before)", after.Summary.Fixed, changed, repaired)
	again := decodeFix(t, run(t, append([]string{"audit", "--fix", "--unsafe-fixes"}, args[1:]...)...))
	if again.Summary.Fixed != 0 || !equalTrees(now, readTree(t, dir)) {
		t.Errorf("a second --fix fixed %d findings and changed files", again.Summary.Fixed)
	}
}

// TestReadmeDiffSample: the README's --diff sample on the seed example is
// what the command prints (the diff on stdout, the count on stderr).
func TestReadmeDiffSample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const cmdLine = "$ stormcheck audit --diff --unsafe-fixes testdata/examples/catalog-enrichment.json\n"
	_, sample, ok := strings.Cut(string(readme), cmdLine)
	if !ok {
		t.Fatal("README has no sample of " + cmdLine)
	}
	sample, _, _ = strings.Cut(sample, "```")
	r := run(t, "audit", "--diff", "--unsafe-fixes", filepath.Join("..", "testdata", "examples", "catalog-enrichment.json"))
	out := strings.ReplaceAll(r.stdout+r.stderr, "../testdata/", "testdata/")
	if r.code != ExitFindings || out != sample {
		t.Errorf("exit %d; README's --diff sample is not what the command prints; it prints:\n%s", r.code, out)
	}
}

// TestSARIFFixAcrossFiles: the repair of RS101 on "Create charge" turns off
// the retry of its caller, in another file; the SARIF fix says so, and the
// log validates against the SARIF 2.1.0 schema.
func TestSARIFFixAcrossFiles(t *testing.T) {
	r := run(t, "audit", "--root", "..", "--format", "sarif", "--fail-on", "never", filepath.Join("..", "testdata", "examples"))
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID     string `json:"ruleId"`
				Properties struct {
					Node string `json:"node"`
				} `json:"properties"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Fixes []struct {
					ArtifactChanges []struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Replacements []struct {
							DeletedRegion struct {
								StartLine  int `json:"startLine"`
								ByteLength int `json:"byteLength"`
							} `json:"deletedRegion"`
							InsertedContent struct {
								Text string `json:"text"`
							} `json:"insertedContent"`
						} `json:"replacements"`
					} `json:"artifactChanges"`
				} `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, res := range log.Runs[0].Results {
		if res.RuleID != "RS101" || res.Properties.Node != "Create charge" {
			continue
		}
		found = true
		if len(res.Fixes) != 1 || len(res.Fixes[0].ArtifactChanges) != 1 {
			t.Fatalf("fixes: %+v", res.Fixes)
		}
		ch := res.Fixes[0].ArtifactChanges[0]
		if at := res.Locations[0].PhysicalLocation.ArtifactLocation.URI; at != "testdata/examples/charge-card.json" {
			t.Errorf("the finding is in %s", at)
		}
		if ch.ArtifactLocation.URI != "testdata/examples/checkout-charge-order.json" || len(ch.Replacements) != 1 ||
			ch.Replacements[0].DeletedRegion.StartLine != 83 || ch.Replacements[0].DeletedRegion.ByteLength != 4 ||
			ch.Replacements[0].InsertedContent.Text != "false" {
			t.Errorf("artifact change: %+v", ch)
		}
	}
	if !found {
		t.Fatal("no RS101 on \"Create charge\"")
	}
	sch := schematest.Compile(t, sharedtest.Path(t, "reference", "sarif-schema-2.1.0.json"), false)
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the SARIF log does not validate: %v", err)
	}
}
