package rules

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var update = flag.Bool("update", false, "rewrite the golden .out files of the rule fixtures")

// wantRE finds the annotations in node notes: "want RS101", several allowed.
var wantRE = regexp.MustCompile(`want (RS\d{3})`)

// TestRules runs every rule over its fixtures (docs/style.md#tests): for each
// rules/testdata/RSNNN/*.json it compares the findings of rule RSNNN with
// the fixture's "want RSNNN" node notes, both ways, and their text lines
// with the golden .out beside the fixture (no .out: no finding). A fixture
// is parsed as named on the command line unless its name starts with
// "walked_", which stands for a file met while walking a folder.
func TestRules(t *testing.T) {
	byID := map[string]*analyze.Rule{}
	for _, r := range All() {
		byID[r.ID] = r
	}
	dirs, err := filepath.Glob(filepath.Join("testdata", "RS[0-9][0-9][0-9]"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no fixture folders in testdata")
	}
	for _, dir := range dirs {
		id := filepath.Base(dir)
		t.Run(id, func(t *testing.T) {
			if byID[id] == nil {
				t.Fatalf("testdata/%s has fixtures but no rule %s is registered in All()", id, id)
			}
			fixtures, err := filepath.Glob(filepath.Join(dir, "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			outs, _ := filepath.Glob(filepath.Join(dir, "*.out"))
			for _, out := range outs {
				if _, err := os.Stat(strings.TrimSuffix(out, ".out") + ".json"); err != nil {
					t.Errorf("%s has no fixture beside it", out)
				}
			}
			for _, fx := range fixtures {
				name := strings.TrimSuffix(filepath.Base(fx), ".json")
				t.Run(name, func(t *testing.T) { runFixture(t, id, fx) })
			}
		})
	}
}

func runFixture(t *testing.T, id, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(path)
	f := n8nschema.Parse(n8nschema.NewSource(base, src))
	f.Explicit = !strings.HasPrefix(base, "walked_")
	// A fixture that is no workflow asserts nothing about its rule's
	// annotations (none can be read): only the rules about such inputs
	// keep one.
	if len(f.Workflows) == 0 && id != "RS001" && id != "RS002" {
		t.Fatalf("%s holds no workflow (%d problems): its annotations cannot be read", base, len(f.Problems))
	}
	set := analyze.Build([]*n8nschema.File{f}, fixtureOptions(t, path))
	var got []analyze.Finding
	// The filter stage is part of the pipeline: it applies ignore directives
	// and reports RS006 (which has no Run of its own).
	for _, fd := range analyze.Filter(set, analyze.Run(set, All()), analyze.FilterOptions{Rules: All()}).Findings {
		if fd.RuleID == id {
			got = append(got, fd)
		}
	}

	// Node annotations against (node, rule) pairs, both directions. Only
	// annotations for this folder's rule count; findings without a node
	// (file- and workflow-level) are asserted by the golden file alone.
	want := map[string]bool{}
	for _, w := range f.Workflows {
		for _, n := range w.Nodes {
			for _, m := range wantRE.FindAllStringSubmatch(n.Notes, -1) {
				if m[1] == id {
					want[n.Name+" "+m[1]] = true
				}
			}
		}
	}
	have := map[string]bool{}
	for _, fd := range got {
		if fd.Node != "" {
			have[fd.Node+" "+fd.RuleID] = true
		}
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("findings vs want annotations (-want +got):\n%s", diff)
	}

	// Text lines against the golden file.
	var lines []string
	for _, fd := range got {
		lines = append(lines, findingLine(fd))
	}
	golden := strings.TrimSuffix(path, ".json") + ".out"
	if *update {
		writeGolden(t, golden, lines)
		return
	}
	wantLines := readGolden(t, golden)
	if diff := cmp.Diff(wantLines, lines); diff != "" {
		t.Errorf("findings vs %s (-want +got):\n%s", filepath.Base(golden), diff)
	}
}

// findingLine is the first line of the text report for a finding (a
// newline in a message, which docs/style.md#messages rules out, shows as \n).
func findingLine(f analyze.Finding) string {
	msg := strings.ReplaceAll(f.Message, "\n", `\n`)
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s %s]", f.File, f.Pos.Line, f.Pos.Col, f.Severity, msg, f.RuleID, f.RuleName)
}

func readGolden(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func writeGolden(t *testing.T, path string, lines []string) {
	t.Helper()
	if len(lines) == 0 {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEveryRuleHasFixtures asks each registered rule for at least two
// firing fixtures (a non-empty golden) and two silent ones (no golden, or
// an empty one) in testdata/RSNNN.
func TestEveryRuleHasFixtures(t *testing.T) {
	for _, r := range All() {
		t.Run(r.ID, func(t *testing.T) {
			fixtures, err := filepath.Glob(filepath.Join("testdata", r.ID, "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			var firing, silent []string
			for _, fx := range fixtures {
				name := filepath.Base(fx)
				if len(readGolden(t, strings.TrimSuffix(fx, ".json")+".out")) > 0 {
					firing = append(firing, name)
				} else {
					silent = append(silent, name)
				}
			}
			sort.Strings(firing)
			sort.Strings(silent)
			if len(firing) < 2 || len(silent) < 2 {
				t.Errorf("%s has %d firing fixtures %v and %d silent fixtures %v in testdata/%s; want at least 2 of each",
					r.ID, len(firing), firing, len(silent), silent, r.ID)
			}
		})
	}
}
