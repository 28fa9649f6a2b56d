package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stormcheck/stormcheck/internal/schematest"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

func compileReportSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, filepath.Join("..", "docs", "report.schema.json"), true)
}

func validateReport(t *testing.T, sch *jsonschema.Schema, what, out string) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%s: not JSON: %v", what, err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("%s does not match docs/report.schema.json:\n%v", what, err)
	}
}

// TestReportSchema validates real JSON reports against docs/report.schema.json:
// the examples with their repairs, broken inputs (no position, folded
// findings with related places), and the schema rejects a report that lacks
// a field.
func TestReportSchema(t *testing.T) {
	sch := compileReportSchema(t)
	examples := filepath.Join("..", "testdata", "examples")
	for _, args := range [][]string{
		{examples},
		{"--unsafe-fixes", examples},
		{td("broken_connection.json"), td("trailing_garbage.json"), td("notes_only")},
		{"--min-severity", "error", examples},
	} {
		r := run(t, append([]string{"audit", "--format", "json", "--fail-on", "never"}, args...)...)
		validateReport(t, sch, strings.Join(args, " "), r.stdout)
	}
	// A file that cannot be read has no line.
	dir := t.TempDir()
	copyTestdata(t, "clean.json", filepath.Join(dir, "a.json"))
	if err := os.Symlink(filepath.Join(dir, "gone.json"), filepath.Join(dir, "b.json")); err == nil {
		r := run(t, "audit", "--format", "json", "--fail-on", "never", dir)
		validateReport(t, sch, "an unreadable input", r.stdout)
	}

	r := run(t, "audit", "--format", "json", "--fail-on", "never", examples)
	broken := strings.Replace(r.stdout, `"related": [`, `"related_places": [`, 1)
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(broken))
	if err != nil {
		t.Fatal(err)
	}
	if sch.Validate(v) == nil {
		t.Error("the schema accepts a finding without related (and with an unknown field)")
	}
}

// TestReportSchemaCorpus validates the report of the whole real corpus.
func TestReportSchemaCorpus(t *testing.T) {
	real := sharedtest.Path(t, "corpus", "n8n-real")
	sch := compileReportSchema(t)
	r := run(t, "audit", "--format", "json", "--fail-on", "never", real)
	validateReport(t, sch, "the corpus report", r.stdout)
}
