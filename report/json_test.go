package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// The JSON writer is held to encoding/json byte for byte: its string and
// float encoders directly, whole documents through referenceJSON (the
// renderer as it was, in json_reference_test.go).

// encodingJSON is what json.Encoder, not escaping HTML, writes of v.
func encodingJSON(t *testing.T, v any) (string, error) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n"), err
}

var jsonStringSeeds = []string{
	"", "plain", `quote " and \ backslash`, "\b\f\n\r\t", "\x00\x01\x1f\x7f", "<script>&amp;</script>",
	"line\u2028para\u2029end", "\xff", "a\xe2\x80", "\xed\xa0\x80", "é ü 日本 🙂", "\ufffd", "\u202e\u200b\ufeff",
	"token=sk-abcdef0123456789abcdef0123456789", "Authorization: Bearer abc.def.ghi",
	// Each escape at several places of an eight-byte word (plain8).
	"0123456\"89abcdef", "01234567\\9abcdef\x01", "abcdefghijklmnop\u2028", "abcdefg\x1f", "abcdefgh\x7f\x80ijklmnop\n",
}

func FuzzJSONString(f *testing.F) {
	for _, s := range jsonStringSeeds {
		f.Add(s)
	}
	f.Add(string([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}))
	f.Fuzz(func(t *testing.T, s string) {
		want, err := encodingJSON(t, s)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(appendJSONString([]byte("x"), s)); got != "x"+want {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json: %s", s, got[1:], want)
		}
	})
}

var jsonFloatSeeds = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 0.768, 0.294912, 7.68, 1e-6, -1e-6, 9.99999e-7, 1e-7, 1.5e-10, 1e-100, 1e20,
	1e21, 9.999999999999999e20, 123456789012345678, 1.7976931348623157e308, 5e-324, math.SmallestNonzeroFloat64 * 3,
}

func FuzzJSONFloat(f *testing.F) {
	for _, v := range jsonFloatSeeds {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return // an error, not a number: TestJSONUnsupportedFloat
		}
		want, err := encodingJSON(t, v)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(appendJSONFloat([]byte("x"), v)); got != "x"+want {
			t.Fatalf("appendJSONFloat(%v) = %s, encoding/json: %s", v, got[1:], want)
		}
	})
}

// FuzzJSONDocument renders a made-up result whose every text is s and
// whose dollar figures come from usd, with both renderers.
func FuzzJSONDocument(f *testing.F) {
	for i, s := range jsonStringSeeds {
		f.Add(s, jsonFloatSeeds[i%len(jsonFloatSeeds)])
	}
	f.Fuzz(func(t *testing.T, s string, usd float64) {
		if math.IsInf(usd, 0) || math.IsNaN(usd) {
			return
		}
		sameAsReference(t, madeUpResult(s, usd))
	})
}

// sameAsReference renders r with JSON and with referenceJSON and wants
// the same bytes and the same error.
func sameAsReference(t *testing.T, r *Result) {
	t.Helper()
	var got, want bytes.Buffer
	gotErr, wantErr := JSON{}.Render(&got, r), referenceJSON{}.Render(&want, r)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("error %v, reference %v", gotErr, wantErr)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("JSON differs from the reference:\n%s\nreference:\n%s", got.Bytes(), want.Bytes())
	}
}

// madeUpResult is a result that takes every branch of the writer: a
// workflow without operations, bounded and unbounded operations and
// factors, a priced call, findings with and without chain, related
// places and repairs, and a repair whose edit shows a secret.
func madeUpResult(s string, usd float64) *Result {
	wf, empty := parsedWorkflow(s+".json", s), parsedWorkflow("empty.json", "")
	src := wf.Source
	factors := []analyze.Factor{{Kind: s, Value: 3, Node: s, Workflow: s}, {Kind: "loop", Unbounded: true}}
	set := &analyze.Set{Workflows: []*n8nschema.Workflow{wf, empty}, Options: analyze.DefaultOptions()}
	set.Options.Items = 7
	set.Operations = []*analyze.Operation{
		{Workflow: wf, Node: wf.Nodes[0], Type: s, Dependency: s, Attempts: 4, CallsPerItem: 2, Factors: factors, Paid: true, Write: true,
			Model: s, MaxOutputTokens: 1024, SpendPerItemUSD: usd, PriceKnown: true},
		{Workflow: wf, Node: wf.Nodes[1], Unbounded: true, CallsUnbounded: true, Paid: true, SpendUnbounded: true, Model: "gpt-4o"},
		{Workflow: wf, Node: wf.Nodes[1], Attempts: 9},
	}
	edit := analyze.Edit{Source: src, Offset: 10, Len: 3, Text: s, Start: n8nschema.Pos{Line: 1, Col: 2}, End: n8nschema.Pos{Line: 3, Col: 4}}
	finding := analyze.Finding{RuleID: "RS" + s, RuleName: s, URL: s, Severity: analyze.Warning, Confidence: analyze.High, File: s,
		Pos: n8nschema.Pos{Line: 12, Col: 5}, Workflow: s, WorkflowID: s, Node: s, Message: s, Fix: s, Fingerprint: s, Chain: factors,
		Related: []analyze.Related{{File: s, Pos: n8nschema.Pos{Line: 1, Col: 1}, Message: s}, {File: "b", Message: "b"}}}
	finding.Repair = &analyze.Repair{Description: s, Safety: analyze.Unsafe, Edits: []analyze.Edit{edit, edit}}
	secret := finding
	secret.Repair = &analyze.Repair{Description: "d", Safety: analyze.Safe, Edits: []analyze.Edit{{Source: src, Text: "Authorization: Bearer abcdef0123456789"}}}
	bare := analyze.Finding{RuleID: "RS001", Severity: analyze.Error, Repair: &analyze.Repair{Safety: analyze.Safe}}
	r := &Result{Tool: Tool{Name: s, Version: s}, Set: set, Findings: []analyze.Finding{finding, secret, bare, {}}}
	r.Summary = Summary{Files: 1, Workflows: 2, Nodes: 3, SkippedFiles: 4, Findings: 5, Errors: 6, Warnings: 7, Notes: 8, Ignored: 9,
		Baselined: 10, BelowConfidence: 11, BelowSeverity: 12, Fixed: 13, Fixable: 14, FixableUnsafe: 15}
	return r
}

