package rules_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/cmd"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/rules"
)

// TestExamples audits every rule's documentation examples with the real
// command line, in a temporary folder as a reader would: RSNNN.bad.json
// must give the rule's findings exactly at the nodes whose notes say "want
// RSNNN" (and any other rule only where a note says so too; a finding
// without a node must be the rule's own), RSNNN.good.json must give no
// finding at all, and the text printed for the bad one must equal
// RSNNN.bad.out, which docs/rules.md shows (-update rewrites it).
func TestExamples(t *testing.T) {
	update := flag.Lookup("update").Value.(flag.Getter).Get().(bool)
	for _, r := range rules.All() {
		t.Run(r.ID, func(t *testing.T) {
			ex := r.Examples
			if ex.Bad == "" || ex.Good == "" {
				t.Fatalf("rules/examples lacks %[1]s.bad.json or %[1]s.good.json (go run ./scripts/newrule writes both)", r.ID)
			}
			dir := t.TempDir()
			bad, good := r.ID+".bad.json", r.ID+".good.json"
			write(t, dir, bad, ex.Bad)
			write(t, dir, good, ex.Good)
			if ex.Config != "" {
				write(t, dir, ".stormcheck.yaml", ex.Config)
			}

			want := wantNotes(bad, ex.Bad)
			have := map[string]bool{}
			for _, f := range auditJSON(t, dir, bad) {
				if f.Node == "" {
					if f.RuleID != r.ID {
						t.Errorf("%s: a finding without a node from %s, not %s: %s", bad, f.RuleID, r.ID, f.Message)
					}
					have["(no node) "+f.RuleID] = true
					continue
				}
				have[f.Node+" "+f.RuleID] = true
			}
			if !have["(no node) "+r.ID] {
				if diff := cmp.Diff(want, have); diff != "" {
					t.Errorf("%s: findings vs \"want RSNNN\" notes (-want +got):\n%s", bad, diff)
				}
				if !strings.Contains(strings.Join(keys(want), "\n"), " "+r.ID) {
					t.Errorf("%s: no node's notes say \"want %s\"", bad, r.ID)
				}
			}
			if fs := auditJSON(t, dir, good); len(fs) > 0 {
				t.Errorf("%s: %d findings, want none; the first: %s %s %s", good, len(fs), fs[0].RuleID, fs[0].Node, fs[0].Message)
			}

			out := auditText(t, dir, bad)
			golden := filepath.Join("examples", r.ID+".bad.out")
			if update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(ex.Output, out); diff != "" {
				t.Errorf("stormcheck audit %s vs %s (-want +got); run go test ./rules -update, then go run . rules --format markdown > docs/rules.md:\n%s", bad, golden, diff)
			}
		})
	}
}

// TestDocsRulesUpToDate fails when docs/rules.md differs from what
// `stormcheck rules --format markdown` prints.
func TestDocsRulesUpToDate(t *testing.T) {
	path := filepath.Join("..", "docs", "rules.md")
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, ".", "rules", "--format", "markdown")
	if code != cmd.ExitOK {
		t.Fatalf("rules --format markdown: exit %d: %s", code, errOut)
	}
	if string(have) != out {
		t.Errorf("docs/rules.md is stale; regenerate it with: go run . rules --format markdown > docs/rules.md")
	}
}

var wantRE = regexp.MustCompile(`want (RS\d{3})`)

// wantNotes reads the "want RSNNN" notes of an example's nodes.
func wantNotes(name, src string) map[string]bool {
	want := map[string]bool{}
	for _, w := range n8nschema.Parse(n8nschema.NewSource(name, []byte(src))).Workflows {
		for _, n := range w.Nodes {
			for _, m := range wantRE.FindAllStringSubmatch(n.Notes, -1) {
				want[n.Name+" "+m[1]] = true
			}
		}
	}
	return want
}

type jsonFinding struct {
	RuleID  string `json:"rule"`
	Node    string `json:"node"`
	Message string `json:"message"`
}

func auditJSON(t *testing.T, dir, name string) []jsonFinding {
	t.Helper()
	_, out, errOut := run(t, dir, "audit", "--format", "json", filepath.Join(dir, name))
	var doc struct{ Findings []jsonFinding }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("audit --format json %s: %v; stderr: %s", name, err, errOut)
	}
	return doc.Findings
}

// auditText is what a terminal shows for the audit of an example: the
// report, then what went to stderr (RS002's "no workflow found").
func auditText(t *testing.T, dir, name string) string {
	t.Helper()
	_, out, errOut := run(t, dir, "audit", "--color", "never", filepath.Join(dir, name))
	return out + errOut
}

// run runs the command line in dir, as the working folder, with no
// environment.
func run(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cmd.Run(args, &cmd.IO{
		In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(string) string { return "" },
		Getwd:  func() (string, error) { return filepath.Abs(dir) },
	})
	return code, out.String(), errb.String()
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
