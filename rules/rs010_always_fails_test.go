package rules

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestRS010SharedTail: k failing nodes in parallel before one tail of m
// nodes are k findings; their walks after the nodes share one budget, so
// the work stays linear and the last ones say "and more", or only that
// the execution stops there, rather than walking the tail again.
func TestRS010SharedTail(t *testing.T) {
	const k, m = 300, 300
	nodes := []string{`{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "x"}}`}
	conns := []string{}
	var fan []string
	for i := range k {
		nodes = append(nodes, fmt.Sprintf(`{"name": "F%d", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "position": [0, 0], "parameters": {"documentId": {"__rl": true, "mode": "id", "value": "1abc"}, "sheetName": {"__rl": true, "mode": "list", "value": "gid=0"}}, "credentials": {"googleSheetsApi": {"id": "1", "name": "S"}}}`, i))
		fan = append(fan, fmt.Sprintf(`{"node": "F%d", "type": "main", "index": 0}`, i))
		conns = append(conns, fmt.Sprintf(`"F%d": {"main": [[{"node": "T0", "type": "main", "index": 0}]]}`, i))
	}
	conns = append(conns, `"Hook": {"main": [[`+strings.Join(fan, ",")+`]]}`)
	for i := range m {
		nodes = append(nodes, fmt.Sprintf(`{"name": "T%d", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}`, i))
		if i+1 < m {
			conns = append(conns, fmt.Sprintf(`"T%d": {"main": [[{"node": "T%d", "type": "main", "index": 0}]]}`, i, i+1))
		}
	}
	src := `{"nodes": [` + strings.Join(nodes, ",") + `], "connections": {` + strings.Join(conns, ",") + `}}`
	f := n8nschema.Parse(n8nschema.NewSource("tail.json", []byte(src)))
	fs := analyze.Run(analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions()), []*analyze.Rule{rs010})
	if len(fs) != k {
		t.Fatalf("%d findings, want %d", len(fs), k)
	}
	full, cut := 0, 0
	for _, fd := range fs {
		switch {
		case strings.HasSuffix(fd.Message, `; "T0", "T1" and 298 more never run`):
			full++
		case strings.HasSuffix(fd.Message, `; "T0", "T1" and more never run`), strings.HasSuffix(fd.Message, "; the execution stops there"):
			cut++
		default:
			t.Errorf("unexpected message: %s", fd.Message)
		}
	}
	// The budget is 4 × (nodes + edges) edges read, 1 + k + m nodes and
	// 2k + m - 1 edges; each full walk reads m edges.
	if full == 0 || cut == 0 || full > 4*(3*k+2*m)/m {
		t.Errorf("%d full walks and %d cut, want a few full ones, the rest cut", full, cut)
	}
}

// relatedSaid is the first related place's message of a fixture
// TestRS010UnloadableFix reads.
var relatedSaid = map[string]string{
	"types_spelled_in_other_case":                       `node "Generate Tip" is of type "n8n-nodes-base.openai", which n8n does not ship; n8n ships it as "n8n-nodes-base.openAi"`,
	"type_spelled_in_other_case_after_an_unshipped_one": `node "Store Incident Report" is of type "n8n-nodes-base.mongodb", which n8n does not ship; n8n ships it as "n8n-nodes-base.mongoDb"`,
}

