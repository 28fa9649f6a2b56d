package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnreadableStillReports: one input that cannot be read (here a
// symlink to nothing, met in a folder) is an RS001 finding in the report of
// the others, in every format, and the run then exits 3 naming it.
func TestUnreadableStillReports(t *testing.T) {
	dir := t.TempDir()
	copyTestdata(t, "broken_connection.json", filepath.Join(dir, "a.json"))
	if err := os.Symlink(filepath.Join(dir, "gone.json"), filepath.Join(dir, "b.json")); err != nil {
		t.Skipf("cannot make a symlink: %v", err)
	}
	const wantErr = "stormcheck: 1 input could not be read: "
	t.Run("concise", func(t *testing.T) {
		r := run(t, "audit", "--format", "concise", dir)
		if r.code != ExitFailure || !strings.HasPrefix(r.stderr, wantErr) || !strings.Contains(r.stderr, "b.json (broken symbolic link") {
			t.Fatalf("exit %d, stderr %q; want %d naming b.json", r.code, r.stderr, ExitFailure)
		}
		for _, want := range []string{
			"a.json:52:5: warning: connections name source node \"Send greeting\"",
			"b.json: error: not read: broken symbolic link: its target does not exist [RS001 invalid-json]",
			"2 findings (1 error, 1 warning, 0 notes) in 1 workflow (2 files, 2 nodes)",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("concise report lacks %q:\n%s", want, r.stdout)
			}
		}
	})
	t.Run("json", func(t *testing.T) {
		r := run(t, "audit", "--format", "json", dir)
		if r.code != ExitFailure || !strings.HasPrefix(r.stderr, wantErr) {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		got := strings.Join(jsonFindings(t, r.stdout), "\n")
		want := "a.json RS003 connections name source node \"Send greeting\", which does not exist\n" +
			"b.json RS001 not read: broken symbolic link: its target does not exist"
		if got != want {
			t.Errorf("findings:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("sarif_to_file", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out.sarif")
		r := run(t, "audit", "--format", "sarif="+out, dir)
		if r.code != ExitFailure || !strings.HasPrefix(r.stderr, wantErr) {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("no SARIF written: %v", err)
		}
		var doc struct {
			Runs []struct {
				Results []struct {
					RuleID    string `json:"ruleId"`
					Locations []struct {
						Physical struct {
							Artifact struct {
								URI string `json:"uri"`
							} `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("SARIF is not JSON: %v", err)
		}
		var got []string
		for _, res := range doc.Runs[0].Results {
			got = append(got, res.RuleID+" "+filepath.Base(res.Locations[0].Physical.Artifact.URI))
		}
		if strings.Join(got, ",") != "RS003 a.json,RS001 b.json" {
			t.Errorf("SARIF results %v; want RS003 on a.json and RS001 on b.json", got)
		}
	})
}

func copyTestdata(t *testing.T, name, to string) {
	t.Helper()
	b, err := os.ReadFile(td(name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// jsonFindings decodes a JSON report into "file rule message" lines.
func jsonFindings(t *testing.T, out string) []string {
	t.Helper()
	var doc struct {
		Findings []struct {
			File    string `json:"file"`
			RuleID  string `json:"rule"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out)
	}
	var lines []string
	for _, f := range doc.Findings {
		lines = append(lines, filepath.Base(f.File)+" "+f.RuleID+" "+f.Message)
	}
	return lines
}

// TestDuplicateNodesAuditsWhatN8nRuns: with two "nodes" members n8n
// (JSON.parse) runs the last; a harmless first copy must not hide its
// retried Stripe POST. Each repeated key is one RS001 finding at its last
// copy, a note here: the first copies hold nothing the last ones lack.
func TestDuplicateNodesAuditsWhatN8nRuns(t *testing.T) {
	p := filepath.Join(t.TempDir(), "dup.json")
	src := `{
  "name": "Stripe charge",
  "nodes": [{"name": "Start", "type": "n8n-nodes-base.manualTrigger", "parameters": {}}],
  "connections": {},
  "nodes": [
    {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "parameters": {}},
    {"name": "Charge", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "retryOnFail": true, "maxTries": 5,
     "parameters": {"method": "POST", "url": "https://api.stripe.com/v1/charges", "sendBody": true,
       "bodyParameters": {"parameters": [{"name": "amount", "value": "={{ $json.amount }}"}]}}}
  ],
  "connections": {"Start": {"main": [[{"node": "Charge", "type": "main", "index": 0}]]}}
}`
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "audit", "--format", "json", "--enable", "RS001,RS201", p)
	if r.code != ExitFindings {
		t.Fatalf("exit %d, want %d; stderr %q", r.code, ExitFindings, r.stderr)
	}
	got := strings.Join(jsonFindings(t, r.stdout), "\n")
	want := `dup.json RS001 key "nodes" appears again in the same object (first at 3:3); n8n (JSON.parse) keeps only this last copy; the earlier copy is empty or holds the same values, so nothing is lost
dup.json RS201 node "Charge" sends POST up to 5 times, with no idempotency key; an attempt that timed out may already have committed, and a duplicate is a second charge at api.stripe.com; each of its 5 tries re-sends every item of the batch
dup.json RS001 key "connections" appears again in the same object (first at 4:3); n8n (JSON.parse) keeps only this last copy; the earlier copy is empty or holds the same values, so nothing is lost`
	if got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
}

// TestDeepNestingIsAFinding: ten million "[" used to overflow the Go stack
// and kill the run (exit 2, no report for the good file). Now it is an
// RS001 error for that file, and the other file is still reported.
func TestDeepNestingIsAFinding(t *testing.T) {
	dir := t.TempDir()
	copyTestdata(t, "broken_connection.json", filepath.Join(dir, "a.json"))
	if err := os.WriteFile(filepath.Join(dir, "deep.json"), []byte(strings.Repeat("[", 10_000_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "audit", "--format", "json", dir)
	if r.code != ExitFindings {
		t.Fatalf("exit %d, want %d; stderr %q", r.code, ExitFindings, r.stderr)
	}
	got := strings.Join(jsonFindings(t, r.stdout), "\n")
	want := "a.json RS003 connections name source node \"Send greeting\", which does not exist\n" +
		"deep.json RS001 arrays and objects nest more than 512 levels deep here; the file is not audited"
	if got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
}
