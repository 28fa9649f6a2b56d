package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stormcheck/stormcheck/internal/schematest"
)

// TestSimulateJSONSchema: simulate's JSON names its version and schema,
// and one run and a --compare both follow docs/simulate.schema.json; a
// document that lacks a field does not.
func TestSimulateJSONSchema(t *testing.T) {
	sch := schematest.Compile(t, filepath.Join("..", "docs", "simulate.schema.json"), true)
	examples := filepath.Join("..", "testdata", "examples")
	for _, args := range [][]string{
		{"--outage", "openai:60s", "--executions", "20"},
		{"--outage", "openai:60s", "--outage", "api.payments.example.com:30s", "--rate", "10/min", "--failure", "timeout"},
		{"--outage", "openai:60s", "--executions", "20", "--compare", "--unsafe-fixes"},
	} {
		r := run(t, append(append([]string{"simulate", "--format", "json"}, args...), examples)...)
		if r.code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		if !strings.HasPrefix(r.stdout, "{\n  \"version\": 1,\n  \"schema\": \"https://github.com/stormcheck/stormcheck/blob/main/docs/simulate.schema.json\",\n") {
			t.Errorf("%v: no version and schema first:\n%.200s", args, r.stdout)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
		if err != nil {
			t.Fatalf("%v: not JSON: %v", args, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%v does not match docs/simulate.schema.json:\n%v", args, err)
		}
		broken := strings.Replace(r.stdout, `"peak_waiting"`, `"peak_queued"`, 1)
		if v, _ := jsonschema.UnmarshalJSON(strings.NewReader(broken)); sch.Validate(v) == nil {
			t.Errorf("%v: the schema takes a document with a renamed field", args)
		}
	}
}

// TestSimulateSaysWhyNoWorkflow: inputs without a workflow get the
// findings that say why (invalid JSON, not a workflow), not only "no
// workflow found".
func TestSimulateSaysWhyNoWorkflow(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"truncated.json": `{"name": "x", "nodes": [`, "settings.json": `{"theme": "dark"}`})
	r := run(t, "simulate", "--outage", "openai:60s", filepath.Join(dir, "truncated.json"), filepath.Join(dir, "settings.json"))
	for _, want := range []string{
		"no workflow found in the inputs (2 files read):\n",
		"truncated.json:1:25: error: invalid JSON: unexpected end of file",
		"[RS001 invalid-json]\n",
		`settings.json:1:1: error: object with keys "theme" is not an n8n workflow`,
		"[RS002 not-a-workflow]\n",
	} {
		if r.code != ExitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("exit %d, stderr lacks %q:\n%s", r.code, want, r.stderr)
		}
	}
}
