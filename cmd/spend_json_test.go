package cmd

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAuditJSONSpend checks the spend figures of operations in the JSON
// report: the support agent's OpenAI Chat Model (gpt-4o-mini, no cap) is
// 10 agent calls × 3 attempts (the agent's retries; the model sends one
// request per try) × 16384 tokens × $0.60/1M per item.
func TestAuditJSONSpend(t *testing.T) {
	path := filepath.Join("..", "testdata", "examples", "support-chat-agent.json")
	code, out, errOut := runWith(t, nil, "audit", "--format", "json", "--fail-on", "never", "--items", "10", path)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Workflows []struct {
			Operations []struct {
				Node      string
				Model     string
				PerItem   *float64 `json:"spend_per_item_usd"`
				PerExec   *float64 `json:"spend_per_execution_usd"`
				Paid      bool
				Unbounded bool
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	type spend struct {
		Model            string
		PerItem, PerExec float64
	}
	got := map[string]spend{}
	for _, w := range doc.Workflows {
		for _, op := range w.Operations {
			if !op.Paid {
				if op.PerItem != nil || op.PerExec != nil || op.Model != "" {
					t.Errorf("unpaid operation %q has spend figures", op.Node)
				}
				continue
			}
			s := spend{Model: op.Model}
			if op.PerItem != nil && op.PerExec != nil {
				s.PerItem, s.PerExec = *op.PerItem, *op.PerExec
			}
			got[op.Node] = s
		}
	}
	want := map[string]spend{"OpenAI Chat Model": {Model: "gpt-4o-mini", PerItem: 0.294912, PerExec: 2.94912}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paid operations (-want +got):\n%s", diff)
	}
}
