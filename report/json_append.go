package report

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// jsonAppender writes the workflows and findings of the JSON report
// straight into their indented bytes: what json.Encoder (no HTML
// escaping) and indent make of the structs, field by field in their
// order (TestAppenderAsEncodingJSON). encoding/json's reflection and the
// second pass of indent were more than half of rendering n8n-real's
// report; the structs stay the document's definition.
// It writes elements of the top-level arrays: every line but the first
// starts with the four spaces of depth 2.
type jsonAppender struct {
	b     []byte
	depth int  // below the element
	empty bool // the innermost open container has nothing in it yet
	err   error
}

// newline starts a line at depth 2+a.depth.
func (a *jsonAppender) newline() {
	n := 4 + 2*a.depth
	if n < len(newlineSpaces) {
		a.b = append(a.b, newlineSpaces[:1+n]...)
		return
	}
	a.b = append(a.b, '\n')
	for ; n > 0; n -= len(indentSpaces) {
		a.b = append(a.b, indentSpaces[:min(n, len(indentSpaces))]...)
	}
}

const newlineSpaces = "\n" + indentSpaces

func (a *jsonAppender) open(c byte) {
	a.b = append(a.b, c)
	a.depth++
	a.empty = true
}

// close ends the innermost container: {} or [] when it is empty.
func (a *jsonAppender) close(c byte) {
	a.depth--
	if !a.empty {
		a.newline()
	}
	a.b = append(a.b, c)
	a.empty = false
}

// elem starts the next element of an array.
func (a *jsonAppender) elem() {
	if !a.empty {
		a.b = append(a.b, ',')
	}
	a.empty = false
	a.newline()
}

// key starts the next member of an object: k is its name as written,
// quoted and followed by the colon and space (`"rule": `).
func (a *jsonAppender) key(k string) {
	if n := 4 + 2*a.depth; !a.empty && n < len(commaNewlineSpaces)-1 {
		a.b = append(a.b, commaNewlineSpaces[:2+n]...) // one append, not three
	} else {
		a.elem()
	}
	a.empty = false
	a.b = append(a.b, k...)
}

const commaNewlineSpaces = ",\n" + indentSpaces

// member starts the next member of an object at a depth the caller
// knows: k is the member's whole start as key writes it, a comma, the
// newline and indent of that depth (at1 … at3) and the quoted name with
// its colon and space (at3+`"node": `), one constant the compiler joins.
// The comma is left out before the first member. The workflows, their
// operations and the findings, each at one depth always, write their
// members so: one append of a constant each, where key makes two and
// reckons the indent (key was a fifth of the JSON render's instructions).
func (a *jsonAppender) member(k string) {
	if a.empty {
		k = k[1:]
	}
	a.empty = false
	a.b = append(a.b, k...)
}

// What starts a member at depths 1 and 3 below an element (key's
// commaNewlineSpaces[:2+4+2*depth]).
const (
	at1 = ",\n      "
	at3 = ",\n          "
)

func (a *jsonAppender) str(s string) { a.b = appendJSONString(a.b, s) }

func (a *jsonAppender) int(v int) { a.b = strconv.AppendInt(a.b, int64(v), 10) }

func (a *jsonAppender) intPtr(v *int) {
	if v == nil {
		a.null()
		return
	}
	a.int(*v)
}

func (a *jsonAppender) bool(v bool) { a.b = strconv.AppendBool(a.b, v) }

func (a *jsonAppender) null() { a.b = append(a.b, "null"...) }

// float64Ptr writes a float64 as encoding/json does (ES6 number to
// string), or null.
func (a *jsonAppender) float64Ptr(v *float64) {
	if v == nil {
		a.null()
		return
	}
	f := *v
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if a.err == nil {
			a.err = errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, 64))
		}
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	a.b = strconv.AppendFloat(a.b, f, format, -1, 64)
	if format == 'e' { // e-09 to e-9
		if n := len(a.b); n >= 4 && a.b[n-4] == 'e' && a.b[n-3] == '-' && a.b[n-2] == '0' {
			a.b[n-2] = a.b[n-1]
			a.b = a.b[:n-1]
		}
	}
}

