package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestRS101Options checks that the budget and the fleet flags change the
// finding: its presence, its severity and the fleet figure.
func TestRS101Options(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "RS101", "agent_caller.json"))
	if err != nil {
		t.Fatal(err)
	}
	f := n8nschema.Parse(n8nschema.NewSource("agent_caller.json", src))
	tests := []struct {
		name                                     string
		maxAttempts, items, workers, concurrency int
		want                                     []string
	}{
		{"within budget", 15, 1, 1, 10, nil},
		{"over budget", 14, 1, 1, 10, []string{`warning: node "OpenAI Chat Model" makes up to 15 attempts per logical operation (the attempts count 5 tries of node "Run triage agent" of workflow "Intake", which runs this workflow), over the budget of 14; 15 attempts × 1 item × 1 worker × 10 concurrency = 150 requests in flight against "openai"`}},
		{"three times the budget", 5, 5, 2, 3, []string{`error: node "OpenAI Chat Model" makes up to 15 attempts per logical operation (the attempts count 5 tries of node "Run triage agent" of workflow "Intake", which runs this workflow), over the budget of 5; 15 attempts × 5 items × 2 workers × 3 concurrency = 450 requests in flight against "openai"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := analyze.DefaultOptions()
			opts.MaxAttempts, opts.Items, opts.Workers, opts.Concurrency = tt.maxAttempts, tt.items, tt.workers, tt.concurrency
			set := analyze.Build([]*n8nschema.File{f}, opts)
			var got []string
			for _, fd := range analyze.Run(set, []*analyze.Rule{rs101}) {
				got = append(got, fd.Severity.String()+": "+fd.Message)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RS101 mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
