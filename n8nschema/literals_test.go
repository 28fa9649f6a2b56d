package n8nschema

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// markLiteralsUnescaping is markLiterals as it was before it decided the
// strings with no \u without unescaping them: the reference
// TestMarkLiteralsAsUnescaping holds it to.
func (t *tree) markLiteralsUnescaping(i uint32) (bare bool) {
	n := &t.nodes[i]
	if !n.container() || n.n == 0 {
		return false
	}
	lo, hi := t.descendants(n)
	for k := lo; k < hi; k++ {
		c := &t.nodes[k]
		if c.kind() != String {
			continue
		}
		var lit bool
		raw := t.text[c.off+1 : c.first-1]
		switch {
		case c.flags&strEsc == 0:
			if t.text[c.off+1] == '=' {
				lit = !strings.Contains(t.text[c.off+2:c.first-1], "{{")
			} else if !bare {
				bare = strings.Contains(raw, "{{")
			}
		case raw[0] != '=' && raw[0] != '\\':
			if !bare {
				bare = strings.Contains(raw, "{{")
			}
		case strings.Contains(raw, "{{"):
			if raw[0] == '\\' && !bare {
				bare = !strings.HasPrefix(unescape(raw), "=")
			}
		default:
			s := unescape(raw)
			lit = strings.HasPrefix(s, "=") && !strings.Contains(s, "{{")
		}
		if lit {
			c.flags |= literal
		}
	}
	return bare
}

// TestMarkLiteralsAsUnescaping: markLiterals flags the same strings and
// reports the same bare braces as the version that unescaped every
// escaped string starting with "=" or an escape, on strings made of
// pieces that spell "=" and braces as themselves and as \u escapes, and
// other escapes; each string alone (bare is per object) and all together.
func TestMarkLiteralsAsUnescaping(t *testing.T) {
	pieces := []string{"=", "{", "{{", "}", "a", `\n`, `\"`, `\\`, `\/`, `\u003d`, `\u003D`, `\u007b`, `\u007B`, `\u0041`, `\t`}
	rng := rand.New(rand.NewPCG(32, 7))
	strs := []string{`=\n`, `=\"{{`, `\n{{`, `\u003d{{`, `=\u007b{`, `\\=`, `=a\"`, `\"{{ x }}`, `=\u007B\u007B`, `\u003d\n`}
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		strs = append(strs, b.String())
	}
	check := func(text string) {
		t.Helper()
		r := buildTree(NewSource("t.json", []byte(text)), text, 0)
		if !r.ok {
			t.Fatalf("not valid JSON: %s", text)
		}
		tr := r.t
		flags := func() []bool {
			f := make([]bool, len(tr.nodes))
			for i := range tr.nodes {
				f[i] = tr.nodes[i].flags&literal != 0
				tr.nodes[i].flags &^= literal
			}
			return f
		}
		wantBare := tr.markLiteralsUnescaping(0)
		want := flags()
		gotBare := tr.markLiterals(0)
		got := flags()
		if gotBare != wantBare {
			t.Fatalf("%s: bare %v, want %v", text, gotBare, wantBare)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: node %d literal %v, want %v", text, i, got[i], want[i])
			}
		}
	}
	var all strings.Builder
	all.WriteString(`{"p": [`)
	for i, s := range strs {
		check(`{"a": "` + s + `"}`)
		if i > 0 {
			all.WriteString(", ")
		}
		all.WriteString(`"` + s + `"`)
	}
	all.WriteString(`]}`)
	check(all.String())
}
