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

// TestOwnWriteTriggerAgrees: a workflow that writes where its own polling
// trigger watches re-starts itself; RS102 reports the writer, and the JSON
// report marks the workflow and the calls on that cycle unbounded. A write
// that does not fire the trigger again leaves both quiet.
func TestOwnWriteTriggerAgrees(t *testing.T) {
	r := run(t, "audit", "--format", "json", "--fail-on", "never", filepath.Join("..", "rules", "testdata", "RS102", "trigger_on_own_writes.json"))
	var rep struct {
		Workflows []struct {
			Name      string `json:"name"`
			Unbounded bool   `json:"unbounded"`
		} `json:"workflows"`
		Findings []struct {
			Rule     string `json:"rule"`
			Workflow string `json:"workflow"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	rs102 := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Rule == "RS102" {
			rs102[f.Workflow] = true
		}
	}
	want := map[string]bool{"Enrich updated pages": true, "Log new rows elsewhere": true, "Convert new files in place": true,
		"Mark processed rows": false, "Caption new records": false, "Copy new rows to another document": false}
	for _, w := range rep.Workflows {
		if w.Unbounded != want[w.Name] || rs102[w.Name] != want[w.Name] {
			t.Errorf("%s: unbounded %v, RS102 %v; want %v in both", w.Name, w.Unbounded, rs102[w.Name], want[w.Name])
		}
	}
}
