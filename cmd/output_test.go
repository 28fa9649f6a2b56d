package cmd

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/report"
)

// examples are the README's example workflows plus fixtures with findings.
func examples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example workflows (%v)", err)
	}
	return append(files, td("broken_connection.json"), td("trailing_garbage.json"), td("notes_only"))
}

// TestDeterminism audits the same inputs given in two orders: stdout must
// be byte-identical, in every format (text and json first of all).
func TestDeterminism(t *testing.T) {
	files := examples(t)
	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	for _, format := range report.Formats {
		t.Run(format, func(t *testing.T) {
			a := run(t, append([]string{"audit", "--fail-on", "never", "--format", format}, files...)...)
			b := run(t, append([]string{"audit", "--fail-on", "never", "--format", format}, reversed...)...)
			if a.code != ExitOK || b.code != ExitOK {
				t.Fatalf("exit %d and %d, stderr %q %q", a.code, b.code, a.stderr, b.stderr)
			}
			if a.stdout != b.stdout {
				t.Errorf("output depends on argument order:\n%s", cmp.Diff(a.stdout, b.stdout))
			}
			// And again: no map order or time in the output.
			if c := run(t, append([]string{"audit", "--fail-on", "never", "--format", format}, files...)...); c.stdout != a.stdout {
				t.Errorf("two runs differ:\n%s", cmp.Diff(a.stdout, c.stdout))
			}
		})
	}
}

// TestExplicitWinsOverWalked names a file both inside a walked folder and
// on its own: it is explicit (RS002 is an error) whatever the order.
func TestExplicitWinsOverWalked(t *testing.T) {
	dir, pkg := td("notes_only"), filepath.Join(td("notes_only"), "package.json")
	for _, args := range [][]string{{dir, pkg}, {pkg, dir}} {
		r := run(t, append([]string{"audit", "--root", ".", "--format", "json", "--fail-on", "never"}, args...)...)
		var doc struct {
			Findings []struct{ Rule, Severity, File string }
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%v: exit %d, stdout is not JSON: %v\n%s", args, r.code, err, r.stderr)
		}
		var got []string
		for _, f := range doc.Findings {
			if f.Rule == "RS002" {
				got = append(got, f.Severity+" "+f.File)
			}
		}
		if diff := cmp.Diff([]string{"error testdata/notes_only/package.json"}, got); diff != "" {
			t.Errorf("%v: RS002 findings (-want +got):\n%s", args, diff)
		}
	}
}

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// hasKeys fails when m lacks one of want (extra keys are allowed: v1 may
// grow fields).
func hasKeys(t *testing.T, what string, m map[string]any, want ...string) {
	t.Helper()
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("%s lacks %q (has %v)", what, k, keysOf(m))
		}
	}
}

// TestJSONv1 checks the fields docs/design.md#the-json-report promises in the JSON output.
func TestJSONv1(t *testing.T) {
	r := run(t, append([]string{"audit", "--root", ".", "--format", "json", "--fail-on", "never"}, examples(t)...)...)
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	hasKeys(t, "document", doc, "version", "tool", "summary", "workflows", "findings")
	if doc["version"] != float64(1) {
		t.Errorf("version = %v, want 1", doc["version"])
	}
	if tool, _ := doc["tool"].(map[string]any); tool["name"] != "stormcheck" || tool["version"] != "dev" {
		t.Errorf("tool = %v, want stormcheck dev", doc["tool"])
	}
	summary, _ := doc["summary"].(map[string]any)
	hasKeys(t, "summary", summary, "files", "workflows", "nodes", "findings", "errors", "warnings", "notes")

	wfs, ok := doc["workflows"].([]any)
	// 7 example workflows, broken_connection, trailing_garbage, notes_only/clean.
	if !ok || len(wfs) != 10 {
		t.Fatalf("workflows: %d, want 10", len(wfs))
	}
	if summary["workflows"] != float64(len(wfs)) {
		t.Errorf("summary.workflows = %v, want %d", summary["workflows"], len(wfs))
	}
	var ids []string
	for i, w := range wfs {
		m, _ := w.(map[string]any)
		hasKeys(t, "workflow", m, "file", "id", "name", "nodes", "max_attempts", "unbounded", "operations")
		if _, ok := m["operations"].([]any); !ok {
			t.Errorf("workflows[%d].operations = %v, want an array", i, m["operations"])
		}
		if _, ok := m["unbounded"].(bool); !ok {
			t.Errorf("workflows[%d].unbounded = %v, want a bool", i, m["unbounded"])
		}
		if ma := m["max_attempts"]; ma != nil {
			if _, ok := ma.(float64); !ok {
				t.Errorf("workflows[%d].max_attempts = %v, want a number or null", i, ma)
			}
		}
		ids = append(ids, m["id"].(string))
		for j, op := range m["operations"].([]any) {
			om, _ := op.(map[string]any)
			hasKeys(t, "operation", om, "node", "type", "dependency", "paid", "write", "attempts", "unbounded", "calls_per_item", "factors")
			if _, ok := om["factors"].([]any); !ok {
				t.Errorf("workflows[%d].operations[%d].factors = %v, want an array", i, j, om["factors"])
			}
		}
	}
	wantIDs := []string{
		// Sorted by file name: ../testdata/examples/* first, then testdata/*.
		"CtlgEnrich7Qx2Lp", "PayCallee2Rw6Nc1", "PayCaller8Hm3Tzq", "ErrNotify6Gp2Qsx", "ErrSummary4Kd9Vb",
		"OrderSyncSafe3Jw", "SupportAgent5Yt1",
		"cmdBroken0000001", "cmdNotesOnly0001", "cmdTrailing00001",
	}
	if diff := cmp.Diff(wantIDs, ids); diff != "" {
		t.Errorf("workflow ids (-want +got):\n%s", diff)
	}

	findings, ok := doc["findings"].([]any)
	if !ok || len(findings) == 0 {
		t.Fatalf("findings = %v, want a non-empty array", doc["findings"])
	}
	var rs00x []string
	for _, f := range findings {
		m, _ := f.(map[string]any)
		hasKeys(t, "finding", m, "rule", "name", "severity", "confidence", "file", "line", "column",
			"workflow", "workflow_id", "node", "message", "fix", "help_uri", "fingerprint")
		if rule, _ := m["rule"].(string); rule < "RS100" {
			rs00x = append(rs00x, rule+" "+m["severity"].(string)+" "+m["file"].(string))
		}
	}
	wantRS00x := []string{
		"RS003 warning testdata/broken_connection.json",
		"RS002 note testdata/notes_only/package.json",
		"RS001 error testdata/trailing_garbage.json",
	}
	if diff := cmp.Diff(wantRS00x, rs00x); diff != "" {
		t.Errorf("input findings (-want +got):\n%s", diff)
	}
}
