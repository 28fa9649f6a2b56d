package n8nschema

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
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
		tr := r.t
		// An empty key's path element is empty too, so its path can name
		// another value (the path syntax has no escape for it).
		// want is the path joined level by level, as Each and Elems
		// spelled it before paths were read off the tree.
		var check func(v Value, want string, emptyKey bool)
		check = func(v Value, want string, emptyKey bool) {
			n := v.node()
			if v.Path() != want {
				t.Fatalf("path %q, want %q", v.Path(), want)
			}
			start, end := v.Span()
			if start < 0 || end > len(data) || start >= end {
				t.Fatalf("%q: span %d..%d outside the text", v.Path(), start, end)
			}
			if v.i != 0 && !json.Valid(data[start:end]) {
				t.Fatalf("%q: raw %q is not valid JSON", v.Path(), v.Raw())
			}
			if v.i != 0 && !emptyKey {
				if got := (Value{t: tr}).Get(v.Path()); got.t == nil || got.i != v.i || got.Path() != want {
					t.Fatalf("Get(%q) does not find the value walked to", v.Path())
				}
			}
			if !n.container() {
				return
			}
			prev := start
			for k := range n.n {
				elem := childElem(tr, n, k)
				c := v.sub(n.first+k, elem)
				cs, ce := c.Span()
				if cs <= prev || ce > end {
					t.Fatalf("%q: child %q at %d..%d, parent %d..%d, previous at %d", v.Path(), c.Path(), cs, ce, start, end, prev)
				}
				prev = cs
				check(c, joinPath(want, elem), emptyKey || n.kind() == Object && elem == "")
			}
		}
		check(Value{t: tr}, "", false)
	})
}

// strStop marks the bytes scanString stops at: a quote, a backslash, a
// control character (invalid in JSON strings).
var strStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// TestStopMask: scanString jumps to the lowest byte stopMask flags, so
// that flag must be exactly the first byte strStop marks, and the mask 0
// exactly when no byte is marked.
func TestStopMask(t *testing.T) {
	edges := []byte{0x00, 0x01, 0x1F, 0x20, 0x21, '"' - 1, '"', '"' + 1, '\\' - 1, '\\', '\\' + 1, 'a', 0x7F, 0x80, 0xA2, 0xDC, 0xFF}
	rng := rand.New(rand.NewPCG(1, 2))
	var w [8]byte
	for n := range 500_000 {
		for k := range w {
			if n%2 == 0 {
				w[k] = edges[rng.IntN(len(edges))]
			} else {
				w[k] = byte(rng.Uint32())
			}
		}
		first := 8
		for k := range w {
			if strStop[w[k]] {
				first = k
				break
			}
		}
		if x := load8(string(w[:]), 0); x != binary.LittleEndian.Uint64(w[:]) {
			t.Fatalf("% x: load8 = %#x", w, x)
		}
		m := stopMask(load8(string(w[:]), 0))
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != first {
			t.Fatalf("% x: first stop byte %d, stopMask says %d (mask %#x)", w, first, got, m)
		}
	}
}

