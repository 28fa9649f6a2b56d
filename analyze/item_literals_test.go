package analyze

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestRunReachBoundLiterals reads RS306's fixtures: a field a Set node
// gave a literal on the way from a trigger decides the test that reads
// it, for that trigger's runs only; a field set from the item decides
// nothing.
func TestRunReachBoundLiterals(t *testing.T) {
	for _, tc := range []struct {
		file, trigger, paid string
		reached             bool
	}{
		{"webhook_routed_by_a_set_literal_to_its_own_branch.json", "On feedback given", "Generate reply", false},
		{"webhook_routed_by_a_set_literal_to_its_own_branch.json", "On email received", "Generate reply", true},
		{"webhook_routed_by_an_edit_fields_literal_through_an_if.json", "On feedback given", "Generate reply", false},
		{"webhook_routed_by_an_edit_fields_literal_through_an_if.json", "On email received", "Generate reply", true},
		{"webhook_marked_from_its_request_reaches_the_paid_branch.json", "On feedback given", "Generate reply", true},
		{"webhook_mark_set_again_from_the_request.json", "On feedback given", "Generate reply", true},
	} {
		t.Run(tc.file+"/"+tc.trigger, func(t *testing.T) {
			path := filepath.Join("..", "rules", "testdata", "RS306", tc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := n8nschema.Parse(n8nschema.NewSource(path, src))
			s := Build([]*n8nschema.File{f}, Options{})
			w := f.Workflows[0]
			g := s.Graph(w)
			reach := RunReach(g, w.Node(tc.trigger))
			if reach.Has(w.Node(tc.paid)) != tc.reached {
				t.Errorf("RunReach from %q reaches %q: %v, want %v", tc.trigger, tc.paid, !tc.reached, tc.reached)
			}
			// Both triggers together reach what either does.
			if !RunReach(g, g.Triggers()...).Has(w.Node(tc.paid)) {
				t.Errorf("RunReach from every trigger misses %q", tc.paid)
			}
		})
	}
}

// TestSwitchV1Dead reads Switch v1 and v2 rules on literals.
func TestSwitchV1Dead(t *testing.T) {
	for _, tc := range []struct {
		params string
		ver    string
		want   []bool
	}{
		{`{"rules":{"rules":[{"value2":"gmail"},{"output":1,"value2":"webhook"}]},"value1":"webhook","dataType":"string","fallbackOutput":3}`, "1", []bool{true, false, true, true}},
		{`{"rules":{"rules":[{"value2":"gmail"},{"output":1,"value2":"webhook"}]},"value1":"other","dataType":"string","fallbackOutput":3}`, "1", []bool{true, true, true, false}},
		{`{"rules":{"rules":[{"value2":"gmail"},{"output":1,"value2":"webhook"}]},"value1":"other","dataType":"string"}`, "1", []bool{true, true, true, true}},
		{`{"rules":{"rules":[{"value2":"gmail"},{"value2":"webhook"}]},"value1":"webhook","dataType":"string"}`, "2", []bool{true, false}},
		{`{"rules":{"rules":[{"value2":"gmail"}]},"value1":"={{ $json.x }}","dataType":"string"}`, "1", nil},
		{`{"rules":{"rules":[{"value2":5}]},"value1":3}`, "1", []bool{false, true, true, true}}, // number: smaller by default
	} {
		src := `{"nodes":[{"name":"S","type":"n8n-nodes-base.switch","typeVersion":` + tc.ver + `,"position":[0,0],"parameters":` + tc.params + `}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("s.json", []byte(src)))
		got := literalDead(f.Workflows[0].Nodes[0])
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.params, got, tc.want)
			continue
		}
		for k := range got {
			if got[k] != tc.want[k] {
				t.Errorf("%s: got %v, want %v", tc.params, got, tc.want)
				break
			}
		}
	}
}
