package n8nschema

import (
	"slices"
	"strings"
	"testing"
)

// exprsWithWalk is ExprsWith as the filter of every scalar, in the
// walk's order.
func exprsWithWalk(v Value, b byte) []Value {
	var out []Value
	v.Scalars(func(c Value) bool {
		if c.IsExpr() && (c.escapedU() || strings.IndexByte(c.Str(), b) >= 0) {
			out = append(out, c)
		}
		return true
	})
	return out
}

// escapedU reports a string that holds a \u escape.
func (v Value) escapedU() bool { return v.Kind() == String && v.node().flags&strU != 0 }

// sameExprsWith fails t where ExprsWith and the walk's filter differ on
// v: the values, their order and their paths; and where ExprsWith goes on
// after fn returns false. It returns how many values it met.
func sameExprsWith(t *testing.T, what string, v Value, b byte) int {
	t.Helper()
	want := exprsWithWalk(v, b)
	var got []Value
	v.ExprsWith(b, func(c Value) bool {
		got = append(got, c)
		return true
	})
	eq := func(a, b Value) bool { return a.t == b.t && a.i == b.i && a.Path() == b.Path() }
	if !slices.EqualFunc(got, want, eq) {
		t.Errorf("%s: ExprsWith(%q) met %d values, the walk's filter %d, or in another order or with other paths", what, b, len(got), len(want))
		return len(want)
	}
	if len(want) > 1 {
		k := 0
		v.ExprsWith(b, func(Value) bool {
			k++
			return false
		})
		if k != 1 {
			t.Errorf("%s: ExprsWith called fn %d times after it returned false", what, k)
		}
	}
	return len(want)
}

// TestExprsWith: on hand-written parameters, the strings ExprsWith meets
// are those the walk's filter meets, in its order and with its paths:
// nested containers, whose strings the tree holds out of source order (a
// string before a container in one object comes after the container's
// strings there); an "=" and a '$' spelled as escapes, a \u escape that
// spells neither; a literal; a repeated key; more strings than ExprsWith
// keeps in order; a value reached by an odd path; a string alone; nothing.
func TestExprsWith(t *testing.T) {
	many := make([]string, 40)
	for k := range many {
		many[k] = `{"v": "={{ $json.a` + itoa(k) + ` }}", "n": [1, "=x $ y", {"d": "={{ $('N') }}"}]}`
	}
	src := `{"nodes": [
	 {"name": "A", "type": "n8n-nodes-base.set", "parameters": {
	  "a": {"b": [{"c": "={{ $json.x }}"}, "=plain"], "d": "={{ $('X').item }}"},
	  "p": {"x": "={{ $json.p }}", "y": {"z": "={{ $json.z }}"}},
	  "e": [[["={{ $node[\"Y\"].json }}"]], {"f": "no $ here"}],
	  "g": "\u003d{{ $('Z') }}", "h": "={{ \u0024('W') }}", "i": "={{ \u00e9 }}",
	  "j": "=lit $ eral", "k": "={{ 1 }}", "k": "={{ $json.k }}",
	  "a.b": {"0": "={{ $('odd') }}"}, "l": {}, "m": [], "n": 3, "o": null}},
	 {"name": "B", "type": "n8n-nodes-base.set", "parameters": {"many": [` + strings.Join(many, ",") + `]}},
	 {"name": "C", "type": "n8n-nodes-base.set", "parameters": "={{ $('C') }}"},
	 {"name": "D", "type": "n8n-nodes-base.set"}
	], "connections": {}}`
	f := Parse(NewSource("t.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parsed %d workflows: %v", len(f.Workflows), f.Problems)
	}
	met := 0
	for _, n := range f.Workflows[0].Nodes {
		p := n.Params()
		met += sameExprsWith(t, n.Name, p, '$')
		met += sameExprsWith(t, n.Name+" {", p, '{')
		met += sameExprsWith(t, n.Name+" a", p.Get("a"), '$')
		met += sameExprsWith(t, n.Name+" odd", p.Get(`a\.b`), '$')
		met += sameExprsWith(t, n.Name+" many.3", p.Get("many.3"), '$')
	}
	if met < 80 {
		t.Errorf("met %d values in all: the fixture proves little", met)
	}
}

// TestExprsWithCorpus: on every node of the corpora, ExprsWith meets what
// the walk's filter meets.
func TestExprsWithCorpus(t *testing.T) {
	for _, name := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		met := 0
		eachCorpusFile(t, name, func(path string, src []byte) {
			for _, w := range Parse(NewSource(path, src)).Workflows {
				for _, n := range w.Nodes {
					met += sameExprsWith(t, path+": "+n.Name, n.Params(), '$')
				}
			}
		})
		if met == 0 {
			t.Errorf("%s: no expression holds a '$': the comparison proves nothing", name)
		}
	}
}
