package report

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// JSON renders the v1 JSON document of DESIGN.md §6. It is an API: fields
// change only with a new version number.
type JSON struct{}

// The document is {version, tool, summary, workflows, findings}, in the
// bytes json.Encoder with SetIndent("", "  ") and SetEscapeHTML(false)
// made of it when it was a tree of tagged structs: those structs and that
// encoder are kept as the reference in json_reference_test.go, which the
// tests compare this writer with. Render appends the members straight
// into one reused buffer: encoding/json's reflection and re-indenting were
// most of the cost of rendering.

// Render writes the document, indented, with a trailing newline. The
// workflows and findings are encoded on every core, a batch of them at a
// time (jsonWriter.array), so the document is never held in memory whole
// on a large audit.
func (JSON) Render(w io.Writer, r *Result) error {
	jw := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10)}
	jw.WriteString("{\n  \"version\": 1,\n  \"tool\": ")
	jw.value(1, func(e *jsonEnc) { e.tool(r.Tool) })
	jw.WriteString(",\n  \"summary\": ")
	jw.value(1, func(e *jsonEnc) { e.summary(&r.Summary) })
	jw.WriteString(",\n  \"workflows\": ")
	var wfs []*n8nschema.Workflow
	if r.Set != nil {
		wfs = r.Set.Workflows
	}
	jw.array(len(wfs), func(e *jsonEnc, red memo, i int) { e.workflow(r.Set, wfs[i], red) })
	jw.WriteString(",\n  \"findings\": ")
	why := noRepairReasons(r.Rules)
	jw.array(len(r.Findings), func(e *jsonEnc, red memo, i int) { e.finding(&r.Findings[i], red, why) })
	jw.WriteString("\n}\n")
	if jw.err != nil {
		return jw.err
	}
	return jw.w.Flush()
}

// jsonWriter writes parts of one indented document and keeps the first error.
type jsonWriter struct {
	w   *bufio.Writer
	enc jsonEnc
	err error
	// batches are where array encodes: the writer's, then the helper's
	// two. A batch's memo redacts each name once (names repeat across
	// workflows, operations, factors and findings) and lives as long as
	// the document; the helper's two share one.
	batches [3]jsonBatch
}

// jsonBatch is the elements one worker encodes in a round of array.
type jsonBatch struct {
	red memo
	out []byte
	err error
}

