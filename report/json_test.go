package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestIndentAsEncodingJSON: indent gives json.Indent's bytes for what
// json.Encoder writes.
func TestIndentAsEncodingJSON(t *testing.T) {
	var deep any = "deepest" // deeper than indent's row of spaces
	for range 20 {
		deep = []any{1, deep}
	}
	for _, v := range []any{
		deep,
		map[string]any{}, []any{}, map[string]any{"a": []any{}, "b": map[string]any{}},
		map[string]any{"s": "x \"q\" \\ , : { } [ ] \u2028 <&>", "n": nil, "f": 1.5, "l": []any{1, "2", []any{3, []any{}}, map[string]any{"k": true}}},
		"plain", 3, nil, []any{"tail \\", "\\\"", "\\\\", -1.5e-7, false}, jsonWorkflow{Operations: []jsonOperation{{Factors: []jsonFactor{{Kind: "node_retry"}}}}},
	} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		compact := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		for _, prefix := range []string{"", "  ", "    "} {
			var want bytes.Buffer
			if err := json.Indent(&want, compact, prefix, "  "); err != nil {
				t.Fatal(err)
			}
			if got := indent(nil, compact, prefix); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("%s, prefix %q:\n got %s\nwant %s", compact, prefix, got, want.Bytes())
			}
		}
	}
}
