package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestOutsideCallersRelated: a figure that counts a caller's runs or
// retries names the caller as a related place, at the calling node, in
// every rule that prints the figure (outsideOf); a figure that is the
// workflow's own names none.
func TestOutsideCallersRelated(t *testing.T) {
	cases := []struct {
		fixture, rule, node string
		want                []string // line: message
	}{
		{"RS302/model_of_a_workflow_an_agent_calls_as_a_tool.json", "RS302", "Sub Model", []string{
			`71: node "Documents", a tool of agent "Manager" in workflow "Manager Agent", runs workflow "Document Agent" up to 10 times per item`,
		}},
		{"RS302/model_two_agents_away.json", "RS302", "Sub Model", []string{
			`201: node "Summarise site", a tool of agent "Sub Agent" in workflow "Research Agent", runs workflow "Summarise site" up to 10 times per item`,
			`71: node "Documents", a tool of agent "Manager" in workflow "Manager Agent", runs workflow "Research Agent" up to 10 times per item`,
		}},
		{"RS302/model_of_a_workflow_a_main_node_runs.json", "RS302", "Sub Model", nil},
		{"RS104/caller_retry_in_another_workflow.json", "RS104", "Get orders", []string{
			`35: 3 tries of node "Fetch orders" of workflow "Import", which runs this workflow`,
		}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			path := filepath.Join("testdata", c.fixture)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := n8nschema.Parse(n8nschema.NewSource(filepath.Base(path), src))
			set := analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions())
			found := false
			for _, fd := range analyze.Run(set, All()) {
				if fd.RuleID != c.rule || fd.Node != c.node {
					continue
				}
				found = true
				var got []string
				for _, r := range fd.Related {
					got = append(got, fmt.Sprintf("%d: %s", r.Pos.Line, r.Message))
				}
				if diff := cmp.Diff(c.want, got); diff != "" {
					t.Errorf("related places (-want +got):\n%s", diff)
				}
			}
			if !found {
				t.Fatalf("no %s finding on %q", c.rule, c.node)
			}
		})
	}
}

// A shared sub-node whose roots try a different number of times: the
// attempts in all are each root's calls × its attempts, grouped by tries.
func TestRootAttempts(t *testing.T) {
	root := func(name string, calls, att int) analyze.RootCalls {
		return analyze.RootCalls{Root: &n8nschema.Node{Name: name}, Calls: calls, Attempts: att}
	}
	for _, tc := range []struct {
		by   []analyze.RootCalls
		want string
	}{
		{[]analyze.RootCalls{root("a", 1, 3), root("b", 1, 1)}, "4 attempts in all: 1 root that tries 3 times and 1 that tries once"},
		{[]analyze.RootCalls{root("a", 1, 3), root("b", 1, 3), root("c", 1, 1)}, "7 attempts in all: 2 roots that try 3 times and 1 that tries once"},
		{[]analyze.RootCalls{root("a", 4, 2), root("b", 1, 1), root("c", 2, 1)}, "11 attempts in all: 4 calls from a root that tries 2 times and 3 from roots that try once"},
	} {
		calls := 0
		for _, r := range tc.by {
			calls += r.Calls
		}
		op := &analyze.Operation{SharedBy: tc.by, CallsPerItem: calls, Attempts: 3}
		if !op.RootAttemptsDiffer() {
			t.Fatalf("%v: roots' attempts differ", tc.want)
		}
		if got := rootAttempts(op); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	same := &analyze.Operation{SharedBy: []analyze.RootCalls{root("a", 1, 3), root("b", 1, 3)}, CallsPerItem: 2, Attempts: 3}
	if same.RootAttemptsDiffer() || same.WireAttemptsPerItem() != 6 {
		t.Errorf("roots that try alike: calls × attempts, 6; got %d", same.WireAttemptsPerItem())
	}
}
