package n8nschema

import (
	"encoding/json"
	"slices"
	"testing"
)

// FuzzTree holds the one walk to encoding/json on arbitrary bytes: it
// accepts exactly what json.Valid accepts (nested at most MaxDepth deep),
// never panics, and every value it keeps is valid JSON on its own, lies
// inside its parent and after its elder sibling, and is found again by
// Get with its path.
func FuzzTree(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `[]`, `0`, `-0.5e+3`, `"a\"b\\"`, `"\ud83d\ude00"`, `{"a":[1,{"b":null}],"c":true}`,
		`{"a":1,"a":{"x":[]},"a":2}`, `{"k\u0061":1,"ka":2}`, "[1,\n\t2 ]", `[1,]`, `{"a" 1}`, `01`, `"` + "\x01" + `"`,
		`{"a.b":{"0":["x"]},"":{"":1}}`, "\"\xff\"", "\n[\r\n1,\n\n\t2\n]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		data = data[:len(data):len(data)]
		r := buildTree(NewSource("fuzz.json", data), view(data), 0)
		if deepBracket(data) < 0 && r.ok != json.Valid(data) {
			t.Fatalf("buildTree ok=%v, json.Valid=%v", r.ok, json.Valid(data))
		}
		if !r.ok {
			return
		}
		if want := scannedLineStarts(data); !slices.Equal(r.lines, want) {
			t.Fatalf("line starts from the walk %v, from a scan %v", r.lines, want)
		}
		tr := r.t
		// An empty key's path element is empty too, so its path can name
		// another value (gjson's syntax has no escape for it).
		var check func(v Value, emptyKey bool)
		check = func(v Value, emptyKey bool) {
			n := v.node()
			start, end := v.Span()
			if start < 0 || end > len(data) || start >= end {
				t.Fatalf("%q: span %d..%d outside the text", v.Path(), start, end)
			}
			if v.i != 0 && !json.Valid(data[start:end]) {
				t.Fatalf("%q: raw %q is not valid JSON", v.Path(), v.Raw())
			}
			if v.i != 0 && !emptyKey {
				if got := (Value{t: tr}).Get(v.Path()); got.t == nil || got.i != v.i {
					t.Fatalf("Get(%q) does not find the value walked to", v.Path())
				}
			}
			if !n.container() {
				return
			}
			prev := start
			v.children(func(elem string, c Value) bool {
				cs, ce := c.Span()
				if cs <= prev || ce > end {
					t.Fatalf("%q: child %q at %d..%d, parent %d..%d, previous at %d", v.Path(), c.Path(), cs, ce, start, end, prev)
				}
				prev = cs
				check(c, emptyKey || n.kind() == Object && elem == "")
				return true
			})
		}
		check(Value{t: tr}, false)
	})
}
