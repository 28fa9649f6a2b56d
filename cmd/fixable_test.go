package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFixableMarks: text and concise mark the findings --fix repairs with
// [*], as ruff does, and end with "N fixable with --fix"; what
// --min-severity hides is neither counted nor repaired.
func TestFixableMarks(t *testing.T) {
	examples := filepath.Join("..", "testdata", "examples")
	for _, format := range []string{"text", "concise"} {
		r := run(t, "audit", "--format", format, "--fail-on", "never", examples)
		var marked []string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, "[*]") {
				marked = append(marked, l)
			}
		}
		if len(marked) != 1 || !strings.Contains(marked[0], `warning: [*] node "Create charge" makes up to 15 attempts`) ||
			!strings.HasSuffix(marked[0], "[RS101 attempt-budget]") {
			t.Errorf("%s: lines marked [*]: %q, want the RS101 on \"Create charge\" alone", format, marked)
		}
		if !strings.HasSuffix(r.stdout, "\n1 fixable with --fix (1 more with --unsafe-fixes)\n") {
			t.Errorf("%s: summary:\n%s", format, r.stdout[max(0, len(r.stdout)-300):])
		}
	}
	// The safe RS101 repair is a warning, the unsafe RS504 one a warning:
	// hidden, they are not counted.
	r := run(t, "audit", "--min-severity", "error", "--fail-on", "never", examples)
	if strings.Contains(r.stdout, "fixable") || strings.Contains(r.stdout, "[*]") {
		t.Errorf("--min-severity error counts hidden fixes:\n%s", r.stdout)
	}
	// Nor does --fix repair them.
	dir, cfg := copyTree(t, examples)
	before := readTree(t, dir)
	r = run(t, "audit", "--config", cfg, "--fix", "--min-severity", "error", "--fail-on", "never", dir)
	if strings.Contains(r.stdout, "found ") || !equalTrees(before, readTree(t, dir)) {
		t.Errorf("--fix --min-severity error repaired a hidden finding:\n%s", r.stdout)
	}
}

// TestFixPrintsOneSummary: after --fix, one line says what was found, what
// was fixed and what is left, by severity.
func TestFixPrintsOneSummary(t *testing.T) {
	dir, cfg := copyTree(t, filepath.Join("..", "testdata", "examples"))
	for _, format := range []string{"text", "concise"} {
		r := run(t, "audit", "--config", cfg, "--fix", "--format", format, "--fail-on", "never", dir)
		if format == "concise" {
			// the first --fix repaired it; a second has nothing to fix
			if strings.Contains(r.stdout, "found ") {
				t.Errorf("a second --fix says it fixed something:\n%s", r.stdout)
			}
			continue
		}
		want := "\nfound 16 findings (1 fixed, 15 remaining: 3 errors, 4 warnings, 8 notes) in 7 workflows (7 files, 29 nodes)\n"
		if !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "\n15 findings (") {
			t.Errorf("--fix summary:\n%s", r.stdout[max(0, len(r.stdout)-400):])
		}
	}
}

// TestNoRepairReason: a finding without a repair says why in JSON: the
// rule's own reason, or, for a rule that has repairs, this finding's (the
// RS104 example's: the OpenAI node's retry, the outer layer around its
// tool, is also the only retry of its own model call).
func TestNoRepairReason(t *testing.T) {
	r := run(t, "audit", "--format", "json", "--fail-on", "never", filepath.Join("..", "testdata", "examples"),
		filepath.Join("..", "rules", "examples", "RS104.bad.json"))
	var doc struct {
		Findings []struct {
			Rule, Node     string
			Repair         *struct{ Safety string }
			NoRepairReason *string `json:"no_repair_reason"`
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"RS104 Look up order": `turning off the retries of "Support assistant" would leave node "Support assistant" with no retry at all; give it retries of its own first`,
		"RS301 OpenAI":        "bounding spend needs a decision about what to stop (a cap, a guard on the loop)",
		"RS302 OpenAI":        "set fix.max_tokens in .stormcheck.yaml: the cap is what the task needs, which only its owner knows",
		"RS101 Create charge": "",
	}
	for _, f := range doc.Findings {
		switch {
		case f.Repair == nil && (f.NoRepairReason == nil || *f.NoRepairReason == ""):
			t.Errorf("%s on %q: repair null with no reason", f.Rule, f.Node)
		case f.Repair != nil && f.NoRepairReason != nil:
			t.Errorf("%s on %q: a repair and a reason %q", f.Rule, f.Node, *f.NoRepairReason)
		}
		if w, ok := want[f.Rule+" "+f.Node]; ok {
			got := ""
			if f.NoRepairReason != nil {
				got = *f.NoRepairReason
			}
			if got != w {
				t.Errorf("%s on %q: reason %q, want %q", f.Rule, f.Node, got, w)
			}
			delete(want, f.Rule+" "+f.Node)
		}
	}
	if len(want) > 0 {
		t.Errorf("findings not reported: %v", want)
	}
}

// TestMarkdownLinksLocations: in a GitHub Actions run, the markdown report
// links each location to its line in the repository at the commit audited.
func TestMarkdownLinksLocations(t *testing.T) {
	env := map[string]string{"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/flows", "GITHUB_SHA": "0123abc"}
	r := runArgs(t, env, false, "", "audit", "--format", "markdown", "--fail-on", "never", filepath.Join("..", "testdata", "examples", "charge-card.json"))
	want := "| [`testdata/examples/charge-card.json:69:7`](https://github.com/acme/flows/blob/0123abc/testdata/examples/charge-card.json#L69) | Charge card | Create charge |"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("no linked location %q:\n%s", want, r.stdout)
	}
	r = run(t, "audit", "--format", "markdown", "--fail-on", "never", filepath.Join("..", "testdata", "examples", "charge-card.json"))
	if !strings.Contains(r.stdout, "| `testdata/examples/charge-card.json:69:7` |") {
		t.Errorf("outside Actions, a location is code:\n%s", r.stdout)
	}
}

