// Package schematest compiles a JSON Schema file for tests that validate
// stormcheck's output against it (the official SARIF schema, the report's).
package schematest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile reads and compiles the schema at path, failing tb on any error.
// With assertFormat, string formats (uri, date-time) are checked too.
func Compile(tb testing.TB, path string, assertFormat bool) *jsonschema.Schema {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	if assertFormat {
		c.AssertFormat()
	}
	name := filepath.Base(path)
	if err := c.AddResource(name, doc); err != nil {
		tb.Fatal(err)
	}
	sch, err := c.Compile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return sch
}
