package report_test

import (
	"bytes"
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// TestJSONSameAsEncodingJSON: the JSON writer renders what the real rules
// find, whole and released, in the bytes of report.ReferenceJSON (the
// renderer as it was, on encoding/json).
func TestJSONSameAsEncodingJSON(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result func(testing.TB) *report.Result
	}{
		{"examples", func(tb testing.TB) *report.Result { return whole(corpustest.Dir(tb, "../testdata/examples")) }},
		{"directives", func(tb testing.TB) *report.Result {
			return whole([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("directives.json", []byte(directives)))})
		}},
		{"nodes=1000", func(tb testing.TB) *report.Result { return whole(genFiles(tb, 1000)) }},
		{"n8n-real", corpusResult},
		{"n8n-real released", func(tb testing.TB) *report.Result { return released(tb, corpustest.Fresh(tb, "n8n-real")) }},
		{"n8n-more", func(tb testing.TB) *report.Result { return whole(corpustest.FilesOf(tb, "n8n-more")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := tc.result(t)
			if len(res.Findings) == 0 {
				t.Fatal("no findings: the comparison shows little")
			}
			var got, want bytes.Buffer
			if err := (report.JSON{}).Render(&got, res); err != nil {
				t.Fatal(err)
			}
			if err := report.ReferenceJSON.Render(&want, res); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("JSON differs from encoding/json's:\n%s", firstDiff(want.Bytes(), got.Bytes()))
			}
		})
	}
}

// whole audits files and keeps the set whole.
func whole(files []*n8nschema.File) *report.Result {
	set, out := audit(files)
	return resultOf(files, set, out.Findings)
}
