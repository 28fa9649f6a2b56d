package cmd

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestLoopBoundsAgree: the JSON report's operations and RS103 read one
// decision of the loop analysis. For a loop that a counter ends (read by a
// throwing Code node), one that waits for a person on every trip, and one
// that nothing ends, every operation inside the loop is unbounded exactly
// when RS103 reports the loop.
func TestLoopBoundsAgree(t *testing.T) {
	cases := []struct {
		fixture   string
		unbounded bool
	}{
		{"RS301/model_fallback_counter.json", false},
		{"RS504/list_drained.json", false},
		{"RS103/human_approval_loop.json", false},
		{"RS103/retry_loop_429.json", true},
		{"RS301/agent_in_unguarded_loop.json", true},
		{"RS103/agent_is_its_own_tool.json", true},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			r := run(t, "audit", "--format", "json", "--fail-on", "never", filepath.Join("..", "rules", "testdata", c.fixture))
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
			}
			var rep struct {
				Workflows []struct {
					Unbounded  bool `json:"unbounded"`
					Operations []struct {
						Node      string `json:"node"`
						Unbounded bool   `json:"unbounded"`
					} `json:"operations"`
				} `json:"workflows"`
				Findings []struct {
					Rule string `json:"rule"`
				} `json:"findings"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatal(err)
			}
			rs103 := false
			for _, f := range rep.Findings {
				rs103 = rs103 || f.Rule == "RS103"
			}
			loopOps := 0
			for _, w := range rep.Workflows {
				for _, op := range w.Operations {
					if op.Unbounded {
						loopOps++
					}
				}
			}
			if rs103 != c.unbounded || (loopOps > 0) != c.unbounded {
				t.Errorf("RS103 reports the loop: %v; unbounded operations: %d; want the loop unbounded = %v in both", rs103, loopOps, c.unbounded)
			}
		})
	}
}
