package cmd

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGraphMermaid(t *testing.T) {
	r := run(t, "graph", td("graph_seed.json"))
	if r.code != ExitOK || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	want := `flowchart LR
  subgraph w0["Nightly catalog enrichment"]
    n0_0["Start enrichment<br/>webhook"]:::unbounded
    n0_1["OpenAI<br/>openAi<br/>∞ attempts"]:::unbounded
    n0_2["Save<br/>postgres<br/>1 attempt"]
    n0_3["Restart<br/>httpRequest<br/>∞ attempts"]:::unbounded
  end
  n0_0 --> n0_1
  n0_1 --> n0_2
  n0_1 -->|error| n0_3
  n0_3 ==>|webhook| n0_0
  classDef unbounded fill:#fdd,stroke:#c00,stroke-width:2px
  classDef over fill:#ffe8b3,stroke:#c80
  classDef external stroke-dasharray:4 4
  linkStyle 0 stroke:#c00,stroke-width:2px
  linkStyle 2 stroke:#c00,stroke-width:2px
  linkStyle 3 stroke:#c00,stroke-width:2px
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("graph mismatch (-want +got):\n%s", diff)
	}
}

func TestGraphDot(t *testing.T) {
	r := run(t, "graph", "--format", "dot", "--max-attempts", "20", td("graph_pair.json"))
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	want := `digraph stormcheck {
  rankdir=LR;
  node [shape=box, style=rounded, fontname="Helvetica"];
  edge [fontname="Helvetica", fontsize=10];
  subgraph cluster_0 {
    label="Parent";
    n0_0 [label="Every night\nscheduleTrigger"];
    n0_1 [label="Call child\nexecuteWorkflow"];
  }
  n0_0 -> n0_1;
  subgraph cluster_1 {
    label="Child";
    n1_0 [label="When called\nexecuteWorkflowTrigger"];
    n1_1 [label="Post order\nhttpRequest\n15 attempts"];
  }
  n1_0 -> n1_1;
  n0_1 -> n1_0 [label="execute-workflow ×3", style=bold];
}
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("graph mismatch (-want +got):\n%s", diff)
	}
	// Under the default budget of 10 the 15 attempts are highlighted.
	r = run(t, "graph", "-f", "dot", td("graph_pair.json"))
	if !strings.Contains(r.stdout, `n1_1 [label="Post order\nhttpRequest\n15 attempts", color="#cc8800"`) {
		t.Errorf("over-budget node not highlighted:\n%s", r.stdout)
	}
}

func TestGraphUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"graph", "--format", "svg", td("graph_seed.json")}, `--format "svg": want mermaid or dot`},
		{[]string{"graph"}, "graph needs one FILE, got 0 arguments"},
		{[]string{"graph", td("no_workflow")}, "no workflow found in"},
	} {
		r := run(t, tt.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d stderr %q, want %d and %q", tt.args, r.code, r.stderr, ExitUsage, tt.want)
		}
	}
}
