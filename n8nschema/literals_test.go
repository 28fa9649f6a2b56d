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
		gotBare, gotNone := tr.markLiterals(0)
		gotExprs := !gotNone
		wantExprs := false
		for i := range tr.nodes {
			if c := &tr.nodes[i]; c.kind() == String && tr.isExpr(c) {
				wantExprs = true
			}
		}
		got := flags()
		if gotBare != wantBare {
			t.Fatalf("%s: bare %v, want %v", text, gotBare, wantBare)
		}
		if gotExprs != wantExprs {
			t.Fatalf("%s: exprs %v, want %v", text, gotExprs, wantExprs)
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

// TestNoExprs: Node.NoExprs holds exactly when the node's parameters are
// an object or array none of whose strings is an expression (IsExpr), on
// hand-written nodes (an expression spelled with escapes, at depth, a
// literal "=text", bare braces, empty and scalar parameters, none) and on
// every node of the corpora; ExprsWith then finds nothing.
func TestNoExprs(t *testing.T) {
	for _, c := range []struct {
		params string
		want   bool
	}{
		{`{"url": "={{ $env.URL }}"}`, false},
		{`{"a": {"b": [1, "x", {"c": "=a {{ $json.b }}"}]}}`, false},
		{`{"a": "\u003d{{ $env.X }}"}`, false},
		{`{"a": "=\u007b\u007b $env.X }}"}`, false},
		{`{"a": "=x\n{{ $env.X }}"}`, false},
		{`["={{ 1 }}"]`, false},
		{`{"a": "=text $env.X"}`, true},
		{`{"a": "{{ $env.X }}"}`, true},
		{`{"a": "\u003dtext", "b": "x\n{{ y }}", "c": "\\={{ x }}"}`, true},
		{`{"a": 1, "b": true, "c": null, "d": [], "e": {}}`, true},
		{`{}`, true},
		{`"={{ $env.X }}"`, false},
		{`"plain"`, false},
		{``, false},
	} {
		member := ""
		if c.params != "" {
			member = `,"parameters":` + c.params
		}
		src := `{"nodes":[{"name":"N","type":"n8n-nodes-base.set","typeVersion":1` + member + `}],"connections":{}}`
		f := Parse(NewSource("x.json", []byte(src)))
		n := f.Workflows[0].Nodes[0]
		if got := n.NoExprs(); got != c.want {
			t.Errorf("%s: NoExprs %v, want %v", c.params, got, c.want)
		}
		if n.NoExprs() && anyExpr(n) {
			t.Errorf("%s: NoExprs, but an expression is there", c.params)
		}
	}
	nodes, none := 0, 0
	for _, set := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		eachCorpusFile(t, set, func(path string, src []byte) {
			for _, w := range Parse(NewSource(path, src)).Workflows {
				for _, n := range w.Nodes {
					nodes++
					p := n.Params()
					if want := p.Kind() == Object || p.Kind() == Array; want && !anyExpr(n) != n.NoExprs() {
						t.Errorf("%s: node %q: NoExprs %v, an expression there %v", path, n.Name, n.NoExprs(), anyExpr(n))
					} else if !want && n.NoExprs() {
						t.Errorf("%s: node %q: NoExprs with parameters of kind %v", path, n.Name, p.Kind())
					}
					if n.NoExprs() {
						none++
					}
				}
			}
		})
	}
	if none == 0 || none == nodes {
		t.Errorf("%d of %d nodes hold no expression: the corpora should hold both", none, nodes)
	}
}

// anyExpr reports whether a string of n's parameters is an expression,
// read by Scalars, and ExprsWith('$') or ExprsWith('{') finds one too
// when it is.
func anyExpr(n *Node) bool {
	found := false
	n.Params().Scalars(func(v Value) bool {
		found = v.IsExpr()
		return !found
	})
	with := false
	n.Params().ExprsWith('{', func(Value) bool { with = true; return false })
	if with != found {
		panic("ExprsWith('{') and Scalars disagree")
	}
	return found
}
