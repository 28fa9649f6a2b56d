package analyze

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestFold(t *testing.T) {
	rules := []*Rule{
		{ID: "RS005", FoldMore: func(_ string, n int) string { return fmt.Sprintf("; referenced from %d more places", n) }},
		{ID: "RS101"},
		{ID: "RS104", FoldsInto: "RS101"},
		{ID: "RS505"},
	}
	at := func(line int) n8nschema.Pos { return n8nschema.Pos{Line: line, Col: 1} }
	fs := []Finding{
		{RuleID: "RS101", File: "a.json", Workflow: "A", Node: "Call", Pos: at(3), Severity: Warning, Message: "budget"},
		{RuleID: "RS104", File: "a.json", Workflow: "A", Node: "Call", Pos: at(3), Severity: Error, Message: "layers"},
		{RuleID: "RS104", File: "a.json", Workflow: "A", Node: "Other", Pos: at(5), Severity: Warning, Message: "layers alone"},
		{RuleID: "RS005", File: "a.json", Workflow: "A", Node: "Run 1", Pos: at(7), Severity: Note, Message: "missing X", FoldKey: "workflow\x00X"},
		{RuleID: "RS005", File: "a.json", Workflow: "A", Node: "Run 2", Pos: at(9), Severity: Note, Message: "missing X", FoldKey: "workflow\x00X"},
		{RuleID: "RS005", File: "b.json", Workflow: "B", Pos: at(2), Severity: Note, Message: "missing X", FoldKey: "workflow\x00X"},
		{RuleID: "RS005", File: "b.json", Workflow: "B", Node: "Run Y", Pos: at(4), Severity: Note, Message: "missing Y", FoldKey: "workflow\x00Y"},
		{RuleID: "RS505", File: "a.json", Workflow: "A", Node: "Post", Pos: at(11), Severity: Note, Message: "slack", FoldKey: "slack"},
		{RuleID: "RS505", File: "b.json", Workflow: "B", Node: "Post", Pos: at(6), Severity: Note, Message: "slack", FoldKey: "slack"},
	}
	type row struct {
		Rule, File, Node, Message string
		Severity                  Severity
		Related                   []string
	}
	var got []row
	for _, f := range Fold(slices.Clone(fs), rules) {
		r := row{f.RuleID, f.File, f.Node, f.Message, f.Severity, nil}
		for _, rel := range f.Related {
			r.Related = append(r.Related, rel.File+": "+rel.Message)
		}
		got = append(got, r)
	}
	want := []row{
		// RS104 on the node of an RS101 is left out and lends its severity.
		{"RS101", "a.json", "Call", "budget", Error, nil},
		{"RS104", "a.json", "Other", "layers alone", Warning, nil},
		{"RS005", "a.json", "Run 1", "missing X; referenced from 2 more places", Note,
			[]string{`a.json: also node "Run 2"`, `b.json: also the workflow settings in workflow "B"`}},
		{"RS005", "b.json", "Run Y", "missing Y", Note, nil},
		{"RS505", "a.json", "Post", "slack", Note, []string{`b.json: also node "Post" in workflow "B"`}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Fold (-want +got):\n%s", diff)
	}
	if fs[0].Severity != Warning {
		t.Errorf("Fold changed its input: RS101 severity %v", fs[0].Severity)
	}
	// The folded fingerprint does not depend on which place comes first.
	a := Fold(slices.Clone(fs[3:6]), rules)[0].Fingerprint
	b := Fold(slices.Clone(fs[4:6]), rules)[0].Fingerprint
	if a != b || a == "" {
		t.Errorf("folded fingerprints differ with the first place: %q vs %q", a, b)
	}
}

// TestFoldKeepsTheMostSevere: the finding kept for a key is the first of
// the most severe (one said as a note, behind another or reached only by
// hand, does not speak for a warning), the others its related places in
// order; its fingerprint is the key's whichever is kept.
func TestFoldKeepsTheMostSevere(t *testing.T) {
	rules := []*Rule{{ID: "RS010", FoldMore: func(_ string, n int) string { return fmt.Sprintf("; %d more", n) }}}
	at := func(line int) n8nschema.Pos { return n8nschema.Pos{Line: line, Col: 1} }
	mk := func(node string, line int, sev Severity) Finding {
		return Finding{RuleID: "RS010", File: "a.json", Workflow: "A", Node: node, Pos: at(line), Severity: sev,
			Message: node + " fails", FoldKey: "model\x00a.json\x00gpt-4-0314"}
	}
	fs := []Finding{mk("Behind", 3, Note), mk("Live", 5, Warning), mk("Later", 7, Warning), mk("Last", 9, Note)}
	out := Fold(slices.Clone(fs), rules)
	if len(out) != 1 {
		t.Fatalf("Fold kept %d findings, want 1", len(out))
	}
	var rel []string
	for _, r := range out[0].Related {
		rel = append(rel, r.Message)
	}
	if out[0].Node != "Live" || out[0].Severity != Warning || out[0].Message != "Live fails; 3 more" ||
		!slices.Equal(rel, []string{`also node "Behind"`, `also node "Later"`, `also node "Last"`}) {
		t.Errorf("Fold kept %s (%v) %q with %q, want Live (warning) with Behind, Later, Last", out[0].Node, out[0].Severity, out[0].Message, rel)
	}
	fs[0].Severity = Error
	if again := Fold(slices.Clone(fs), rules)[0]; again.Node != "Behind" || again.Fingerprint != out[0].Fingerprint {
		t.Errorf("with Behind an error, Fold kept %s with fingerprint %s, want Behind with %s", again.Node, again.Fingerprint, out[0].Fingerprint)
	}
}

// Among findings of one severity the one that asks to lead is kept; a more
// severe one still comes first.
func TestFoldLead(t *testing.T) {
	rules := []*Rule{{ID: "RS011"}}
	at := func(line int) n8nschema.Pos { return n8nschema.Pos{Line: line, Col: 1} }
	mk := func(node string, line int, sev Severity, lead bool) Finding {
		return Finding{RuleID: "RS011", File: "a.json", Workflow: "A", Node: node, Pos: at(line), Severity: sev,
			Message: node + " drops", FoldKey: "a.json\x01\x01", FoldLead: lead}
	}
	fs := []Finding{mk("Name", 3, Note, false), mk("Method", 5, Note, true), mk("Body", 7, Note, true)}
	if out := Fold(slices.Clone(fs), rules); len(out) != 1 || out[0].Node != "Method" {
		t.Errorf("Fold kept %v, want one finding at Method", out)
	}
	fs[0].Severity = Warning
	if out := Fold(slices.Clone(fs), rules); len(out) != 1 || out[0].Node != "Name" {
		t.Errorf("with Name a warning, Fold kept %v, want Name", out)
	}
}
