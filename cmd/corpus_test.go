package cmd

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// isWorkflow reports whether v has n8n's workflow shape: a nodes array and
// a connections object.
func isWorkflow(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, nodes := m["nodes"].([]any)
	_, conns := m["connections"].(map[string]any)
	return nodes && conns
}

// oddWorkflowCount counts the workflows in the odd/ files with
// encoding/json, independently of the parser: the first JSON value of each
// file (what precedes trailing garbage), a workflow object or an array of them.
func oddWorkflowCount(t *testing.T, odd string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(odd, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var v any
		if json.NewDecoder(bytes.NewReader(b)).Decode(&v) != nil {
			return nil // empty or invalid: no workflow
		}
		if arr, ok := v.([]any); ok {
			for _, e := range arr {
				if isWorkflow(e) {
					n++
				}
			}
		} else if isWorkflow(v) {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCorpusAudit is `stormcheck audit ../shared/corpus/n8n-real --format
// json --fail-on never`: it must exit 0 and report every workflow.
func TestCorpusAudit(t *testing.T) {
	real := sharedtest.Path(t, "corpus", "n8n-real")
	want := len(sharedtest.ManifestWorkflows(t)) + oddWorkflowCount(t, filepath.Join(real, "odd"))
	r := run(t, "audit", real, "--format", "json", "--fail-on", "never")
	if r.code != ExitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s", r.code, r.stderr)
	}
	if r.stderr != "" {
		t.Errorf("stderr should be empty:\n%.2000s", r.stderr)
	}
	var doc struct {
		Summary struct {
			Workflows int `json:"workflows"`
		} `json:"summary"`
		Workflows []json.RawMessage `json:"workflows"`
		Findings  []struct {
			Rule string `json:"rule"`
			File string `json:"file"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	if len(doc.Workflows) != want || doc.Summary.Workflows != want {
		t.Errorf("%d workflows (summary says %d), want %d: MANIFEST.tsv's workflows plus those in odd/",
			len(doc.Workflows), doc.Summary.Workflows, want)
	}
	// Every odd/ file gets an RS0xx finding.
	odd := map[string]bool{}
	for _, f := range doc.Findings {
		if strings.Contains(f.File, "/odd/") && f.Rule < "RS100" {
			odd[f.File] = true
		}
	}
	filepath.WalkDir(filepath.Join(real, "odd"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") && !odd[filepath.ToSlash(p)] {
			t.Errorf("%s: no RS0xx finding", p)
		}
		return nil
	})
}

// TestCorpusTextLength: on the real corpus the text report stays short, at
// most 4 lines per finding (blocks share the place, snippet and chain; each
// rule's fix is printed once), and concise is one line per finding plus the
// summary. A finding's own fix (RS010 names the node to repair and how) is
// one more line that repeats nothing, and is not counted against the 4.
func TestCorpusTextLength(t *testing.T) {
	real := sharedtest.Path(t, "corpus", "n8n-real")
	r := run(t, "audit", real, "--format", "json", "--fail-on", "never")
	var doc struct {
		Summary struct {
			Findings int `json:"findings"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	n := doc.Summary.Findings
	if n == 0 {
		t.Fatal("no findings in the corpus")
	}
	text := run(t, "audit", real, "--fail-on", "never")
	textLines := strings.Count(text.stdout, "\n") - strings.Count(text.stdout, "\n  = fix (")
	if textLines > 4*n {
		t.Errorf("text report: %d lines for %d findings (%.2f a finding), want at most 4", textLines, n, float64(textLines)/float64(n))
	}
	t.Logf("text report: %d lines for %d findings (%.2f a finding)", textLines, n, float64(textLines)/float64(n))
	concise := run(t, "audit", real, "--format", "concise", "--fail-on", "never")
	lines := strings.Split(strings.TrimSuffix(concise.stdout, "\n"), "\n")
	one := regexp.MustCompile(`^\S.*: (error|warning|note): .* \[RS\d{3} [a-z0-9-]+\]$`)
	for i, l := range lines[:min(n, len(lines))] {
		if !one.MatchString(l) {
			t.Fatalf("concise line %d is not one finding: %q", i+1, l)
		}
	}
	// Then the summary: the counts, and what --fix would repair.
	if len(lines) < n+1 || len(lines) > n+2 || !strings.HasPrefix(lines[n], strconv.Itoa(n)+" findings") {
		t.Errorf("concise report: %d lines for %d findings, want one a finding and the summary", len(lines), n)
	}
}