// parsedWorkflow parses a workflow of two nodes, the first called name.
func parsedWorkflow(file, name string) *n8nschema.Workflow {
	q, _ := json.Marshal(name)
	f := n8nschema.Parse(n8nschema.NewSource(file, []byte(`{"id": `+string(q)+`, "name": `+string(q)+`, "connections": {}, "nodes": [
		{"name": `+string(q)+`, "type": "n8n-nodes-base.httpRequest", "parameters": {}},
		{"name": "b", "type": "n8n-nodes-base.noOp", "parameters": {}}]}`)))
	return f.Workflows[0]
}

func TestJSONMatchesReference(t *testing.T) {
	for _, s := range jsonStringSeeds {
		for _, usd := range jsonFloatSeeds {
			sameAsReference(t, madeUpResult(s, usd))
		}
	}
	sameAsReference(t, &Result{})
	sameAsReference(t, &Result{Set: &analyze.Set{}})
}

// A dollar figure JSON cannot hold fails the render with encoding/json's
// error, after the same bytes.
func TestJSONUnsupportedFloat(t *testing.T) {
	for _, usd := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64} {
		r := madeUpResult("a", usd)
		sameAsReference(t, r)
		if err := (JSON{}).Render(&bytes.Buffer{}, r); err == nil {
			t.Errorf("%v: no error", usd)
		}
	}
}

// arrayBytes is what jsonWriter.array writes of n elements, flushed also
// when an element fails.
func arrayBytes(n int, elem func(e *jsonEnc, red memo, i int)) (string, error) {
	var b bytes.Buffer
	jw := &jsonWriter{w: bufio.NewWriterSize(&b, 64)}
	jw.array(n, elem)
	err := jw.err
	jw.w.Flush()
	return b.String(), err
}

// TestJSONArrayInBatches: array encodes in batches on two cores; its bytes
// are those of encoding one element after the other, up to one that fails.
func TestJSONArrayInBatches(t *testing.T) {
	fail := errors.New("cannot encode")
	for _, n := range []int{1, 2, jsonBatchLen - 1, jsonBatchLen, jsonBatchLen + 1, 2 * jsonBatchLen, 5*jsonBatchLen + 3} {
		for _, failAt := range []int{-1, 0, 1, jsonBatchLen - 1, jsonBatchLen, jsonBatchLen + 1, 2 * jsonBatchLen, 3*jsonBatchLen + 2, n - 1} {
			if failAt >= n {
				continue
			}
			elem := func(e *jsonEnc, red memo, i int) {
				e.open('{')
				e.key("i").int(i)
				e.key("name").string(red.Redact(fmt.Sprintf("n%d sk-%040d", i%5, i%5)))
				if i == failAt {
					e.err = fail
					return
				}
				e.close('}')
			}
			var want strings.Builder
			want.WriteString("[\n")
			for i := range n {
				want.WriteString("    ")
				if i == failAt {
					break
				}
				fmt.Fprintf(&want, "{\n      \"i\": %d,\n      \"name\": %q\n    }", i, Redact(fmt.Sprintf("n%d sk-%040d", i%5, i%5)))
				if i < n-1 {
					want.WriteString(",\n")
				} else {
					want.WriteString("\n")
				}
			}
			if failAt < 0 {
				want.WriteString("  ]")
			}
			got, err := arrayBytes(n, elem)
			if got != want.String() {
				t.Errorf("n=%d, failing at %d: got\n%s\nwant\n%s", n, failAt, got, want.String())
			}
			if (err != nil) != (failAt >= 0) {
				t.Errorf("n=%d, failing at %d: err %v", n, failAt, err)
			}
		}
	}
}

// TestJSONArrayPanics: a panic while encoding, on either core, is raised
// by array; neither worker waits for the other forever.
func TestJSONArrayPanics(t *testing.T) {
	n := 6 * jsonBatchLen
	for _, at := range []int{0, jsonBatchLen, 2*jsonBatchLen + 1, 3*jsonBatchLen + 5, n - 1} {
		done := make(chan any, 1)
		go func() {
			defer func() { done <- recover() }()
			arrayBytes(n, func(e *jsonEnc, red memo, i int) {
				if i == at {
					panic("boom")
				}
				e.int(i)
			})
		}()
		select {
		case r := <-done:
			if r == nil {
				t.Errorf("panic at element %d: array returned", at)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("panic at element %d: array never returned", at)
		}
	}
}
