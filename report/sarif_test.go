package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/schematest"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// compileSARIFSchema loads the official SARIF 2.1.0 schema; it skips the test
// when ../shared is absent, and fails when CI is set.
func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, sharedtest.Path(t, "reference", "sarif-schema-2.1.0.json"), true)
}

// TestSARIFGoldensValidate validates every SARIF golden against the schema.
func TestSARIFGoldensValidate(t *testing.T) {
	sch := compileSARIFSchema(t)
	files, err := filepath.Glob("testdata/*.sarif")
	if err != nil || len(files) == 0 {
		t.Fatalf("no SARIF goldens (%v)", err)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s does not validate: %v", p, err)
		}
	}
}

// TestSARIFSchemaCatchesErrors makes sure the validation above can fail.
func TestSARIFSchemaCatchesErrors(t *testing.T) {
	sch := compileSARIFSchema(t)
	bad := `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(bad)))
	if err := sch.Validate(inst); err == nil {
		t.Error("a result with level \"fatal\" validated")
	}
}

type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				SemanticVersion string `json:"semanticVersion"`
				Rules           []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID              string            `json:"ruleId"`
			RuleIndex           int               `json:"ruleIndex"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Locations           []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			CodeFlows []struct {
				ThreadFlows []struct {
					Locations []json.RawMessage `json:"locations"`
				} `json:"threadFlows"`
			} `json:"codeFlows"`
		} `json:"results"`
	} `json:"runs"`
}

func TestSARIFShape(t *testing.T) {
	res := fixture(t)
	var doc sarifDoc
	if err := json.Unmarshal(render(t, "sarif", Options{}, res), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(doc.Runs))
	}
	run := doc.Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	// Every rule, not only those that fired (RS201 and RS304 fire nowhere
	// after ignores and the baseline).
	if diff := cmp.Diff([]string{"RS006", "RS010", "RS101", "RS102", "RS104", "RS201", "RS304", "RS402"}, ids); diff != "" {
		t.Errorf("driver rules (-want +got):\n%s", diff)
	}
	if got := run.Tool.Driver.SemanticVersion; got != "1.2.3" {
		t.Errorf("semanticVersion = %q, want 1.2.3", got)
	}
	seen := map[string]bool{}
	for _, r := range run.Results {
		if ids[r.RuleIndex] != r.RuleID {
			t.Errorf("result %s has ruleIndex %d, which is %s", r.RuleID, r.RuleIndex, ids[r.RuleIndex])
		}
		fp := r.PartialFingerprints["primaryLocationLineHash"]
		if fp == "" || seen[fp] {
			t.Errorf("result %s: fingerprint %q empty or repeated", r.RuleID, fp)
		}
		seen[fp] = true
	}
	if got := run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "workflows/error%20handlers/summarise.json" {
		t.Errorf("first URI = %q", got)
	}
	// The RS102 chain has three factors: one thread-flow location each.
	for _, r := range run.Results {
		if r.RuleID == "RS102" {
			if n := len(r.CodeFlows[0].ThreadFlows[0].Locations); n != 3 {
				t.Errorf("RS102 code flow has %d locations, want 3", n)
			}
		}
	}
}

func TestSARIFNoDuplicates(t *testing.T) {
	res := fixture(t)
	res.Findings = append(res.Findings, res.Findings...)
	analyze.SortFindings(res.Findings)
	var doc sarifDoc
	if err := json.Unmarshal(render(t, "sarif", Options{}, res), &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := len(doc.Runs[0].Results), len(fixture(t).Findings); got != want {
		t.Errorf("%d results from doubled findings, want %d", got, want)
	}
}

func TestArtifactURI(t *testing.T) {
	for in, want := range map[string]string{
		"workflows/a.json":          "workflows/a.json",
		"./workflows/a b.json":      "workflows/a%20b.json",
		`dir\sub\x.json`:            "dir/sub/x.json",
		"/abs/x.json":               "file:///abs/x.json",
		"<stdin>":                   "stdin",
		"n8n://host/workflow/abc12": "n8n://host/workflow/abc12",
		"wf#1.json":                 "wf%231.json",
		"c:x.json":                  "c%3Ax.json",
	} {
		if got := artifactURI(in); got != want {
			t.Errorf("artifactURI(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSemanticVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v1.2.3": "1.2.3", "1.0.0-rc.1": "1.0.0-rc.1", "dev": "0.0.0-dev",
		"v0.0.0-20261130085000-abcdef123456": "0.0.0-20261130085000-abcdef123456", "(devel)": "0.0.0-dev",
	} {
		if got := semanticVersion(in); got != want {
			t.Errorf("semanticVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSARIFLocationOnNodeKey(t *testing.T) {
	src := n8nschema.NewSource("d.json", []byte(`{"name": "D", "nodes": [
{"name": "A", "type": "n8n-nodes-base.noOp", "parameters": {"url": "x"}},
{"name": "A", "type": "n8n-nodes-base.noOp", "parameters": {}}], "connections": {}}`))
	file := n8nschema.Parse(src)
	w := file.Workflows[0]
	url, _ := w.Nodes[0].Param("url")
	mk := func(pos n8nschema.Pos) analyze.Finding {
		return analyze.Finding{RuleID: "RS004", RuleName: "duplicate-node-name", Severity: analyze.Warning, File: "d.json", Source: src,
			Workflow: "D", Node: "A", Pos: pos, Message: "m", Fingerprint: "f"}
	}
	res := wholeResult(&analyze.Set{Files: []*n8nschema.File{file}, Workflows: file.Workflows},
		[]analyze.Finding{mk(url.Pos()), mk(w.Nodes[1].Pos)})
	var doc struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine, StartColumn int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				RelatedLocations []struct {
					Message struct{ Text string } `json:"message"`
				} `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(render(t, "sarif", Options{}, res), &doc); err != nil {
		t.Fatal(err)
	}
	rs := doc.Runs[0].Results
	// A parameter of the first "A": the alert sits on its name key, with
	// the parameter as a related location.
	if got := rs[0].Locations[0].PhysicalLocation.Region; got.StartLine != 2 || got.StartColumn != 2 {
		t.Errorf("first result at %d:%d, want 2:2", got.StartLine, got.StartColumn)
	}
	if len(rs[0].RelatedLocations) != 1 || rs[0].RelatedLocations[0].Message.Text != "`parameters.url` of node \"A\"" {
		t.Errorf("related locations %+v", rs[0].RelatedLocations)
	}
	// The second "A" keeps its own place, not the first node's.
	if got := rs[1].Locations[0].PhysicalLocation.Region; got.StartLine != 3 {
		t.Errorf("second result on line %d, want 3", got.StartLine)
	}
}
