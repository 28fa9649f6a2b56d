package report

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestAppenderAsEncodingJSON: the appender writes the workflows and
// findings as json.Encoder and indent do (encode), with strings of every
// kind: escapes, control bytes, invalid UTF-8, U+2028, long plain runs.
func TestAppenderAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"", "plain text", "a\"q\"", `back\slash`, "\n\r\t\b\f", "\x00\x01\x1f\x7f", "<&>", "\u2028\u2029",
		"héllo wörld ✓ 🙂", "\xff\xfe", "\xe2\x80", "0123456789abcdefghij", "é", strings.Repeat("x", 37)}
	str := func() string {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	ip := func() *int {
		if r.IntN(3) == 0 {
			return nil
		}
		v := r.IntN(2000) - 1000
		return &v
	}
	floats := []float64{0, 1, -1, 0.5, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 1e20, 1e21, 1.234567e22, 123.456789, -3.25e-8, 0.000001}
	fp := func() *float64 {
		if r.IntN(3) == 0 {
			return nil
		}
		return &floats[r.IntN(len(floats))]
	}
	factors := func() []jsonFactor {
		if r.IntN(5) == 0 {
			return nil
		}
		fs := make([]jsonFactor, r.IntN(3))
		for i := range fs {
			fs[i] = jsonFactor{Kind: str(), Value: ip(), Node: str(), Workflow: str()}
		}
		return fs
	}
	var e jsonEncoder
	check := func(v any, write func(*jsonAppender)) {
		t.Helper()
		if err := e.encode(v, "    "); err != nil {
			t.Fatal(err)
		}
		want := e.out
		e.out = nil
		if err := e.append(write); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(e.out, want) {
			t.Fatalf("appender:\n%s\nencoding/json:\n%s", e.out, want)
		}
		e.out = nil
	}
	for range 2000 {
		w := jsonWorkflow{File: str(), ID: str(), Name: str(), Nodes: r.IntN(100), MaxAttempts: ip(), Unbounded: r.IntN(2) == 0}
		if r.IntN(6) != 0 {
			w.Operations = make([]jsonOperation, r.IntN(3))
		}
		for i := range w.Operations {
			w.Operations[i] = jsonOperation{Node: str(), Type: str(), Dependency: str(), Paid: r.IntN(2) == 0, Write: r.IntN(2) == 0,
				Attempts: ip(), Unbounded: r.IntN(2) == 0, CallsPerItem: ip(), CallsDown: r.IntN(3) - 1, FirstEnds: r.IntN(2) == 0,
				Factors: factors(), Model: str(), SpendPerItemUSD: fp(), SpendPerExecutionUSD: fp()}
		}
		check(w, func(a *jsonAppender) { a.workflow(&w) })

		f := jsonFinding{Rule: str(), Name: str(), Severity: str(), Confidence: str(), File: str(), Line: r.IntN(5000), Column: r.IntN(80),
			Workflow: str(), WorkflowID: str(), Node: str(), Message: str(), Fix: str(), HelpURI: str(), Fingerprint: str(), Chain: factors()}
		if r.IntN(5) != 0 {
			f.Related = make([]jsonRelated, r.IntN(3))
			for i := range f.Related {
				f.Related[i] = jsonRelated{File: str(), Line: r.IntN(100), Column: r.IntN(100), Message: str()}
			}
		}
		if r.IntN(2) == 0 {
			f.Repair = &jsonRepair{Description: str(), Safety: str()}
			if r.IntN(5) != 0 {
				f.Repair.Edits = make([]jsonEdit, r.IntN(3))
				for i := range f.Repair.Edits {
					f.Repair.Edits[i] = jsonEdit{File: str(), Offset: r.IntN(1e6), Length: r.IntN(100), Line: r.IntN(100),
						Column: r.IntN(100), EndLine: r.IntN(100), EndColumn: r.IntN(100), Text: str()}
				}
			}
		} else {
			s := str()
			f.NoRepairReason = &s
		}
		check(f, func(a *jsonAppender) { a.finding(&f) })
	}
	for _, s := range []string{"", "\x00", strings.Repeat("\u2028", 9), strings.Repeat("a", 64) + "\"", "\xc3", "abcdefg\x80"} {
		check(s, func(a *jsonAppender) { a.str(s) })
	}
}

// TestJSONWorkflowsReuseOperations: the workflows array, whose
// operations lists reuse one array per core, is each workflow rendered
// with a list of its own; a workflow without operations writes [], the
// first one included.
func TestJSONWorkflowsReuseOperations(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	src := n8nschema.NewSource("w.json", nil)
	var res Result
	for i := range 300 {
		w := analyze.WorkflowSummary{Source: src, ID: strconv.Itoa(i), Name: "w" + strconv.Itoa(i)}
		if i > 0 && r.IntN(3) != 0 {
			w.Operations = make([]analyze.OperationSummary, r.IntN(70))
		}
		for k := range w.Operations {
			w.Operations[k] = analyze.OperationSummary{Node: "n" + strconv.Itoa(k), Type: "t" + strconv.Itoa(r.IntN(5)), Attempts: r.IntN(4)}
		}
		res.Workflows = append(res.Workflows, w)
	}
	var out bytes.Buffer
	if err := (JSON{}).Render(&out, &res); err != nil {
		t.Fatal(err)
	}
	var e jsonEncoder
	for i := range res.Workflows {
		wf := jsonWorkflowOf(&res.Workflows[i], nil)
		if err := e.append(func(a *jsonAppender) { a.workflow(&wf) }); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(out.Bytes(), e.out) {
			t.Fatalf("workflow %d is not rendered as alone:\n%s", i, e.out)
		}
		if len(res.Workflows[i].Operations) == 0 && !bytes.Contains(e.out, []byte(`"operations": []`)) {
			t.Fatalf("workflow %d without operations:\n%s", i, e.out)
		}
		e.out = nil
	}
}
