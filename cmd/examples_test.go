package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestExamples keeps testdata/examples, which the README's first command
// audits, honest: every file is one clean workflow, and the references
// between them (error workflows, Execute Workflow targets) resolve inside
// the folder.
func TestExamples(t *testing.T) {
	dir := filepath.Join("..", "testdata", "examples")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("want at least 5 examples, got %d (%v)", len(files), err)
	}
	ids := map[string]string{}
	var refs []string
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := n8nschema.Parse(n8nschema.NewSource(filepath.Base(p), src))
		if len(f.Problems) > 0 || len(f.Workflows) != 1 {
			t.Fatalf("%s: %d workflows, problems %v; want one workflow", p, len(f.Workflows), f.Problems)
		}
		w := f.Workflows[0]
		if len(w.Problems) > 0 {
			t.Errorf("%s: problems %v", p, w.Problems)
		}
		if w.ID == "" || w.Name == "" {
			t.Errorf("%s: workflow without id or name", p)
		}
		ids[w.ID] = w.Name
		if ew := w.Settings.ErrorWorkflow; ew != "" {
			refs = append(refs, w.Name+" error workflow "+ew)
		}
		for _, n := range w.Nodes {
			if n.Type != "n8n-nodes-base.executeWorkflow" {
				continue
			}
			v, ok := n.Param("workflowId.value")
			if !ok {
				t.Errorf("%s: node %q has no workflowId.value", p, n.Name)
			}
			refs = append(refs, w.Name+" calls "+v.Str())
		}
	}
	for _, r := range refs {
		id := r[strings.LastIndexByte(r, ' ')+1:]
		if ids[id] == "" {
			t.Errorf("%s: no example has id %s", r, id)
		}
	}
	wantRefs := []string{
		"Nightly catalog enrichment error workflow ErrSummary4Kd9Vb",
		"Checkout: charge order calls PayCallee2Rw6Nc1",
		"Nightly order sync to ERP error workflow ErrNotify6Gp2Qsx",
	}
	if diff := cmp.Diff(wantRefs, refs); diff != "" {
		t.Errorf("references between examples (-want +got):\n%s", diff)
	}

	// Audited as one set, the examples raise no input finding (RS0xx).
	r := run(t, "audit", "--format", "json", "--fail-on", "never", dir)
	var doc struct {
		Findings []struct{ Rule, File, Message string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("exit %d, stdout is not JSON: %v\n%s", r.code, err, r.stderr)
	}
	for _, f := range doc.Findings {
		if f.Rule < "RS100" {
			t.Errorf("%s: %s %s", f.File, f.Rule, f.Message)
		}
	}
}

// TestReadmeSample: the README's sample output is what the first command
// prints: the "OpenAI" block as it stands, and the fix lines it quotes.
func TestReadmeSample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sample, ok := strings.Cut(string(readme), "$ stormcheck audit testdata/examples\n")
	if !ok {
		t.Fatal("README has no sample of `stormcheck audit testdata/examples`")
	}
	sample, _, _ = strings.Cut(sample, "```")
	block, fixes, ok := strings.Cut(sample, "...\n")
	if !ok || !strings.Contains(block, `node "OpenAI"`) {
		t.Fatalf("README sample: want the OpenAI block, then ..., got:\n%s", sample)
	}
	r := run(t, "audit", filepath.Join("..", "testdata", "examples"))
	out := strings.ReplaceAll(r.stdout, "../testdata/", "testdata/")
	if !strings.HasPrefix(out, block) {
		t.Errorf("README's block is not what the first command prints; it prints:\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimSpace(strings.TrimSuffix(fixes, "...\n")), "\n") {
		if !strings.Contains(out, l+"\n") {
			t.Errorf("README line %q is not in the output", l)
		}
	}
}