// TestUnescapeAsEncodingJSON: unescape reads the text of a valid JSON
// string as encoding/json does (escapes, surrogate pairs, lone
// surrogates as U+FFFD), on texts made of pieces that meet at every
// boundary the word-at-a-time scan has.
func TestUnescapeAsEncodingJSON(t *testing.T) {
	pieces := []string{`a`, `bcdefgh`, `é`, `€`, `"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
		`\u0041`, `\u00e9`, `\u20AC`, `\ud83d\ude00`, `\uD83D`, `\uDE00`, `\ud83dx`, `\u0000`, `{{`, ` `,
		`0123456789abcdefghijklm`, `éééé€€`} // long plain runs: unescape copies them a word at a time
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200_000 {
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		raw := strings.ReplaceAll(sb.String(), `"`, `\"`)
		var want string
		if err := json.Unmarshal([]byte(`"`+raw+`"`), &want); err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if got := unescape(raw); got != want {
			t.Fatalf("unescape(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestLargeSiblingsRepeatedKeys: sibling objects of more than 16 members
// share the builder's key maps one after another; a map comes back empty,
// so the same keys in the next object are no repeats, and a real repeat
// there is found once.
func TestLargeSiblingsRepeatedKeys(t *testing.T) {
	obj := func(extra string) string {
		var ms []string
		for i := range 20 {
			ms = append(ms, fmt.Sprintf(`"k%d": %d`, i, i))
		}
		return "{" + strings.Join(ms, ", ") + extra + "}"
	}
	src := `{"a": ` + obj("") + `, "b": ` + obj("") + `, "c": ` + obj(`, "k3": "again"`) + `}`
	r := buildTree(NewSource("w.json", []byte(src)), src, 0)
	if !r.ok || len(r.reps) != 1 || r.reps[0].path != "c.k3" {
		t.Fatalf("ok %v, repeats %+v; want one, at c.k3", r.ok, r.reps)
	}
}

// TestHoldsBraces: the brace test markLiterals asks of each string answers
// as strings.Contains(s, "{{") on every string of up to six bytes of '{',
// '}' and 'a' (braces apart, together, at either end, three in a row).
func TestHoldsBraces(t *testing.T) {
	var all func(s string)
	all = func(s string) {
		if got, want := holdsBraces(s), strings.Contains(s, "{{"); got != want {
			t.Fatalf("holdsBraces(%q) = %v, want %v", s, got, want)
		}
		if len(s) < 6 {
			for _, c := range "{}a" {
				all(s + string(c))
			}
		}
	}
	all("")
}

// TestKeyOfAsScanned: keyOf's shortcut for `"key": value` reads every key
// as keyScanned, the scan back from the value, does: keys spaced every
// way, empty, escaped (a quote, a colon and a space inside one), far from
// their values, one too long for kdist, and every member of every file of
// n8n-real.
func TestKeyOfAsScanned(t *testing.T) {
	far := strings.Repeat(" ", 70000)
	check := func(name string, src []byte) {
		r := buildTree(NewSource(name, src), view(src), 0)
		if !r.ok {
			return
		}
		tr, n := r.t, 0
		for i := range tr.nodes {
			c := &tr.nodes[i]
			if c.flags&member == 0 {
				continue
			}
			n++
			if got, want := tr.keyOf(c), tr.keyScanned(c); got != want {
				t.Fatalf("%s: member at %d: keyOf %q, scanned %q", name, c.off, got, want)
			}
		}
		if n == 0 && name == "cases" {
			t.Fatal("no member")
		}
	}
	check("cases", []byte(`{"a": 1, "b" : 2, "c":  3, "d":4, "e":`+"\t5, \"f\":\n6, \"\": 7, \"\":  {\"\": [8]}, "+
		`"g\": h": 9, "i\": ": "j\": ", "k\u0022": {"l": ""}, "m"`+far+`: 10, "n":`+far+`11, "o" `+far+`: 12, "p": "\": ", "q" :13, "r":`+"\n14, \"s\"\t:15, \"t\" \t: 16, \"\":\t17, \"u\":\r18, \""+strings.Repeat("v", 70000)+`": 19, "":20, "w":"x", "y" :""}`))
	eachCorpusFile(t, "n8n-real", check)
}

// scanStringByte is scanString read one byte at a time with strStop: the
// reference the word-at-a-time scan and its byte tail must agree with.
func scanStringByte(s string, i int) (end int, esc uint8, ok bool) {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case !strStop[c]:
		case c == '"':
			return i + 1, esc, true
		case c == '\\':
			esc |= strEsc
			if i++; i >= len(s) {
				return i, esc, false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				esc |= strU
				for range 4 {
					if i++; i >= len(s) || !isHex(s[i]) {
						return i, esc, false
					}
				}
			default:
				return i, esc, false
			}
		default: // a control character
			return i, esc, false
		}
	}
	return i, esc, false
}

// TestScanStringAsByteScan: scanString (eight bytes a word, then the
// text's last bytes one at a time without strStop) agrees with a byte
// scan on strings that end, stop or escape at every offset of a word,
// and within the last eight bytes of the text, the text cut anywhere.
func TestScanStringAsByteScan(t *testing.T) {
	pieces := []string{"a", "é", "\x7f", "\xff", " ", "\x1f", "\x00", "\t", `\n`, `\"`, `\\`, `\/`, `\u00e9`, `\u12`, `\x`, `\`, `"`, "ab\"", "\x20\x21"}
	rng := rand.New(rand.NewPCG(37, 8))
	for n := range 200_000 {
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", n%8))
		b.WriteByte('"')
		b.WriteString(strings.Repeat("x", rng.IntN(20)))
		for range rng.IntN(4) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if rng.IntN(4) != 0 {
			b.WriteByte('"')
		}
		b.WriteString(strings.Repeat("z", rng.IntN(10)))
		s := b.String()
		s = s[:n%8+1+rng.IntN(len(s)-n%8)] // the opening quote kept
		end, esc, ok := scanString(s, n%8)
		wEnd, wEsc, wOK := scanStringByte(s, n%8)
		if end != wEnd || esc != wEsc || ok != wOK {
			t.Fatalf("%q: scanString %d %d %v, a byte scan %d %d %v", s, end, esc, ok, wEnd, wEsc, wOK)
		}
	}
}

// TestWSAsSkipWS: the walk's ws (a newline's indentation eight bytes at a
// time, returning at the token after it) stops where skipWS does, at
// every offset of texts of runs of spaces, tabs, CRs and newlines, the
// run ending anywhere in a word and at the end of the text.
func TestWSAsSkipWS(t *testing.T) {
	pieces := []string{" ", "\n", "\t", "\r", "\r\n", "a", "{", "\x00", "\x1f", "\x80", "\n        ", "\n  \t", "\n         \n"}
	rng := rand.New(rand.NewPCG(37, 9))
	for range 20_000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			b.WriteString(strings.Repeat(" ", rng.IntN(20)))
		}
		bd := &builder{text: b.String()}
		for i := range len(bd.text) + 1 {
			if got, want := bd.ws(i), skipWS(bd.text, i); got != want {
				t.Fatalf("%q at %d: ws %d, skipWS %d", bd.text, i, got, want)
			}
		}
	}
}
