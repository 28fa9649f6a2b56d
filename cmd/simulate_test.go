package cmd

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateSimulate = flag.Bool("update-simulate", false, "rewrite the simulate golden files")

const seedExample = "../testdata/examples/catalog-enrichment.json"

func TestSimulateExitCodes(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		want      int
		stderrHas string
	}{
		{"no outage", []string{"simulate", seedExample}, ExitUsage, "simulate needs --outage"},
		{"no path", []string{"simulate", "--outage", "openai:1m"}, ExitUsage, "simulate needs at least one PATH"},
		{"bad outage", []string{"simulate", seedExample, "--outage", "openai"}, ExitUsage, `--outage "openai": want DEP:DURATION`},
		{"bad duration", []string{"simulate", seedExample, "--outage", "openai:soon"}, ExitUsage, `"soon" is not a positive duration`},
		{"unknown dependency", []string{"simulate", seedExample, "--outage", "stripe:1m"}, ExitUsage,
			`no operation calls "stripe"; the dependencies are: catalog.example.com, n8n.example.com, openai, status.example.com`},
		{"rate and executions", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "5/min", "--executions", "3"}, ExitUsage, "exclude each other"},
		{"bad rate", []string{"simulate", seedExample, "--outage", "openai:1m", "--rate", "5/week"}, ExitUsage, `--rate "5/week"`},
		{"bad failure", []string{"simulate", seedExample, "--outage", "openai:1m", "--failure", "503"}, ExitUsage, `--failure "503"`},
		{"bad format", []string{"simulate", seedExample, "--outage", "openai:1m", "--format", "png"}, ExitUsage, `--format "png"`},
		{"event cap", []string{"simulate", seedExample, "--outage", "openai:1m", "--executions", "100", "--max-events", "1000"}, ExitFailure,
			"too many events: the run passed 1000 events at t="},
		{"ok", []string{"simulate", seedExample, "--outage", "openai:1m"}, ExitOK, ""},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			r := run(t, tt.args...)
			if r.code != tt.want {
				t.Errorf("exit %d, want %d\nstderr:\n%s", r.code, tt.want, r.stderr)
			}
			if tt.stderrHas == "" && r.stderr != "" || !strings.Contains(r.stderr, tt.stderrHas) {
				t.Errorf("stderr %q, want it to contain %q", r.stderr, tt.stderrHas)
			}
		})
	}
}

// The seed incident: OpenAI down for the whole window, the workflow
// re-starting itself through its own webhook after every failed batch.
func TestSimulateGolden(t *testing.T) {
	base := []string{"simulate", seedExample, "--outage", "openai:10m", "--window", "10m", "--seed", "7"}
	for _, format := range []string{"text", "json", "svg"} {
		t.Run(format, func(t *testing.T) {
			r := run(t, append(base, "--format", format)...)
			if r.code != ExitOK || r.stderr != "" {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			golden := filepath.Join("testdata", "simulate", "catalog."+format)
			if *updateSimulate {
				if err := os.WriteFile(golden, []byte(r.stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), r.stdout); diff != "" {
				t.Errorf("%s (-want +got):\n%s", golden, diff)
			}
			if again := run(t, append(base, "--format", format)...); again.stdout != r.stdout {
				t.Error("a second run with the same seed differs")
			}
		})
	}
	r := run(t, append(base, "--format", "json")...)
	var out struct {
		Restarts []struct {
			Node   string
			Count  int
			Active bool `json:"active_at_end"`
		}
		Notes []string
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Restarts) != 1 || out.Restarts[0].Node != "Restart from last batch" || !out.Restarts[0].Active || out.Restarts[0].Count != 28 {
		t.Errorf("restarts %+v", out.Restarts)
	}
	if len(out.Notes) == 0 || !strings.Contains(out.Notes[0], "still re-starting the workflow when the window ended") {
		t.Errorf("notes %q", out.Notes)
	}
}
