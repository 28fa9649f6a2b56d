package rules

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestCorpusStats audits every workflow of ../shared/corpus/n8n-real on its
// own (one analysis set per file, as an export of one workflow would be)
// and prints, per rule, the findings and workflows it fires on and the
// findings per node at warning and above. It runs only when
// STORMCHECK_CORPUS_STATS is set; STORMCHECK_CORPUS_SAMPLE=RS201 also
// prints that rule's findings.
func TestCorpusStats(t *testing.T) {
	if os.Getenv("STORMCHECK_CORPUS_STATS") == "" {
		t.Skip("set STORMCHECK_CORPUS_STATS=1 to print per-rule corpus statistics")
	}
	root := filepath.Join("..", "..", "shared", "corpus", "n8n-real")
	sample := os.Getenv("STORMCHECK_CORPUS_SAMPLE")
	findings := map[string]int{}
	workflows := map[string]int{}
	var nodes, loud int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") || strings.Contains(path, "/odd/") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f := n8nschema.Parse(n8nschema.NewSource(path, src))
		set := analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions())
		for _, w := range set.Workflows {
			nodes += len(w.Nodes)
		}
		seen := map[string]bool{}
		for _, fd := range analyze.Run(set, All()) {
			findings[fd.RuleID]++
			if fd.Severity >= analyze.Warning {
				loud++
			}
			if !seen[fd.RuleID+fd.Workflow] {
				seen[fd.RuleID+fd.Workflow] = true
				workflows[fd.RuleID]++
			}
			if sample != "" && fd.RuleID == sample {
				fmt.Printf("%s:%d: %s: %s\n", strings.TrimPrefix(path, root+"/"), fd.Pos.Line, fd.Severity, fd.Message)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range findings {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Printf("%s\t%d findings\t%d workflows\n", id, findings[id], workflows[id])
	}
	fmt.Printf("nodes %d, findings at warning and above %d, per node %.4f\n", nodes, loud, float64(loud)/float64(max(nodes, 1)))
}
