package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
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
  n0_1 -->|"error"| n0_3
  n0_3 ==>|"webhook"| n0_0
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

// TestGraphHostileNames: node names, the workflow name and connection-type
// keys are the workflow's; in Mermaid and DOT they stay inside their quoted
// labels, so every line is one we write, and a token in a name is redacted.
func TestGraphHostileNames(t *testing.T) {
	evilType := "ai_x|\"] \nclick n0_0 href \"javascript:alert(1)\"\n`" + "``\n%%"
	names := []string{"A\"]\nclick n0_1 href \"javascript:alert(1)\"", "B\x1b[2J\r\n::error::x", "C Bearer s3cr3tT0kenABCDEFGH42", "D \\\" -> x [label=\"y"}
	var nodes []map[string]any
	for i, n := range names {
		nodes = append(nodes, map[string]any{"id": string(rune('a' + i)), "name": n, "type": "n8n-nodes-base.noOp",
			"typeVersion": 1, "position": []int{i * 200, 0}, "parameters": map[string]any{}})
	}
	conns := map[string]any{
		names[0]: map[string]any{"main": [][]map[string]any{{{"node": names[1], "type": "main", "index": 0}}}},
		names[2]: map[string]any{evilType: [][]map[string]any{{{"node": names[3], "type": evilType, "index": 0}}}},
	}
	src, err := json.Marshal(map[string]any{"name": "W\n::error::`w", "nodes": nodes, "connections": conns})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "evil.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	label := `"[^"\x00-\x1f\x7f` + "`" + `]*"`
	mermaidLine := regexp.MustCompile(`^(flowchart LR|  subgraph w\d+\[` + label + `\]|  end|    n\d+_\d+\[` + label + `\](:::\w+)?|` +
		`  n\d+_\d+ (-->|-\.->|==>)(\|` + label + `\|)? [nx]\d+(_\d+)?|  classDef \w+ [^"]*|  linkStyle \d+ [^"]*)$`)
	dotString := `"(?:[^"\\\x00-\x1f\x7f]|\\.)*"`
	dotLine := regexp.MustCompile(`^(digraph stormcheck \{|  rankdir=LR;|  (node|edge) \[.*\];|  subgraph cluster_\d+ \{|    label=` + dotString + `;|  \}|\}|` +
		`    n\d+_\d+ \[label=` + dotString + `(, [a-z]+=("#?\w+"|\d+|"rounded,filled"))*\];|` +
		`  n\d+_\d+ -> n\d+_\d+( \[label=` + dotString + `(, [a-z]+=("#?\w+"|\w+))*\])?;)$`)
	for _, tt := range []struct {
		format string
		line   *regexp.Regexp
	}{{"mermaid", mermaidLine}, {"dot", dotLine}} {
		r := run(t, "graph", "-f", tt.format, path)
		if r.code != ExitOK {
			t.Fatalf("%s: exit %d, stderr %q", tt.format, r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		for _, l := range lines {
			if !tt.line.MatchString(l) {
				t.Errorf("%s: a line we did not write: %q", tt.format, l)
			}
		}
		if strings.Contains(r.stdout, "s3cr3tT0ken") {
			t.Errorf("%s shows a token from a node name:\n%s", tt.format, r.stdout)
		}
		if n := len(regexp.MustCompile(`(?m)^  n\d+_\d+ (-->|-\.->|->)[ |]`).FindAllString(r.stdout, -1)); n != 2 {
			t.Errorf("%s: %d edges, want 2:\n%s", tt.format, n, r.stdout)
		}
	}
}

// TestGraphNamelessWorkflow: a workflow with neither name nor id gets its
// file as the title; Mermaid rejects an empty one (subgraph w0[""]).
func TestGraphNamelessWorkflow(t *testing.T) {
	wd := workspace(t, map[string]string{
		"flows/x.json": `{"nodes": [{"name": "Start", "type": "n8n-nodes-base.manualTrigger", "parameters": {}}], "connections": {}}`,
	})
	r := auditIn(t, wd, "graph", "--format", "mermaid", filepath.Join(wd, "flows", "x.json"))
	if r.code != ExitOK || !strings.Contains(r.stdout, "  subgraph w0[\"unnamed workflow in flows/x.json\"]\n") || strings.Contains(r.stdout, `[""]`) {
		t.Errorf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = auditIn(t, wd, "graph", "--format", "dot", filepath.Join(wd, "flows", "x.json"))
	if !strings.Contains(r.stdout, `label="unnamed workflow in flows/x.json";`) {
		t.Errorf("dot:\n%s", r.stdout)
	}
}

// TestGraphRefIsRedacted: a reference to a workflow outside the set is drawn
// as an external node; a token in it (an id, a webhook path) is masked there
// as everywhere else.
func TestGraphRefIsRedacted(t *testing.T) {
	token := "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	wd := workspace(t, map[string]string{
		"w.json": `{"name": "W", "nodes": [
  {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}},
  {"name": "Call", "type": "n8n-nodes-base.executeWorkflow", "typeVersion": 1, "position": [200, 0], "parameters": {"workflowId": "` + token + `"}},
  {"name": "Hook", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [400, 0], "parameters": {"method": "POST", "url": "http://localhost:5678/webhook/` + token + `"}}],
 "connections": {"Start": {"main": [[{"node": "Call", "type": "main", "index": 0}]]}, "Call": {"main": [[{"node": "Hook", "type": "main", "index": 0}]]}}}`,
	})
	for _, format := range []string{"mermaid", "dot"} {
		r := auditIn(t, wd, "graph", "--format", format, filepath.Join(wd, "w.json"))
		if r.code != ExitOK || !strings.Contains(r.stdout, "not in the set") {
			t.Fatalf("%s: exit %d, no external node:\n%s%s", format, r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, "4eC39HqLyjWDarjtT1zdp7dc") {
			t.Errorf("%s shows the token of a reference:\n%s", format, r.stdout)
		}
	}
}

// TestGraphSaysWhyNoWorkflow: a file that does not parse names the place
// and the parser's reason, as audit's RS001 finding does.
func TestGraphSaysWhyNoWorkflow(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cut.json")
	if err := os.WriteFile(p, []byte("{\"name\": \"x\",\n \"nodes\": [\"a\nb\"]}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "graph", p)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "cut.json:2:") || !strings.Contains(r.stderr, "invalid JSON") {
		t.Errorf("exit %d, stderr %q; want %d, the place and the reason", r.code, r.stderr, ExitUsage)
	}
}

// TestGraphDrawsUnrunEdges: a connection stored at an output the node does
// not have (main[1] of an HTTP Request) is drawn dotted, "never runs".
func TestGraphDrawsUnrunEdges(t *testing.T) {
	fx := filepath.Join("..", "rules", "testdata", "RS403", "notify_on_an_output_the_node_lacks.json")
	r := run(t, "graph", fx)
	if r.code != ExitOK || !strings.Contains(r.stdout, "  n0_1 --> n0_2\n  n0_1 -.->|\"never runs\"| n0_3\n") {
		t.Errorf("exit %d, mermaid:\n%s", r.code, r.stdout)
	}
	r = run(t, "graph", "-f", "dot", fx)
	if r.code != ExitOK || !strings.Contains(r.stdout, `n0_1 -> n0_3 [label="never runs", style=dotted];`) {
		t.Errorf("exit %d, dot:\n%s", r.code, r.stdout)
	}
}
