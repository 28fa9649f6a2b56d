package n8nschema

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// exportWant lists, per file of corpus/n8n-exports (what a real n8n 2.8.4
// writes), the workflows it holds: "id|name|node count", in file order.
// Derived by reading the files.
var exportWant = map[string][]string{
	"api/get-workflow-ASNOxPMVp6DRKGAl.json": {sample1},
	"api/get-workflows-limit2-page1.json":    {sample1, sample1b},
	"api/get-workflows-limit2-page2.json":    {sample2, sample3},
	"api/get-workflows-limit3.json":          {"1BiCqb67ESK8xnkr|Created via public API|4", sample1, sample1b},
	"api/get-workflows.json":                 {sample1, sample1b, sample2, sample3},

	"cli-export/backup-after-more-imports/ASNOxPMVp6DRKGAl.json": {sample1},
	"cli-export/backup-after-more-imports/Qrh41hvJPtYjrZ7T.json": {sample1b},
	"cli-export/backup-after-more-imports/auditSample00002.json": {sample2},
	"cli-export/backup-after-more-imports/w6ld4DZ8JrKsm3wk.json": {sample3},
	"cli-export/export-all-pretty.json":                          {sample1, sample2, sample3, sample1b},
	"cli-export/export-all.json":                                 {sample1},
	"cli-export/export-backup-ASNOxPMVp6DRKGAl.json":             {sample1},
	"cli-export/export-id-auditKeyOrder004.json":                 {"auditKeyOrder004|Key order ü <>&|2"},
	"cli-export/export-id-auditSample00002.json":                 {sample2},
	"cli-export/export-separate-ASNOxPMVp6DRKGAl.json":           {sample1},

	"input/api-post-body.json":    {"|Created via public API|4"},
	"input/input-2-array.json":    {sample2, "|Audit Sample 3: minimal no settings|1"},
	"input/input-4-keyorder.json": {"auditKeyOrder004|Key order ü <>&|2"},
	"input/input-workflow.json":   {"|Audit Sample: retry + AI agent|4"},
}

const (
	sample1  = "ASNOxPMVp6DRKGAl|Audit Sample: retry + AI agent|4"
	sample1b = "Qrh41hvJPtYjrZ7T|Audit Sample: retry + AI agent|4"
	sample2  = "auditSample00002|Audit Sample 2: no node ids, active, tags|2"
	sample3  = "w6ld4DZ8JrKsm3wk|Audit Sample 3: minimal no settings|1"
)

func TestExports(t *testing.T) {
	dir := sharedtest.Path(t, "corpus", "n8n-exports")
	got := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f := Parse(NewSource(rel, src))
		checkFile(t, f)
		if probs := allProblems(f); len(probs) > 0 {
			t.Errorf("%s: unexpected problems %v", rel, probs)
		}
		list := []string{}
		for _, w := range f.Workflows {
			if w.Published {
				t.Errorf("%s: workflow %q read from activeVersion, which is null in these exports", rel, w.ID)
			}
			list = append(list, w.ID+"|"+w.Name+"|"+itoa(len(w.Nodes)))
		}
		got[rel] = list
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(exportWant, got); diff != "" {
		t.Errorf("workflows per export file (-want +got):\n%s", diff)
	}
}
