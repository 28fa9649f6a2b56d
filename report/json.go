package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/pool"
)

// JSON renders the v1 JSON document (docs/design.md, "The JSON report"):
// {version, tool, summary, workflows, findings}, as tagged structs in
// the bytes encoding/json makes of them (the workflows and findings
// written field by field by jsonAppender). It is an API: fields change
// only with a new version number.
type JSON struct{}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonWorkflow struct {
	File        string          `json:"file"`
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Nodes       int             `json:"nodes"`
	MaxAttempts *int            `json:"max_attempts"`
	Unbounded   bool            `json:"unbounded"`
	Operations  []jsonOperation `json:"operations"`
}

type jsonOperation struct {
	Node         string       `json:"node"`
	Type         string       `json:"type"`
	Dependency   string       `json:"dependency"`
	Paid         bool         `json:"paid"`
	Write        bool         `json:"write"`
	Attempts     *int         `json:"attempts"`
	Unbounded    bool         `json:"unbounded"`
	CallsPerItem *int         `json:"calls_per_item"`
	CallsDown    int          `json:"calls_per_item_while_down,omitempty"`
	FirstEnds    bool         `json:"first_failure_ends_try,omitempty"`
	Factors      []jsonFactor `json:"factors"`
	// Spend of paid calls (analyze/spend.go); null when unbounded or unknown.
	Model                string   `json:"model"`
	SpendPerItemUSD      *float64 `json:"spend_per_item_usd"`
	SpendPerExecutionUSD *float64 `json:"spend_per_execution_usd"`
}

type jsonFactor struct {
	Kind     string `json:"kind"`
	Value    *int   `json:"value"`
	Node     string `json:"node"`
	Workflow string `json:"workflow"`
}

type jsonFinding struct {
	Rule        string       `json:"rule"`
	Name        string       `json:"name"`
	Severity    string       `json:"severity"`
	Confidence  string       `json:"confidence"`
	File        string       `json:"file"`
	Line        int          `json:"line"`
	Column      int          `json:"column"`
	Workflow    string       `json:"workflow"`
	WorkflowID  string       `json:"workflow_id"`
	Node        string       `json:"node"`
	Message     string       `json:"message"`
	Fix         string       `json:"fix"`
	HelpURI     string       `json:"help_uri"`
	Fingerprint string       `json:"fingerprint"`
	Chain       []jsonFactor `json:"chain"`
	// Related are the other places that explain the finding, and those of
	// the findings folded into it (every caller of a missing workflow).
	Related []jsonRelated `json:"related"`
	// Repair is what --fix (safe) or --fix --unsafe-fixes (unsafe) would
	// write; null when stormcheck has no repair for the finding.
	Repair *jsonRepair `json:"repair"`
	// NoRepairReason says why Repair is null.
	NoRepairReason *string `json:"no_repair_reason"`
}

type jsonRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func jsonRelatedOf(rs []analyze.Related, red memo) []jsonRelated {
	out := make([]jsonRelated, 0, len(rs))
	for _, r := range rs {
		out = append(out, jsonRelated{File: r.File, Line: r.Pos.Line, Column: r.Pos.Col, Message: Printable(red.Redact(r.Message))})
	}
	return out
}

type jsonRepair struct {
	Description string     `json:"description"`
	Safety      string     `json:"safety"`
	Edits       []jsonEdit `json:"edits"`
}

