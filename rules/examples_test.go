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
// command line, in a temporary folder as a reader would, with only that
// rule enabled (so a new rule never changes another rule's examples):
// RSNNN.bad.json must give findings exactly at the nodes whose notes say
// "want RSNNN" (or, for a file-level rule such as RS001, findings with no
// node), RSNNN.good.json must give none, and the text printed for the bad
// one must equal RSNNN.bad.out, which docs/rules.md shows (-update
// rewrites it).
func TestExamples(t *testing.T) {
	update := flag.Lookup("update").Value.(flag.Getter).Get().(bool)
	for _, r := range rules.All() {
		t.Run(r.ID, func(t *testing.T) {
			ex := r.Examples()
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

			want := wantNotes(bad, ex.Bad, r.ID)
			have := map[string]bool{}
			for _, f := range auditJSON(t, dir, r.ID, bad) {
				have[f.Node] = true
			}
			switch {
			case len(have) == 0:
				t.Errorf("%s gives no %s finding", bad, r.ID)
			case !have[""]:
				if diff := cmp.Diff(want, have); diff != "" {
					t.Errorf("%s: nodes with %s findings vs nodes whose notes say \"want %[2]s\" (-want +got):\n%s", bad, r.ID, diff)
				}
			case len(have) > 1 || len(want) > 0:
				t.Errorf("%s: findings with and without a node, or a \"want %s\" note on a file-level finding: %v", bad, r.ID, have)
			}
			if fs := auditJSON(t, dir, r.ID, good); len(fs) > 0 {
				t.Errorf("%s: %d %s findings, want none; the first: %s %s", good, len(fs), r.ID, fs[0].Node, fs[0].Message)
			}

			out := auditText(t, dir, r.ID, bad)
			golden := filepath.Join("examples", r.ID+".bad.out")
			if update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(ex.Output, out); diff != "" {
				t.Errorf("stormcheck audit --enable %s %s vs %s (-want +got); run go test ./rules -update, then go run . rules --format markdown > docs/rules.md:\n%s", r.ID, bad, golden, diff)
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

// wantNotes returns the names of an example's nodes whose notes say "want
// id".
func wantNotes(name, src, id string) map[string]bool {
	want := map[string]bool{}
	for _, w := range n8nschema.Parse(n8nschema.NewSource(name, []byte(src))).Workflows {
		for _, n := range w.Nodes {
			for _, m := range wantRE.FindAllStringSubmatch(n.Notes, -1) {
				if m[1] == id {
					want[n.Name] = true
				}
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

// auditJSON audits an example with one rule enabled.
func auditJSON(t *testing.T, dir, id, name string) []jsonFinding {
	t.Helper()
	_, out, errOut := run(t, dir, "audit", "--enable", id, "--format", "json", filepath.Join(dir, name))
	var doc struct{ Findings []jsonFinding }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("audit --format json %s: %v; stderr: %s", name, err, errOut)
	}
	return doc.Findings
}

// auditText is what a terminal shows for the audit of an example with one
// rule enabled: the report, then what went to stderr (RS002's "no workflow
// found").
func auditText(t *testing.T, dir, id, name string) string {
	t.Helper()
	_, out, errOut := run(t, dir, "audit", "--color", "never", "--enable", id, filepath.Join(dir, name))
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