// TestRuleDidYouMean: a misspelt rule in --disable, --enable, the config
// or explain gets the closest ID or name.
func TestRuleDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"audit", "--disable", "RS101,nested-retrie", td("clean.json")}, `unknown rule "nested-retrie"`},
		{[]string{"audit", "--enable", "-attempt-budgt", td("clean.json")}, `did you mean "attempt-budget"?`},
		{[]string{"audit", "--disable", "RS1O4", td("clean.json")}, `did you mean "RS104"?`},
		{[]string{"explain", "nested_retries"}, `explain: no rule "nested_retries"; did you mean "nested-retries"?`},
	} {
		r := run(t, tt.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
	if r := run(t, "audit", "--disable", "nested-retrie", td("clean.json")); !strings.HasSuffix(r.stderr, `; did you mean "nested-retries"?`+"\n") {
		t.Errorf("stderr %q", r.stderr)
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".stormcheck.yaml": "rules:\n  disable: [unbounded-spnd]\n", "a.json": example(t, "charge-card.json")})
	if r := auditIn(t, dir, "audit", "."); r.code != ExitUsage || !strings.Contains(r.stderr, `.stormcheck.yaml:2: rules.disable: unknown rule "unbounded-spnd"`) || !strings.Contains(r.stderr, `did you mean "unbounded-spend"?`) {
		t.Errorf("config: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestCIDocDescribesTextLayout: what docs/ci.md says of the text format is
// what it prints: a block per node headed `file:line:col: node "…"`, a
// caret under the JSON line, one `severity: message [ID name]` line per
// finding with [*] when --fix repairs it, the fixes once, the fixable line.
func TestCIDocDescribesTextLayout(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "| `text` |") {
			row = l
		}
	}
	for _, want := range []string{"one block per node", "`file:line:col: node \"OpenAI\"`", "a caret", "`severity: message [RS101 attempt-budget]`",
		"`[*]`", "each rule's fix once", "`1 fixable with --fix (1 more with --unsafe-fixes)`"} {
		if !strings.Contains(row, want) {
			t.Errorf("docs/ci.md's text row lacks %q:\n%s", want, row)
		}
	}
	out := run(t, "audit", "--fail-on", "never", filepath.Join("..", "testdata", "examples")).stdout
	lines := strings.Split(out, "\n")
	for _, re := range []string{
		`^testdata/examples/catalog-enrichment\.json:123:7: node "OpenAI"$`,
		`^  123 \|       "name": "OpenAI",$`,
		`^      \|       \^~~~~~$`,
		`^  error: paid call in node "OpenAI" .* \[RS301 unbounded-spend\]$`,
	} {
		if i := slices.IndexFunc(lines, func(l string) bool { return regexp.MustCompile(re).MatchString(l) }); i < 0 || i > 3 {
			t.Errorf("the first block lacks %s at its place:\n%s", re, strings.Join(lines[:6], "\n"))
		}
	}
	for _, want := range []string{"\n  warning: [*] node \"Create charge\" makes up to 15 attempts", "\nfixes (stormcheck explain RULE tells why)\n",
		"\n1 fixable with --fix (1 more with --unsafe-fixes)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the text report lacks %q", want)
		}
	}
}

// TestFixableMarksUnsafe: with --unsafe-fixes the unsafe repairs are
// marked and counted too.
func TestFixableMarksUnsafe(t *testing.T) {
	r := run(t, "audit", "--unsafe-fixes", "--format", "concise", "--fail-on", "never", filepath.Join("..", "testdata", "examples"))
	var marked []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.Contains(l, "[*]") {
			_, rule, _ := strings.Cut(l, " [RS")
			marked = append(marked, "RS"+rule)
		}
	}
	if want := []string{"RS504 no-deadline]", "RS101 attempt-budget]"}; !slices.Equal(marked, want) || !strings.HasSuffix(r.stdout, "\n2 fixable with --fix --unsafe-fixes\n") {
		t.Errorf("marked %q, want %q; summary:\n%s", marked, want, r.stdout[max(0, len(r.stdout)-200):])
	}
}