// TestRS010UnloadableFix: the repair a workflow n8n cannot build names,
// and the other nodes it holds of types n8n does not ship as related places.
func TestRS010UnloadableFix(t *testing.T) {
	for _, c := range []struct {
		fixture, fix string
		related      int
		behind       int // findings after the first: nodes behind it with a defect of their own
	}{
		{"types_spelled_in_other_case", `Set the type of "Get Users" to "n8n-nodes-base.mongoDb", the spelling n8n ships; also set the type of "Generate Tip" to "n8n-nodes-base.openAi"`, 1, 0},
		// A node after the first is named with its spelling too.
		{"type_spelled_in_other_case_after_an_unshipped_one", `Replace "Fetch Weather Data" with a node of a type n8n ships, or of an installed community package (whose types name that package); also set the type of "Store Incident Report" to "n8n-nodes-base.mongoDb"`, 1, 0},
		{"start_node_beside_a_webhook", `Delete the Start node "Start": it starts nothing`, 0, 0},
		{"start_node_of_a_called_workflow", `Replace the Start node "Start" with an Execute Workflow Trigger (n8n-nodes-base.executeWorkflowTrigger), since another workflow calls this one`, 0, 0},
		{"start_node_runs_the_workflow", `Replace the Start node "Start" with a Manual Trigger (n8n-nodes-base.manualTrigger)`, 0, 0},
		{"trigger_n8n_does_not_ship", `Replace "User Habit Submission" with a node of a type n8n ships, or of an installed community package (whose types name that package)`, 0, 0},
		// The fix leads with the first reason, the one the message names.
		{"agent_with_no_chat_model", `Connect an enabled chat model sub-node to "Digest Agent", or remove the node if it is unfinished`, 0, 1},
		// An authentication v2 does not offer builds no request: its fix
		// comes before the URL's.
		{"http_request_v2_with_unknown_authentication", `Set Authentication of "Fetch consumption" to one HTTP Request v2 offers (None, Predefined Credential Type or Generic Credential Type; it has no "apiKey") and pick the credential there`, 0, 0},
		{"http_request_v2_unknown_authentication_and_a_literal_url", `Set Authentication of "Send SMS" to one HTTP Request v2 offers (None, Predefined Credential Type or Generic Credential Type; it has no "basicAuth") and pick the credential there; then start the URL of "Send SMS" with "=" so that n8n evaluates its {{ }}`, 0, 0},
		{"http_request_v2_broken_json_and_unknown_authentication", `Write the JSON parameters of "Log reading" as valid JSON: computed values go inside {{ }} (in quotes for text, or {{ JSON.stringify(...) }} for any value), and JSON allows no trailing comma; or set Body Content Type to RAW/Custom for a body that is not JSON; then set Authentication of "Log reading" to one HTTP Request v2 offers (None, Predefined Credential Type or Generic Credential Type; it has no "headerAuth") and pick the credential there`, 0, 0},
		{"agent_without_prompt_and_a_retired_model", `Set the prompt of "AI Agent" to Define below (promptType "define") with the text it should read from the items it is fed; then move "Gemini" to a model Google still serves: "gemini-2.0-flash-lite-001" stopped answering on 2026-06-01`, 0, 0},
	} {
		path := "testdata/RS010/" + c.fixture + ".json"
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := n8nschema.Parse(n8nschema.NewSource(path, src))
		fs := analyze.Run(analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions()), []*analyze.Rule{rs010})
		if want := 1 + c.behind; len(fs) != want {
			t.Fatalf("%s: %d findings, want %d", c.fixture, len(fs), want)
		}
		if fs[0].Fix != c.fix || len(fs[0].Related) != c.related {
			t.Errorf("%s: fix %q and %d related places, want %q and %d", c.fixture, fs[0].Fix, len(fs[0].Related), c.fix, c.related)
		}
		// The related place names the type n8n ships, where it has one.
		if want, ok := relatedSaid[c.fixture]; ok && (len(fs[0].Related) == 0 || fs[0].Related[0].Message != want) {
			t.Errorf("%s: related %+v, want first %q", c.fixture, fs[0].Related, want)
		}
	}
}

// TestRS010RetiredModelFoldsPerFile: one shut-down model behind three
// chains is one finding per workflow (oneFixKey); the same workflow copied
// into another file, with its id, is reported there too, under a
// fingerprint of its own.
func TestRS010RetiredModelFoldsPerFile(t *testing.T) {
	src, err := os.ReadFile("testdata/RS010/retired_model_behind_three_chains_one_finding.json")
	if err != nil {
		t.Fatal(err)
	}
	withID := strings.Replace(string(src), `"name":`, `"id": "wf1", "name":`, 1)
	var files []*n8nschema.File
	for _, name := range []string{"a.json", "b.json"} {
		files = append(files, n8nschema.Parse(n8nschema.NewSource(name, []byte(withID))))
	}
	set := analyze.Build(files, analyze.DefaultOptions())
	out := analyze.Filter(set, analyze.Run(set, []*analyze.Rule{rs010}), analyze.FilterOptions{Rules: []*analyze.Rule{rs010}}).Findings
	if len(out) != 2 || out[0].File == out[1].File {
		t.Fatalf("%d findings, want one in each file", len(out))
	}
	for _, f := range out {
		if len(f.Related) != 2 || !strings.HasSuffix(f.Message, `; 2 more nodes of the workflow call "gemini-2.5-flash-preview-05-20"`) {
			t.Errorf("%s: %q with %d related places, want 2 more nodes", f.File, f.Message, len(f.Related))
		}
	}
	if out[0].Fingerprint == out[1].Fingerprint {
		t.Errorf("the two files' findings share fingerprint %s", out[0].Fingerprint)
	}
}

// TestRS010DecidedGateRelatesFaultsBehind: a decided gate's finding adds
// each node behind its dead output that fails on its own (failsIfReached)
// as a related place, the ones its message counts too; a gate with
// nothing failing behind it adds none.
func TestRS010DecidedGateRelatesFaultsBehind(t *testing.T) {
	for fixture, want := range map[string][]string{
		"literal_if_holds_back_nodes_that_fail.json":        {"Geocode", "Post result", "Read key"},
		"literal_if_holds_back_nodes_that_do_not_fail.json": nil,
	} {
		src, err := os.ReadFile("testdata/RS010/" + fixture)
		if err != nil {
			t.Fatal(err)
		}
		f := n8nschema.Parse(n8nschema.NewSource(fixture, src))
		fs := analyze.Run(analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions()), []*analyze.Rule{rs010})
		if len(fs) != 1 {
			t.Fatalf("%s: %d findings, want 1", fixture, len(fs))
		}
		var got []string
		for _, r := range fs[0].Related {
			name, _, _ := strings.Cut(strings.TrimPrefix(r.Message, `node "`), `"`)
			got = append(got, name)
			if !strings.Contains(r.Message, " would fail on every run that reaches it, once the gate lets items through: ") {
				t.Errorf("%s: related %q", fixture, r.Message)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: related %q, want %q", fixture, got, want)
		}
	}
}