func (j *jsonWriter) WriteString(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// value writes the value encode appends, its nested lines indented as at
// depth, the first line not; a value that fails (a float that JSON cannot
// hold) is not written at all.
func (j *jsonWriter) value(depth int, encode func(e *jsonEnc)) {
	if j.err != nil {
		return
	}
	j.enc.reset(depth)
	encode(&j.enc)
	if j.err = j.enc.err; j.err != nil {
		return
	}
	_, j.err = j.w.Write(j.enc.b)
}

// jsonBatchLen is the elements encoded at once into one buffer: enough
// that handing a batch over costs little beside it, few enough that the
// buffers stay small (a workflow's JSON is ~3 KB on n8n-real).
const jsonBatchLen = 64

// array writes a member array of the top-level object: [] when empty, else
// one element per line at depth 2. The elements are encoded in batches of
// consecutive ones, on two cores: this goroutine's worker encodes the
// even batches and writes every batch in order, a helper encodes the odd
// ones into one of two buffers it hands over. The bytes are those of one
// writer encoding element after element, and at most four batches are
// held. An element that fails is not written, nor anything after it.
func (j *jsonWriter) array(n int, elem func(e *jsonEnc, red memo, i int)) {
	if n == 0 {
		j.WriteString("[]")
		return
	}
	j.WriteString("[\n")
	nb := (n + jsonBatchLen - 1) / jsonBatchLen
	batch := func(bt *jsonBatch, k int) {
		lo := k * jsonBatchLen
		bt.encode(lo, min(lo+jsonBatchLen, n), n, elem)
	}
	write := func(bt *jsonBatch) {
		if j.err == nil && len(bt.out) > 0 {
			_, j.err = j.w.Write(bt.out)
		}
		if j.err == nil {
			j.err = bt.err
		}
	}
	if nb == 1 || runtime.GOMAXPROCS(0) == 1 {
		for k := 0; k < nb && j.err == nil; k++ {
			batch(&j.batches[0], k)
			write(&j.batches[0])
		}
		j.WriteString("  ]")
		return
	}
	ready := make(chan *jsonBatch, 2)
	free := make(chan *jsonBatch, 2)
	stop := make(chan struct{})
	if j.batches[1].red == nil {
		j.batches[1].red = memo{}
		j.batches[2].red = j.batches[1].red // the helper's alone
	}
	free <- &j.batches[1]
	free <- &j.batches[2]
	pool.Each(2, func(w int) {
		if w == 1 {
			// The helper. Closing ready tells the writer it ends,
			// also when it panics (pool.Each raises the panic again).
			defer close(ready)
			for k := 1; k < nb; k += 2 {
				var bt *jsonBatch
				select {
				case bt = <-free:
				case <-stop:
					return
				}
				batch(bt, k)
				ready <- bt
			}
			return
		}
		defer close(stop)
		for k := 0; k < nb && j.err == nil; k++ {
			if k%2 == 0 {
				batch(&j.batches[0], k)
				write(&j.batches[0])
				continue
			}
			bt, ok := <-ready
			if !ok {
				return
			}
			write(bt)
			free <- bt
		}
	})
	j.WriteString("  ]")
}

// encode encodes elements lo to hi (of n) as array writes them, stopping
// at one that fails. The elements are encoded straight into the batch's
// buffer (a workflow of 10,000 nodes is MBs of JSON: one copy too many),
// through a jsonEnc of its own: the other worker's batch shares a cache
// line with this one, and every append would otherwise write to it.
func (bt *jsonBatch) encode(lo, hi, n int, elem func(e *jsonEnc, red memo, i int)) {
	if bt.red == nil {
		bt.red = memo{}
	}
	enc, red := &jsonEnc{b: bt.out[:0]}, bt.red
	for i := lo; i < hi; i++ {
		enc.b = append(enc.b, "    "...)
		start := len(enc.b)
		enc.depth, enc.empty = 2, false
		elem(enc, red, i)
		if enc.err != nil {
			enc.b = enc.b[:start] // not written at all
			break
		}
		if i < n-1 {
			enc.b = append(enc.b, ",\n"...)
		} else {
			enc.b = append(enc.b, '\n')
		}
	}
	bt.out, bt.err = enc.b, enc.err
}

func (e *jsonEnc) tool(t Tool) {
	e.open('{')
	e.key("name").string(t.Name)
	e.key("version").string(t.Version)
	e.close('}')
}

func (e *jsonEnc) summary(s *Summary) {
	e.open('{')
	for _, m := range [...]struct {
		key string
		n   int
	}{
		{"files", s.Files}, {"workflows", s.Workflows}, {"nodes", s.Nodes}, {"skipped_files", s.SkippedFiles},
		{"findings", s.Findings}, {"errors", s.Errors}, {"warnings", s.Warnings}, {"notes", s.Notes},
		{"ignored", s.Ignored}, {"baselined", s.Baselined}, {"below_confidence", s.BelowConfidence},
		{"below_min_severity", s.BelowSeverity}, {"fixed", s.Fixed}, {"fixable", s.Fixable}, {"fixable_unsafe", s.FixableUnsafe},
	} {
		e.key(m.key).int(m.n)
	}
	e.close('}')
}

func (e *jsonEnc) workflow(set *analyze.Set, wf *n8nschema.Workflow, red memo) {
	ops := set.OperationsOf(wf)
	maxAttempts, unbounded := 0, false
	for _, op := range ops {
		if op.Unbounded {
			unbounded = true
		} else {
			maxAttempts = max(maxAttempts, op.Attempts)
		}
	}
	e.open('{')
	e.key("file").string(wf.Source.Name)
	e.key("id").string(wf.ID)
	e.key("name").string(red.Redact(wf.Name))
	e.key("nodes").int(wf.NodeCount())
	e.key("max_attempts").intOrNull(maxAttempts, !unbounded)
	e.key("unbounded").bool(unbounded)
	e.key("operations").open('[')
	for _, op := range ops {
		e.elem()
		e.operation(set, op, red)
	}
	e.close(']')
	e.close('}')
}

func (e *jsonEnc) operation(set *analyze.Set, op *analyze.Operation, red memo) {
	e.open('{')
	// Each operation's node is most often its own: memoising its name
	// costs a map entry and saves nothing.
	e.key("node").string(Redact(op.Node.Name))
	e.key("type").string(op.Type)
	e.key("dependency").string(op.Dependency)
	e.key("paid").bool(op.Paid)
	e.key("write").bool(op.Write)
	e.key("attempts").intOrNull(op.Attempts, !op.Unbounded)
	e.key("unbounded").bool(op.Unbounded)
	e.key("calls_per_item").intOrNull(op.CallsPerItem, !op.CallsUnbounded)
	if op.CallsWhileDown > 0 {
		e.key("calls_per_item_while_down").int(op.CallsWhileDown)
	}
	e.key("factors").factors(op.Factors, red)
	// Spend of paid calls (analyze/spend.go); null when unbounded or unknown.
	e.key("model").string(op.Model)
	usd, ok := op.SpendPerExecution(&set.Options)
	e.key("spend_per_item_usd").usdOrNull(op.SpendPerItemUSD, ok)
	e.key("spend_per_execution_usd").usdOrNull(usd, ok)
	e.close('}')
}

func (e *jsonEnc) factors(fs []analyze.Factor, red memo) {
	e.open('[')
	for i := range fs {
		f := &fs[i]
		e.elem()
		e.open('{')
		e.key("kind").string(f.Kind)
		e.key("value").intOrNull(f.Value, !f.Unbounded)
		e.key("node").string(red.Redact(f.Node))
		e.key("workflow").string(red.Redact(f.Workflow))
		e.close('}')
	}
	e.close(']')
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

func (e *jsonEnc) finding(f *analyze.Finding, red memo, why map[string]string) {
	e.open('{')
	e.key("rule").string(f.RuleID)
	e.key("name").string(f.RuleName)
	e.key("severity").string(f.Severity.String())
	e.key("confidence").string(f.Confidence.String())
	e.key("file").string(f.File)
	e.key("line").int(f.Pos.Line)
	e.key("column").int(f.Pos.Col)
	e.key("workflow").string(red.Redact(f.Workflow))
	e.key("workflow_id").string(f.WorkflowID)
	e.key("node").string(red.Redact(f.Node))
	// Messages rarely repeat: a memo would hash and keep each for nothing.
	// Message text is escaped as in text (Printable): GitHub and other
	// viewers show bidi, zero-width and C1 characters raw.
	e.key("message").string(Printable(Redact(f.Message)))
	e.key("fix").string(Printable(red.Redact(f.Fix)))
	e.key("help_uri").string(f.URL)
	e.key("fingerprint").string(f.Fingerprint)
	e.key("chain").factors(f.Chain, red)
	// Related are the other places that explain the finding, and those of
	// the findings folded into it (every caller of a missing workflow).
	e.key("related").open('[')
	for _, r := range f.Related {
		e.elem()
		e.open('{')
		e.key("file").string(r.File)
		e.key("line").int(r.Pos.Line)
		e.key("column").int(r.Pos.Col)
		e.key("message").string(Printable(red.Redact(r.Message)))
		e.close('}')
	}
	e.close(']')
	// Repair is what --fix (safe) or --fix --unsafe-fixes (unsafe) would
	// write; null when stormcheck has no repair for the finding.
	// no_repair_reason says why repair is null.
	if e.key("repair").repair(f.Repair, red) {
		e.key("no_repair_reason").null()
	} else {
		e.key("no_repair_reason").string(red.Redact(noRepairReason(f, why)))
	}
	e.close('}')
}

// repair writes r, or null when there is none or when an edit would show
// a secret (such a repair is not shown at all); shown says which.
func (e *jsonEnc) repair(r *analyze.Repair, red memo) (shown bool) {
	if r == nil {
		e.null()
		return false
	}
	for _, ed := range r.Edits {
		if red.Redact(ed.Text) != ed.Text {
			e.null()
			return false
		}
	}
	e.open('{')
	e.key("description").string(Printable(red.Redact(r.Description)))
	e.key("safety").string(r.Safety.String())
	e.key("edits").open('[')
	for _, ed := range r.Edits {
		// An edit replaces length bytes at offset (line and column: where
		// they start and end, 1-based, columns in characters) with text.
		e.elem()
		e.open('{')
		e.key("file").string(ed.Source.Name)
		e.key("offset").int(ed.Offset)
		e.key("length").int(ed.Len)
		e.key("line").int(ed.Start.Line)
		e.key("column").int(ed.Start.Col)
		e.key("end_line").int(ed.End.Line)
		e.key("end_column").int(ed.End.Col)
		e.key("text").string(ed.Text)
		e.close('}')
	}
	e.close(']')
	e.close('}')
	return true
}

// jsonEnc appends indented JSON to b, two spaces a level, as
// json.MarshalIndent does: members one a line, "key": value, and empty
// objects and arrays as {} and [].
type jsonEnc struct {
	b     []byte
	depth int
	// empty is true until the innermost open object or array has a member.
	empty bool
	err   error
}

func (e *jsonEnc) reset(depth int) {
	e.b, e.depth, e.empty, e.err = e.b[:0], depth, false, nil
}

func (e *jsonEnc) open(c byte) {
	e.b = append(e.b, c)
	e.depth++
	e.empty = true
}

func (e *jsonEnc) close(c byte) {
	e.depth--
	if !e.empty {
		e.newline()
	}
	e.b = append(e.b, c)
	e.empty = false
}

// elem starts an array element or an object member: a comma after the one
// before, then a new line.
func (e *jsonEnc) elem() {
	if !e.empty {
		e.b = append(e.b, ',')
	}
	e.empty = false
	e.newline()
}

// key starts a member, for its value to follow; keys are ours and need no
// escaping.
func (e *jsonEnc) key(k string) *jsonEnc {
	e.elem()
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, `": `...)
	return e
}

const jsonIndent = "                                "

func (e *jsonEnc) newline() {
	e.b = append(e.b, '\n')
	for n := 2 * e.depth; n > 0; n -= len(jsonIndent) {
		e.b = append(e.b, jsonIndent[:min(n, len(jsonIndent))]...)
	}
}

func (e *jsonEnc) string(s string) { e.b = appendJSONString(e.b, s) }

func (e *jsonEnc) int(n int) { e.b = strconv.AppendInt(e.b, int64(n), 10) }

func (e *jsonEnc) bool(v bool) { e.b = strconv.AppendBool(e.b, v) }

func (e *jsonEnc) null() { e.b = append(e.b, "null"...) }

// intOrNull writes n, or null when it is not known (a nil *int).
func (e *jsonEnc) intOrNull(n int, known bool) {
	if known {
		e.int(n)
	} else {
		e.null()
	}
}

// usdOrNull writes a dollar figure rounded to a millionth, so that output
// is stable, or null when it is not known.
func (e *jsonEnc) usdOrNull(v float64, known bool) {
	if !known {
		e.null()
		return
	}
	v = math.Round(v*1e6) / 1e6
	if math.IsInf(v, 0) || math.IsNaN(v) {
		if e.err == nil {
			// encoding/json's error, which Render returned before.
			e.err = &json.UnsupportedValueError{Value: reflect.ValueOf(v), Str: strconv.FormatFloat(v, 'g', -1, 64)}
		}
		e.null()
		return
	}
	e.b = appendJSONFloat(e.b, v)
}

// appendJSONFloat appends a finite f as encoding/json writes a float64:
// like ES6, 'f' format but 'e' below 1e-6 and from 1e21, exponents
// without padding (e-7, not e-07).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendJSONString appends s quoted as encoding/json does without HTML
// escaping: \" \\ \b \f \n \r \t, other controls as \u00XX, invalid UTF-8
// as \ufffd, and U+2028 and U+2029 escaped (they end a line in JavaScript).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look: most text is
		// printable ASCII without quotes or backslashes.
		for len(s)-i >= 8 && plain8(s[i:]) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plain8 reports whether the first eight bytes of s are all printable
// ASCII other than '"' and '\\', which appendJSONString copies as they are:
// the zero-byte test of "bit twiddling hacks" on a word of them.
func plain8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	quote, backslash := w^('"'*ones), w^('\\'*ones)
	control := (w - 0x20*ones) & ^w     // a byte below 0x20 (none is 0x80 or above)
	hasQuote := (quote - ones) & ^quote // a zero byte of w^'"'
	hasBackslash := (backslash - ones) & ^backslash
	return (w|control|hasQuote|hasBackslash)&highs == 0
}