// jsonEdit replaces length bytes at offset (line and column: where they
// start and end, 1-based, columns in characters) with text.
type jsonEdit struct {
	File      string `json:"file"`
	Offset    int    `json:"offset"`
	Length    int    `json:"length"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Text      string `json:"text"`
}

func jsonRepairOf(r *analyze.Repair, red memo) *jsonRepair {
	if r == nil {
		return nil
	}
	out := &jsonRepair{Description: Printable(red.Redact(r.Description)), Safety: r.Safety.String(), Edits: []jsonEdit{}}
	for _, e := range r.Edits {
		if red.Redact(e.Text) != e.Text {
			return nil // an edit that would show a secret is not shown at all
		}
		out.Edits = append(out.Edits, jsonEdit{File: e.Source.Name, Offset: e.Offset, Length: e.Len,
			Line: e.Start.Line, Column: e.Start.Col, EndLine: e.End.Line, EndColumn: e.End.Col, Text: e.Text})
	}
	return out
}

func intPtr(v int) *int { return &v }

// usdPtr rounds a dollar figure to a millionth, so that output is stable.
func usdPtr(v float64) *float64 {
	v = math.Round(v*1e6) / 1e6
	return &v
}

// Render writes the document, indented, with a trailing newline. It writes
// one workflow or finding at a time, in the bytes json.Encoder with
// SetIndent("", "  ") makes of the whole document, so the document is never
// held in memory whole on a large audit.
func (JSON) Render(w io.Writer, r *Result) error {
	jw := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10), encs: [2]jsonEncoder{{red: memo{}}, {red: memo{}}}}
	jw.WriteString("{\n  \"version\": 1,\n  \"tool\": ")
	jw.value(jsonTool{Name: r.Tool.Name, Version: r.Tool.Version}, "  ")
	jw.WriteString(",\n  \"summary\": ")
	jw.value(r.Summary, "  ")
	jw.WriteString(",\n  \"workflows\": ")
	jw.array(len(r.Workflows), func(i int, e *jsonEncoder) error {
		wf := jsonWorkflowOf(&r.Workflows[i], e.ops[:0])
		e.ops = wf.Operations // written out below: the next workflow's list reuses it
		return e.append(func(a *jsonAppender) { a.workflow(&wf) })
	})
	jw.WriteString(",\n  \"findings\": ")
	why := noRepairReasons(r.Rules)
	jw.array(len(r.Findings), func(i int, e *jsonEncoder) error {
		f, red := &r.Findings[i], e.red
		var reason *string
		repair := jsonRepairOf(f.Repair, red)
		if repair == nil {
			s := red.Redact(noRepairReason(f, why))
			reason = &s
		}
		jf := jsonFinding{
			Rule: f.RuleID, Name: f.RuleName, Severity: f.Severity.String(), Confidence: f.Confidence.String(),
			File: f.File, Line: f.Pos.Line, Column: f.Pos.Col, Workflow: red.Redact(f.Workflow), WorkflowID: f.WorkflowID,
			Node: red.Redact(f.Node), Message: Printable(red.Redact(f.Message)), Fix: Printable(red.Redact(f.Fix)), HelpURI: f.URL, Fingerprint: f.Fingerprint,
			Chain: jsonFactors(f.Chain), Related: jsonRelatedOf(f.Related, red), Repair: repair,
			NoRepairReason: reason,
		}
		return e.append(func(a *jsonAppender) { a.finding(&jf) })
	})
	jw.WriteString("\n}\n")
	if jw.err != nil {
		return jw.err
	}
	return jw.w.Flush()
}

// jsonWorkflowOf is wf as the JSON report writes it, its operations
// appended to ops (empty: a workflow without operations writes [], not
// null).
func jsonWorkflowOf(wf *analyze.WorkflowSummary, ops []jsonOperation) jsonWorkflow {
	if ops == nil {
		ops = []jsonOperation{}
	}
	jw := jsonWorkflow{File: wf.Source.Name, ID: wf.ID, Name: Redact(wf.Name), Nodes: wf.Nodes, Operations: slices.Grow(ops, len(wf.Operations))}
	maxAttempts := 0
	for i := range wf.Operations {
		// The figures are read in place: the summaries outlive the render.
		op := &wf.Operations[i]
		jo := jsonOperation{Node: Redact(op.Node), Type: op.Type, Dependency: op.Dependency, Paid: op.Paid, Write: op.Write,
			Unbounded: op.Unbounded, Factors: jsonFactors(op.Factors)}
		if !op.Unbounded {
			jo.Attempts = &op.Attempts
			maxAttempts = max(maxAttempts, op.Attempts)
		} else {
			jw.Unbounded = true
		}
		if !op.CallsUnbounded {
			jo.CallsPerItem = &op.CallsPerItem
		}
		jo.CallsDown, jo.FirstEnds = op.CallsWhileDown, op.FirstFailureEndsTry
		jo.Model = op.Model
		if op.SpendKnown {
			jo.SpendPerItemUSD, jo.SpendPerExecutionUSD = usdPtr(op.SpendPerItemUSD), usdPtr(op.SpendPerExecutionUSD)
		}
		jw.Operations = append(jw.Operations, jo)
	}
	if !jw.Unbounded {
		jw.MaxAttempts = intPtr(maxAttempts)
	}
	return jw
}

// jsonWriter writes parts of one indented document and keeps the first error.
type jsonWriter struct {
	w     *bufio.Writer
	encs  [2]jsonEncoder // one a core (array)
	slots [window]struct {
		out  []byte
		ends [chunk]int // where each element ends in out
		done bool
	}
	err error
}

// The arrays are encoded chunk by chunk, a window of chunks at a time.
const (
	chunk  = 8 // elements
	window = 8 // chunks in flight: 64 elements, as the batches of the render before held
)

// jsonEncoder encodes values one after another into out, with what
// Redact made of the texts it met.
type jsonEncoder struct {
	buf bytes.Buffer
	out []byte
	red memo
	ops []jsonOperation // a workflow's operations, till they are written
}

func (j *jsonWriter) WriteString(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// value writes v as json.Encoder with SetIndent(prefix, "  ") and no HTML
// escaping does, without the trailing newline: nested lines start with
// prefix, the first does not.
func (j *jsonWriter) value(v any, prefix string) {
	e := &j.encs[0]
	if e.out = e.out[:0]; j.err == nil {
		if j.err = e.encode(v, prefix); j.err == nil {
			_, j.err = j.w.Write(e.out)
		}
	}
}

// encode appends v to e.out as value writes it. It encodes v compact and
// indents that itself (indent): json.Indent's state machine was three
// quarters of the time of rendering n8n-real's report.
func (e *jsonEncoder) encode(v any, prefix string) error {
	e.buf.Reset()
	enc := json.NewEncoder(&e.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	e.out = indent(e.out, bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")), prefix)
	return nil
}

// append appends one element of a member array (at depth 2) to e.out,
// as encode would with the prefix "    ".
func (e *jsonEncoder) append(write func(*jsonAppender)) error {
	a := jsonAppender{b: e.out}
	write(&a)
	e.out = a.b
	return a.err
}

// indent is json.Indent(dst, src, prefix, "  ") for src as json.Encoder
// writes it: compact, valid JSON. An empty object or array stays {} or [].
// It copies strings and scalars whole: only the structural bytes between
// them change.
func indent(dst, src []byte, prefix string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for n := 2 * depth; n > 0; n -= len(indentSpaces) {
			dst = append(dst, indentSpaces[:min(n, len(indentSpaces))]...)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for { // to the quote that closes: one after an even number of backslashes
				j += bytes.IndexByte(src[j:], '"')
				k := j
				for src[k-1] == '\\' {
					k--
				}
				if (j-k)%2 == 0 {
					break
				}
				j++
			}
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default: // a number, true, false or null, to the byte after it
			j := i + 1
			for j < len(src) && !jsonStructural[src[j]] {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j - 1
		}
	}
	return dst
}

const indentSpaces = "                                "

// jsonStructural marks the bytes that end a scalar in compact JSON.
var jsonStructural = [256]bool{',': true, ':': true, '{': true, '}': true, '[': true, ']': true, '"': true}

// array writes a member array of the top-level object: [] when empty, else
// one element per line at depth 2. The render runs after the audit, with a
// core otherwise idle: two workers (the caller one of them) each take the
// next chunk of elements and make and encode it (elem appends element i
// to the worker's encoder, whose memo it uses); whichever finishes the chunk next in the document writes it and
// the finished chunks after it. A chunk waits for a free slot of the
// window, so the chunks in flight are all the report holds in memory. The
// workers run through the whole array: woken for each batch of 64, as the
// render was, the second core did little (docs/performance.md, perf10a).
func (j *jsonWriter) array(n int, elem func(i int, e *jsonEncoder) error) {
	if n == 0 {
		j.WriteString("[]")
		return
	}
	j.WriteString("[\n")
	var (
		slots   = &j.slots
		chunks  = (n + chunk - 1) / chunk
		next    atomic.Int64
		mu      sync.Mutex
		ready   = sync.NewCond(&mu) // a chunk was written, or a worker failed
		written int                 // chunks written, in order
		failed  bool                // a worker panicked: the other stops
	)
	// free waits until chunk c's slot is free: false when the render stops.
	free := func(c int) bool {
		mu.Lock()
		defer mu.Unlock()
		for written <= c-window && !failed && j.err == nil {
			ready.Wait()
		}
		return !failed && j.err == nil
	}
	// finish marks chunk c encoded and writes what is now next in order.
	finish := func(c int, err error) {
		mu.Lock()
		defer mu.Unlock()
		if j.err == nil {
			j.err = err
		}
		slots[c%window].done = true
		for ; written < chunks && slots[written%window].done; written++ {
			s := &slots[written%window]
			s.done = false
			start := 0
			for k, end := range s.ends[:min(chunk, n-written*chunk)] {
				j.WriteString("    ")
				if j.err == nil {
					_, j.err = j.w.Write(s.out[start:end])
				}
				start = end
				if written*chunk+k < n-1 {
					j.WriteString(",\n")
				} else {
					j.WriteString("\n")
				}
			}
			ready.Broadcast()
		}
	}
	pool.Each(2, func(w int) {
		e := &j.encs[w]
		ok := false
		defer func() {
			if !ok { // a panic: the other worker must not wait for this one's chunk
				mu.Lock()
				failed = true
				ready.Broadcast()
				mu.Unlock()
			}
		}()
		for c := int(next.Add(1) - 1); c < chunks && free(c); c = int(next.Add(1) - 1) {
			s := &slots[c%window]
			var err error
			e.out = s.out[:0]
			for k, i := 0, c*chunk; i < min(n, (c+1)*chunk) && err == nil; k, i = k+1, i+1 {
				err = elem(i, e)
				s.ends[k] = len(e.out)
			}
			s.out = e.out
			finish(c, err)
		}
		ok = true
	})
	j.WriteString("  ]")
}

func jsonFactors(fs []analyze.Factor) []jsonFactor {
	out := make([]jsonFactor, 0, len(fs))
	for _, f := range fs {
		jf := jsonFactor{Kind: f.Kind, Node: Redact(f.Node), Workflow: Redact(f.Workflow)}
		if !f.Unbounded {
			jf.Value = intPtr(f.Value)
		}
		out = append(out, jf)
	}
	return out
}

// noRepairReasons are the reasons of the rules without repairs, from their
// FixDoc ("None: the file is not JSON; …"), by rule ID.
func noRepairReasons(rules []*analyze.Rule) map[string]string {
	m := make(map[string]string, len(rules))
	for _, r := range rules {
		if doc, ok := strings.CutPrefix(r.FixDoc, "None: "); ok {
			// The first sentence, as the reasons of package fix are worded.
			doc = strings.Join(strings.Fields(doc), " ")
			if i := strings.Index(doc, ". "); i > 0 {
				doc = doc[:i]
			}
			m[r.ID] = strings.TrimSuffix(doc, ".")
		}
	}
	return m
}

// noRepairReason says why a finding has no repair: its own reason (a rule
// that has repairs, not for this finding), else its rule's.
func noRepairReason(f *analyze.Finding, why map[string]string) string {
	switch {
	case f.Repair != nil:
		return "the repair would show a secret from the workflow, so it is not shown"
	case f.NoRepair != "":
		return f.NoRepair
	case why[f.RuleID] != "":
		return why[f.RuleID]
	}
	return "stormcheck has no repair for this finding"
}
