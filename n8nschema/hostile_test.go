package n8nschema

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func problemLines(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%d %s %s %s\n", p.Kind, p.Pos, p.Pos.Path, p.Message)
	}
	return b.String()
}

// TestDuplicateKeysLastWins: n8n reads workflow files with JSON.parse,
// where the last member of a repeated key wins. A harmless first "nodes"
// must not hide the retried Stripe POST that n8n runs, at any level the
// model reads: the root, a node, its parameters, settings, connections.
func TestDuplicateKeysLastWins(t *testing.T) {
	src := `{
  "name": "decoy",
  "nodes": [{"name": "Noop", "type": "n8n-nodes-base.noOp", "parameters": {}}],
  "connections": {},
  "nodes": [
    {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "parameters": {}},
    {"name": "Charge", "type": "n8n-nodes-base.noOp", "type": "n8n-nodes-base.httpRequest",
     "retryOnFail": false, "retryOnFail": true, "maxTries": 5,
     "parameters": {"method": "GET", "url": "https://example.com", "method": "POST", "url": "https://api.stripe.com/v1/charges"}}
  ],
  "connections": {
    "Start": {"main": [[{"node": "Noop", "type": "main", "index": 0}]]},
    "Start": {"main": [[{"node": "Charge", "type": "main", "index": 0}]]}
  },
  "settings": {"errorWorkflow": "a", "errorWorkflow": "b"},
  "name": "Stripe charge"
}`
	f := Parse(NewSource("dup.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("workflows: %d, problems:\n%s", len(f.Workflows), problemLines(f.Problems))
	}
	w := f.Workflows[0]
	var names []string
	for _, n := range w.Nodes {
		names = append(names, n.Name+"="+n.Type)
	}
	if got := strings.Join(names, ","); got != "Start=n8n-nodes-base.manualTrigger,Charge=n8n-nodes-base.httpRequest" {
		t.Errorf("nodes %s; want the last \"nodes\" array", got)
	}
	charge := w.Node("Charge")
	method, _ := charge.Param("method")
	url, _ := charge.Param("url")
	if !charge.RetryOnFail || method.Str() != "POST" || url.Str() != "https://api.stripe.com/v1/charges" {
		t.Errorf("Charge: retryOnFail %v, %s %s; want the last members: true, POST to Stripe", charge.RetryOnFail, method.Str(), url.Str())
	}
	if len(w.Connections) != 1 || w.Connections[0].To != "Charge" {
		t.Errorf("connections %+v; want Start → Charge only", w.Connections)
	}
	if w.Settings.ErrorWorkflow != "b" || w.Name != "Stripe charge" {
		t.Errorf("errorWorkflow %q, name %q; want the last members b, Stripe charge", w.Settings.ErrorWorkflow, w.Name)
	}
	if len(w.Problems) != 0 {
		t.Errorf("workflow problems:\n%s", problemLines(w.Problems))
	}
	want := `5 5:3 nodes key "nodes" appears again in the same object (first at 3:3); n8n (JSON.parse) keeps only this last copy, so what the first copy holds at "0.name" is lost
5 7:55 nodes.1.type key "type" appears again in the same object (first at 7:24); n8n (JSON.parse) keeps only this last copy, so the value of the first copy is lost
5 8:28 nodes.1.retryOnFail key "retryOnFail" appears again in the same object (first at 8:6); n8n (JSON.parse) keeps only this last copy, so the value of the first copy is lost
5 9:68 nodes.1.parameters.method key "method" appears again in the same object (first at 9:21); n8n (JSON.parse) keeps only this last copy, so the value of the first copy is lost
5 9:86 nodes.1.parameters.url key "url" appears again in the same object (first at 9:38); n8n (JSON.parse) keeps only this last copy, so the value of the first copy is lost
5 11:3 connections key "connections" appears again in the same object (first at 4:3); n8n (JSON.parse) keeps only this last copy; the earlier copy is empty or holds the same values, so nothing is lost
5 13:5 connections.Start key "Start" appears again in the same object (first at 12:5); n8n (JSON.parse) keeps only this last copy, so what the first copy holds at "main.0.0.node" is lost
5 15:38 settings.errorWorkflow key "errorWorkflow" appears again in the same object (first at 15:16); n8n (JSON.parse) keeps only this last copy, so the value of the first copy is lost
5 16:3 name key "name" appears again in the same object (first at 2:3); n8n (JSON.parse) keeps only this last copy, so the value of the first copy is lost
`
	if got := problemLines(f.Problems); got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
	// Only the empty first "connections" loses nothing: a note.
	for _, p := range f.Problems {
		if p.Note != (p.Pos.Path == "connections") {
			t.Errorf("%s: note %v", p.Pos.Path, p.Note)
		}
	}
}

// TestDuplicateKeysEscapedAndThrice: keys compare unescaped ("\u0061" is
// "a" to JSON.parse), and of three members the third wins: one problem, at
// the third, naming the first.
func TestDuplicateKeysEscapedAndThrice(t *testing.T) {
	src := `{"nodes": [], "connections": {}, "settings": {"errorWorkflow": "1", "errorW\u006frkflow": "2", "errorWorkflow": "3"}}`
	f := Parse(NewSource("dup.json", []byte(src)))
	if got := f.Workflows[0].Settings.ErrorWorkflow; got != "3" {
		t.Errorf("errorWorkflow %q, want 3", got)
	}
	want := `5 1:96 settings.errorWorkflow key "errorWorkflow" appears 3 times in the same object (first at 1:47); n8n (JSON.parse) keeps only this last copy and drops 2, so the value of the first copy is lost
`
	if got := problemLines(f.Problems); got != want || f.Problems[0].Note {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
}

// TestDeepNesting: ten million "[" overflowed the Go stack (a fatal error
// no recover catches). Nesting past MaxDepth is an RS001 problem at the
// bracket that goes too deep, inside a workflow as well as at the root.
func TestDeepNesting(t *testing.T) {
	f := Parse(NewSource("deep.json", []byte(strings.Repeat("[", 10_000_000))))
	want := fmt.Sprintf("1 1:%d  arrays and objects nest more than 512 levels deep here; the file is not audited\n", MaxDepth+1)
	if got := problemLines(f.Problems); got != want || len(f.Workflows) != 0 {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
	// Brackets inside strings do not count; a real parameter just under
	// the limit is read.
	ok := `{"nodes": [{"name": "A", "type": "x", "parameters": {"s": "[[[[", "v": ` +
		strings.Repeat("[", MaxDepth-4) + strings.Repeat("]", MaxDepth-4) + `}}], "connections": {}}`
	if f := Parse(NewSource("ok.json", []byte(ok))); len(f.Problems) != 0 || len(f.Workflows) != 1 {
		t.Errorf("nesting of %d: problems\n%s", MaxDepth, problemLines(f.Problems))
	}
	deep := strings.Replace(ok, `"v": [`, `"v": [[`, 1) + "]"
	deep = strings.Replace(deep, `]}}], "connections": {}}]`, `]]}}], "connections": {}}`, 1)
	f = Parse(NewSource("deep.json", []byte(deep)))
	// The root, nodes, the node and parameters are 4 levels; the 509th
	// bracket of "v" is level 513.
	col := strings.Index(deep, `"v": [`) + len(`"v": `) + MaxDepth - 4 + 1
	if len(f.Problems) != 1 || f.Problems[0].Kind != InvalidJSON || f.Problems[0].Pos.Col != col {
		t.Errorf("nesting of %d in a parameter: problems\n%s", MaxDepth+1, problemLines(f.Problems))
	}
}

// TestScanUnterminatedEscapedKey: the scan runs before validation, on any
// bytes; an escaped key cut off by the end of the input must not slice
// past it (the slice has no spare capacity here, so that would panic).
func TestScanUnterminatedEscapedKey(t *testing.T) {
	for _, src := range []string{`{"a\\`, `{"a\\"`, `{"\\u00`, `[{"x":1,"a\\`} {
		b := []byte(src)[:len(src):len(src)]
		f := Parse(NewSource("cut.json", b))
		if len(f.Problems) != 1 || f.Problems[0].Kind != InvalidJSON {
			t.Errorf("%q: problems\n%s\nwant one InvalidJSON", src, problemLines(f.Problems))
		}
	}
}

// TestDuplicateKeysInterleavedPositions: repeats of two keys taking turns
// on one line ("a","b","a","b") are located in offset order, not in
// report order; every position must still be the exact rune column.
func TestDuplicateKeysInterleavedPositions(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"nodes":[],"connections":{},"x":{"é":"ü"`)
	for range 5 {
		sb.WriteString(`,"a":"ö","b":1`)
	}
	sb.WriteString("}}")
	src := sb.String()
	f := Parse(NewSource("w.json", []byte(src)))
	col := func(off int) int { return utf8.RuneCountInString(src[:off]) + 1 }
	var got int
	for _, p := range f.Problems {
		if p.Kind != DuplicateKey {
			continue
		}
		got++
		if p.Pos.Line != 1 || p.Pos.Col != col(p.Pos.Offset) || src[p.Pos.Offset] != '"' {
			t.Errorf("problem at offset %d: line %d col %d, want line 1 col %d", p.Pos.Offset, p.Pos.Line, p.Pos.Col, col(p.Pos.Offset))
		}
		// it stands at the last copy and names the first
		key := src[p.Pos.Offset : p.Pos.Offset+3]
		if p.Pos.Offset != strings.LastIndex(src, key) {
			t.Errorf("problem at offset %d, want the last %s", p.Pos.Offset, key)
		}
		first := strings.Index(src, key)
		if want := fmt.Sprintf("(first at 1:%d)", col(first)); !strings.Contains(p.Message, want) {
			t.Errorf("problem at offset %d: %q does not say %s", p.Pos.Offset, p.Message, want)
		}
	}
	if got != 2 {
		t.Errorf("%d repeated-key problems, want 2 (one per key)", got)
	}
}

// TestDuplicateKeysWhatIsLost: a repeated key is a note when every copy
// JSON.parse drops holds nothing the kept one lacks (empty, or the same
// values however spaced), and a warning naming what is lost otherwise.
func TestDuplicateKeysWhatIsLost(t *testing.T) {
	edge := `{"main": [[{"node": "B", "type": "main", "index": 0}]]}`
	for _, c := range []struct {
		name, copies string
		note         bool
		lost         string
	}{
		{"empty object", `"A": {}, "A": ` + edge, true, ""},
		{"empty slot", `"A": {"main": [[]]}, "A": ` + edge, true, ""},
		{"empty outputs", `"A": {"main": []}, "A": ` + edge, true, ""},
		{"three empty copies", `"A": [], "A": [[]], "A": {"main": [[], null]}, "A": ` + edge, true, ""},
		{"same edge spaced otherwise", `"A": {"main":[[{"node":"B","type":"main","index":0}]]}, "A": ` + edge, true, ""},
		{"kept copy holds more", `"A": {"main": [[{"node": "B"}]]}, "A": ` + edge, true, ""},
		{"lost edge", `"A": {"main": [[{"node": "C", "type": "main", "index": 0}]]}, "A": ` + edge, false, `"main.0.0.node"`},
		{"edge on another output", `"A": {"main": [[], [{"node": "B", "type": "main", "index": 0}]]}, "A": ` + edge, false, `"main.1"`},
		{"lost in the middle copy", `"A": {}, "A": {"main": [[{"node": "C"}]]}, "A": ` + edge, false, `the copy at 1:`},
	} {
		src := `{"nodes": [{"name": "A", "type": "n8n-nodes-base.noOp"}, {"name": "B", "type": "n8n-nodes-base.noOp"}], "connections": {` + c.copies + `}}`
		f := Parse(NewSource("dup.json", []byte(src)))
		if len(f.Problems) != 1 {
			t.Errorf("%s: problems\n%s\nwant one", c.name, problemLines(f.Problems))
			continue
		}
		p := f.Problems[0]
		if p.Note != c.note || p.Pos.Offset != strings.LastIndex(src, `"A"`) || !strings.Contains(p.Message, c.lost) {
			t.Errorf("%s: note %v at %d: %s\nwant note %v at the last copy, saying %s", c.name, p.Note, p.Pos.Offset, p.Message, c.note, c.lost)
		}
		if w := f.Workflows[0]; len(w.Connections) != 1 || w.Connections[0].To != "B" {
			t.Errorf("%s: connections %+v, want the kept A → B", c.name, w.Connections)
		}
	}
}
