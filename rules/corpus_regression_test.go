package rules

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// maxLoudPerNode is the most findings at warning and above per node that
// the corpus may produce: beyond it the report is noise and people stop
// reading it.
const maxLoudPerNode = 0.03

// corpora are the corpora below ../shared/corpus the regression test
// audits, each with its golden summary: n8n-real, the tuning set, and
// n8n-more, the validation set nothing was tuned on. The goldens list per
// rule the findings, the workflows they fall on and the findings per
// severity, so that a change in firing shows up in review. Regenerate them
// deliberately with `go test ./rules -run TestCorpusRegression -update`,
// never to make the test pass.
var corpora = []struct{ name, golden string }{
	{"n8n-real", "testdata/corpus_summary.golden"},
	{"n8n-more", "testdata/corpus_summary_more.golden"},
}

// TestCorpusRegression audits each corpus as one analysis set, the way
// `stormcheck audit ../shared/corpus/<name>` does with default options
// (walk in sorted order, parse, Build, Run every rule, Filter), and checks
// two things: findings at warning and above stay at most maxLoudPerNode per
// node, where nodes are every node of every workflow except sticky notes
// (they never run); and the per-rule counts match the golden summary. It
// skips when the corpus is absent, and fails instead when the CI
// environment variable is set.
func TestCorpusRegression(t *testing.T) {
	for _, c := range corpora {
		t.Run(c.name, func(t *testing.T) { corpusRegression(t, c.name, c.golden) })
	}
}

func corpusRegression(t *testing.T, name, golden string) {
	files := corpustest.FilesOf(t, name)
	all := All()
	set := analyze.Build(files, analyze.DefaultOptions())
	findings := analyze.Filter(set, analyze.Run(set, all), analyze.FilterOptions{
		Rules: all, All: all, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
	}).Findings

	nodes := 0
	for _, w := range set.Workflows {
		for _, n := range w.Nodes {
			if !n.IsSticky() {
				nodes++
			}
		}
	}
	loud := 0
	for _, f := range findings {
		if f.Severity >= analyze.Warning {
			loud++
		}
	}
	perNode := float64(loud) / float64(max(nodes, 1))
	t.Logf("%d findings at warning and above on %d nodes (sticky notes left out): %.4f per node", loud, nodes, perNode)
	if perNode > maxLoudPerNode {
		t.Errorf("findings at warning and above per node = %.4f (%d / %d), want at most %.2f", perNode, loud, nodes, maxLoudPerNode)
	}

	got := corpusSummary(name, files, set, findings, nodes, loud)
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with -update and review it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("corpus summary differs from %s (-want +got); if the change in firing is intended, regenerate it with -update and review the diff:\n%s", golden, diff)
	}
}

// corpusSummary renders the golden: totals, then one line per rule.
func corpusSummary(name string, files []*n8nschema.File, set *analyze.Set, findings []analyze.Finding, nodes, loud int) string {
	type count struct {
		findings  int
		workflows map[string]bool
		bySev     map[analyze.Severity]int
	}
	byRule := map[string]*count{}
	for _, f := range findings {
		c := byRule[f.RuleID]
		if c == nil {
			c = &count{workflows: map[string]bool{}, bySev: map[analyze.Severity]int{}}
			byRule[f.RuleID] = c
		}
		c.findings++
		c.workflows[f.File+"\x00"+f.Workflow] = true
		c.bySev[f.Severity]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# stormcheck audit ../shared/corpus/%s, one analysis set, default options\n", name)
	fmt.Fprintf(&b, "# regenerate: go test ./rules -run TestCorpusRegression -update (review the diff)\n")
	fmt.Fprintf(&b, "files %d, workflows %d, nodes %d (sticky notes left out), findings %d\n",
		len(files), len(set.Workflows), nodes, len(findings))
	fmt.Fprintf(&b, "warning and above %d, per node %.4f (limit %.2f)\n", loud, float64(loud)/float64(max(nodes, 1)), maxLoudPerNode)
	ids := make([]string, 0, len(byRule))
	for id := range byRule {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		c := byRule[id]
		fmt.Fprintf(&b, "%s findings %d workflows %d error %d warning %d note %d\n", id, c.findings, len(c.workflows),
			c.bySev[analyze.Error], c.bySev[analyze.Warning], c.bySev[analyze.Note])
	}
	return b.String()
}