// jsonPlain marks the ASCII bytes encoding/json copies as they are
// (without HTML escaping): printable, not a quote or a backslash.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString is encoding/json's appendString without HTML escaping:
// quotes, backslashes and control bytes escaped, invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Skip eight plain bytes at a time: most of the text is.
		for i+8 <= len(s) {
			if m := jsonStopMask(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		if b := s[i]; b < utf8.RuneSelf {
			if jsonPlain[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// jsonStopMask flags the bytes of x that are not plain (jsonPlain): below
// 0x20, a quote, a backslash, or not ASCII. As n8nschema's stopMask
// (which see), flipping bit 1 of every byte turns the quote into 0x20 and
// keeps the bytes below 0x20 below it, so one test below 0x21 finds both.
// It is 0 exactly when all eight are plain, and its lowest flag is exact
// (a borrow may flag a byte above a flagged one, never below).
func jsonStopMask(x uint64) uint64 {
	y := x ^ (ones * 0x02)
	bs := x ^ (ones * '\\')
	return ((y - ones*0x21) | (bs - ones) | x) & highs
}

// load8 reads s[i:i+8] as a little-endian word (one load; bounds-checked).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func (a *jsonAppender) factors(fs []jsonFactor) {
	if fs == nil {
		a.null()
		return
	}
	a.open('[')
	for i := range fs {
		f := &fs[i]
		a.elem()
		a.open('{')
		a.key(`"kind": `)
		a.str(f.Kind)
		a.key(`"value": `)
		a.intPtr(f.Value)
		a.key(`"node": `)
		a.str(f.Node)
		a.key(`"workflow": `)
		a.str(f.Workflow)
		a.close('}')
	}
	a.close(']')
}

func (a *jsonAppender) workflow(w *jsonWorkflow) {
	a.open('{')
	a.member(at1 + `"file": `)
	a.str(w.File)
	a.member(at1 + `"id": `)
	a.str(w.ID)
	a.member(at1 + `"name": `)
	a.str(w.Name)
	a.member(at1 + `"nodes": `)
	a.int(w.Nodes)
	a.member(at1 + `"max_attempts": `)
	a.intPtr(w.MaxAttempts)
	a.member(at1 + `"unbounded": `)
	a.bool(w.Unbounded)
	a.member(at1 + `"operations": `)
	if w.Operations == nil {
		a.null()
	} else {
		a.open('[')
		for i := range w.Operations {
			a.elem()
			a.operation(&w.Operations[i])
		}
		a.close(']')
	}
	a.close('}')
}

func (a *jsonAppender) operation(o *jsonOperation) {
	a.open('{')
	a.member(at3 + `"node": `)
	a.str(o.Node)
	a.member(at3 + `"type": `)
	a.str(o.Type)
	a.member(at3 + `"dependency": `)
	a.str(o.Dependency)
	a.member(at3 + `"paid": `)
	a.bool(o.Paid)
	a.member(at3 + `"write": `)
	a.bool(o.Write)
	a.member(at3 + `"attempts": `)
	a.intPtr(o.Attempts)
	a.member(at3 + `"unbounded": `)
	a.bool(o.Unbounded)
	a.member(at3 + `"calls_per_item": `)
	a.intPtr(o.CallsPerItem)
	if o.CallsDown != 0 {
		a.member(at3 + `"calls_per_item_while_down": `)
		a.int(o.CallsDown)
	}
	if o.FirstEnds {
		a.member(at3 + `"first_failure_ends_try": `)
		a.bool(o.FirstEnds)
	}
	a.member(at3 + `"factors": `)
	a.factors(o.Factors)
	a.member(at3 + `"model": `)
	a.str(o.Model)
	a.member(at3 + `"spend_per_item_usd": `)
	a.float64Ptr(o.SpendPerItemUSD)
	a.member(at3 + `"spend_per_execution_usd": `)
	a.float64Ptr(o.SpendPerExecutionUSD)
	a.close('}')
}

func (a *jsonAppender) finding(f *jsonFinding) {
	a.open('{')
	a.member(at1 + `"rule": `)
	a.str(f.Rule)
	a.member(at1 + `"name": `)
	a.str(f.Name)
	a.member(at1 + `"severity": `)
	a.str(f.Severity)
	a.member(at1 + `"confidence": `)
	a.str(f.Confidence)
	a.member(at1 + `"file": `)
	a.str(f.File)
	a.member(at1 + `"line": `)
	a.int(f.Line)
	a.member(at1 + `"column": `)
	a.int(f.Column)
	a.member(at1 + `"workflow": `)
	a.str(f.Workflow)
	a.member(at1 + `"workflow_id": `)
	a.str(f.WorkflowID)
	a.member(at1 + `"node": `)
	a.str(f.Node)
	a.member(at1 + `"message": `)
	a.str(f.Message)
	a.member(at1 + `"fix": `)
	a.str(f.Fix)
	a.member(at1 + `"help_uri": `)
	a.str(f.HelpURI)
	a.member(at1 + `"fingerprint": `)
	a.str(f.Fingerprint)
	a.member(at1 + `"chain": `)
	a.factors(f.Chain)
	a.member(at1 + `"related": `)
	if f.Related == nil {
		a.null()
	} else {
		a.open('[')
		for i := range f.Related {
			r := &f.Related[i]
			a.elem()
			a.open('{')
			a.key(`"file": `)
			a.str(r.File)
			a.key(`"line": `)
			a.int(r.Line)
			a.key(`"column": `)
			a.int(r.Column)
			a.key(`"message": `)
			a.str(r.Message)
			a.close('}')
		}
		a.close(']')
	}
	a.member(at1 + `"repair": `)
	a.repair(f.Repair)
	a.member(at1 + `"no_repair_reason": `)
	if f.NoRepairReason == nil {
		a.null()
	} else {
		a.str(*f.NoRepairReason)
	}
	a.close('}')
}

func (a *jsonAppender) repair(r *jsonRepair) {
	if r == nil {
		a.null()
		return
	}
	a.open('{')
	a.key(`"description": `)
	a.str(r.Description)
	a.key(`"safety": `)
	a.str(r.Safety)
	a.key(`"edits": `)
	if r.Edits == nil {
		a.null()
	} else {
		a.open('[')
		for i := range r.Edits {
			e := &r.Edits[i]
			a.elem()
			a.open('{')
			a.key(`"file": `)
			a.str(e.File)
			a.key(`"offset": `)
			a.int(e.Offset)
			a.key(`"length": `)
			a.int(e.Length)
			a.key(`"line": `)
			a.int(e.Line)
			a.key(`"column": `)
			a.int(e.Column)
			a.key(`"end_line": `)
			a.int(e.EndLine)
			a.key(`"end_column": `)
			a.int(e.EndColumn)
			a.key(`"text": `)
			a.str(e.Text)
			a.close('}')
		}
		a.close(']')
	}
	a.close('}')
}
