package fix

import (
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestExpressionPrefixEditsTheNodeItIsGiven: two HTTP Requests share the
// name "Target" (a file n8n would not build, but one a file can hold); the
// first has a plain URL, the second the {{ }} RS012 names. The repair of
// the second edits the second's URL, found by the node's place in the
// file, and leaves the first alone: the name picks the first.
func TestExpressionPrefixEditsTheNodeItIsGiven(t *testing.T) {
	src := `{"name": "W", "nodes": [
  {"parameters": {"rule": {"interval": [{"field": "hours"}]}}, "name": "Every hour", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0]},
  {"parameters": {"url": "https://x.example.com/plain", "options": {}}, "name": "Target", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0]},
  {"parameters": {"url": "https://x.example.com/a?ref={{ $json.a }}", "options": {}}, "name": "Target", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [400, 0]}
], "connections": {}}`
	set := analyze.Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, analyze.DefaultOptions())
	w := set.Workflows[0]
	second := w.Nodes[2]
	rep, err := newRepairer(set, Options{}).ExpressionPrefix(w, second, []string{"url"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Edits) != 1 {
		t.Fatalf("%d edits, want 1", len(rep.Edits))
	}
	e := rep.Edits[0]
	want := strings.Index(src, `"https://x.example.com/a?ref=`) + 1
	if e.Offset != want || e.Text != "=" {
		t.Fatalf("edit %q at %d, want \"=\" at %d (the second Target's URL); the first's is at %d", e.Text, e.Offset, want, strings.Index(src, `"https://x.example.com/plain`)+1)
	}
}
