package rules

import (
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
)

// TestLoudPerNode holds findings at warning and above to at most
// maxLoudPerNode per node on n8n-fresh, the corpus of real users'
// workflows that nothing is tuned on (TestCorpusRegression holds n8n-real
// and n8n-more to the same limit). Nodes leave sticky notes out, as there.
// It skips when ../shared is absent and fails instead when CI is set.
func TestLoudPerNode(t *testing.T) {
	files := corpustest.FilesOf(t, "n8n-fresh")
	all := All()
	set := analyze.Build(files, analyze.DefaultOptions())
	findings := analyze.Filter(set, analyze.Run(set, all), analyze.FilterOptions{
		Rules: all, All: all, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
	}).Findings
	nodes, loud := 0, 0
	for _, w := range set.Workflows {
		for _, n := range w.Nodes {
			if !n.IsSticky() {
				nodes++
			}
		}
	}
	for _, f := range findings {
		if f.Severity >= analyze.Warning {
			loud++
		}
	}
	perNode := float64(loud) / float64(max(nodes, 1))
	t.Logf("n8n-fresh: %d findings at warning and above on %d nodes: %.4f per node", loud, nodes, perNode)
	if perNode > maxLoudPerNode {
		t.Errorf("n8n-fresh: findings at warning and above per node = %.4f (%d / %d), want at most %.2f", perNode, loud, nodes, maxLoudPerNode)
	}
}
