package n8nschema

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// oddWant is what each file of the corpus's odd/ folder (real exports that
// are broken or are no workflow) must yield, keyed by base name, with the
// reason beside it; positions of JSON errors agree with the corpus
// manifest's notes (written by Python's json module).
type oddWant struct {
	kind      ProblemKind
	pos       string // of the file problem
	msg       string // the start of its message
	workflows int
	nodes     int // of the first workflow
}

var oddFiles = map[string]oddWant{
	// Trailing garbage after the object (CRLF files): the workflow before it is audited.
	"lemlist_GPT-3_Supercharge_your_sales_workflows.json": {InvalidJSON, "397:2",
		`unexpected data after the JSON value: "slemlist <> GPT-3`, 1, 12},
	"Parse_PDF_with_LlamaParse_and_save_to_Airtable.json": {InvalidJSON, "601:2",
		`unexpected data after the JSON value: "Parse PDF with LlamaParse`, 1, 18},
	"Recipe_Recommendations_with_Qdrant_and_Mistral.json": {InvalidJSON, "973:2",
		`unexpected data after the JSON value: "sRecipe Recommendations`, 1, 33},
	// A second copy of the workflow follows the first.
	"Host_Your_Own_AI_Deep_Research_Agent_with_n8n_Apify_and_OpenAI_o3.json": {InvalidJSON, "2942:2",
		`unexpected data after the JSON value: "{"`, 1, 87},
	// A 0-byte file.
	"ALL_unique_nodes.json": {InvalidJSON, "1:1", "file is empty", 0, 0},
	// A raw newline inside a JSON string.
	"Freelancer-Time-Tracker-Airtable.json": {InvalidJSON, "46:55", `invalid JSON: invalid character '\n' in string literal`, 0, 0},
	// Valid JSON without a workflow shape.
	"1290_Automation.json":               {NotWorkflow, "1:1", "empty object is not an n8n workflow", 0, 0},
	"1409_Send.json":                     {NotWorkflow, "1:1", `object with keys "\"nodes\"", "\"name\""`, 0, 0},
	"1250_Automation.json":               {NotWorkflow, "1:1", `object with keys "\"nodes\"", "\"id\""`, 0, 0},
	"unique_categories.json":             {NotWorkflow, "1:1", "array of 16 elements holds no n8n workflow", 0, 0},
	"Web_Search_n8n_Agent_Chatflow.json": {NotWorkflow, "1:1", `object has "nodes" and "edges" but no "connections"`, 0, 0},
}

// TestCorpus parses every file of ../shared/corpus/n8n-real.
func TestCorpus(t *testing.T) {
	real := sharedtest.Path(t, "corpus", "n8n-real")
	manifest := sharedtest.ManifestWorkflows(t)
	if len(manifest) == 0 {
		t.Fatal("MANIFEST.tsv lists no workflow")
	}
	var plain []string
	seenOdd := map[string]bool{}
	err := filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, err := filepath.Rel(real, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f := Parse(NewSource(rel, src))
		checkFile(t, f)
		if strings.HasPrefix(rel, "odd/") {
			base := path.Base(rel)
			seenOdd[base] = true
			want, ok := oddFiles[base]
			if !ok {
				t.Errorf("%s: odd file missing from the oddFiles table", rel)
				return nil
			}
			checkOdd(t, rel, f, want)
			return nil
		}
		plain = append(plain, rel)
		if len(f.Workflows) == 0 {
			t.Errorf("%s: no workflow (problems: %v)", rel, allProblems(f))
		}
		for _, p := range f.Problems {
			if p.Kind == InvalidJSON || p.Kind == NotWorkflow {
				t.Errorf("%s: %s", rel, probSum(p))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(plain)
	if len(plain) != len(manifest) {
		t.Errorf("%d plain workflow files, MANIFEST.tsv lists %d", len(plain), len(manifest))
	}
	if diff := cmp.Diff(manifest, plain); diff != "" {
		t.Errorf("plain workflow files vs MANIFEST.tsv (-manifest +files):\n%s", diff)
	}
	for base := range oddFiles {
		if !seenOdd[base] {
			t.Errorf("odd file %s is in the table but not in the corpus", base)
		}
	}
}

func checkOdd(t *testing.T, rel string, f *File, want oddWant) {
	t.Helper()
	var kinds []string
	for _, p := range f.Problems {
		kinds = append(kinds, kindNames[p.Kind]+" "+p.Pos.String())
	}
	if diff := cmp.Diff([]string{kindNames[want.kind] + " " + want.pos}, kinds); diff != "" {
		t.Errorf("%s: file problems (-want +got):\n%s", rel, diff)
	}
	if len(f.Problems) > 0 && !strings.HasPrefix(f.Problems[0].Message, want.msg) {
		t.Errorf("%s: message %q does not start with %q", rel, f.Problems[0].Message, want.msg)
	}
	if len(f.Workflows) != want.workflows {
		t.Fatalf("%s: %d workflows, want %d", rel, len(f.Workflows), want.workflows)
	}
	if want.workflows > 0 {
		if got := len(f.Workflows[0].Nodes); got != want.nodes {
			t.Errorf("%s: %d nodes, want %d", rel, got, want.nodes)
		}
	}
}
