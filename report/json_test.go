package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/internal/pool"
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

// TestArrayInOrder: the array's chunks, encoded on two cores and written
// by whichever finishes the next one, come out in index order, whatever
// the length against the chunk and the window, and whatever the sizes.
func TestArrayInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 71, 200, 1000} {
		var got bytes.Buffer
		jw := &jsonWriter{w: bufio.NewWriter(&got), encs: [2]jsonEncoder{{red: memo{}}, {red: memo{}}}}
		jw.array(n, func(i int, e *jsonEncoder) error {
			return e.encode(map[string]any{"i": i, "pad": strings.Repeat("x", i*7919%500)}, "    ")
		})
		if err := jw.w.Flush(); err != nil || jw.err != nil {
			t.Fatal(err, jw.err)
		}
		want := "[]"
		if n > 0 {
			var b strings.Builder
			b.WriteString("[\n")
			for i := range n {
				b.WriteString(fmt.Sprintf("    {\n      \"i\": %d,\n      \"pad\": %q\n    }", i, strings.Repeat("x", i*7919%500)))
				if i < n-1 {
					b.WriteString(",")
				}
				b.WriteString("\n")
			}
			b.WriteString("  ]")
			want = b.String()
		}
		if got.String() != want {
			t.Errorf("n=%d: the array is not in order:\n%s", n, got.String())
		}
	}
}

// TestArrayPanicDoesNotHang: a panic while one core makes an element is
// raised in the caller (pool's *Panic), and the other core, which may be
// waiting for that element's chunk to be written, does not wait forever.
func TestArrayPanicDoesNotHang(t *testing.T) {
	for _, at := range []int{0, 5, 8, 100, 399} {
		done := make(chan any, 1)
		go func() {
			defer func() { done <- recover() }()
			jw := &jsonWriter{w: bufio.NewWriter(io.Discard), encs: [2]jsonEncoder{{red: memo{}}, {red: memo{}}}}
			jw.array(400, func(i int, e *jsonEncoder) error {
				if i == at {
					panic("boom")
				}
				return e.encode(i, "    ")
			})
		}()
		select {
		case r := <-done:
			if p, ok := r.(*pool.Panic); !ok || fmt.Sprint(p.Value) != "boom" {
				t.Errorf("panic at %d: recovered %v, want the pool's panic of boom", at, r)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("panic at %d: the array never returned", at)
		}
	}
}

// failAfter fails every write once n bytes are written.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestArrayWriteErrorStops: a write that fails stops both cores and is the
// error the render keeps, wherever in the array it happens.
func TestArrayWriteErrorStops(t *testing.T) {
	for _, after := range []int{0, 100, 5000, 50000} {
		jw := &jsonWriter{w: bufio.NewWriterSize(&failAfter{n: after}, 16), encs: [2]jsonEncoder{{red: memo{}}, {red: memo{}}}}
		jw.array(2000, func(i int, e *jsonEncoder) error { return e.encode(map[string]int{"i": i}, "    ") })
		if jw.err == nil || jw.err.Error() != "disk full" {
			t.Errorf("failing after %d bytes: error %v, want disk full", after, jw.err)
		}
	}
}
