package n8nschema

import (
	"slices"
	"testing"
)

// TestVersionNumAsNum: the parse's typeVersion read in place gives what
// Num gives, for numbers of every shape it reads in place and of the
// shapes it leaves to Num.
func TestVersionNumAsNum(t *testing.T) {
	var raws []string
	for a := '0'; a <= '9'; a++ {
		raws = append(raws, string(a))
		for b := '0'; b <= '9'; b++ {
			raws = append(raws, string(a)+"."+string(b), string(a)+string(b), "-"+string(a)+"."+string(b))
		}
	}
	raws = append(raws, `"2"`, `"2.1"`, `"x"`, "1e0", "2.10", "0.1", "10.5", "-1", "null", "true", "[1]", "{}")
	for _, raw := range raws {
		src := `{"nodes":[{"name":"a","type":"n8n-nodes-base.set","typeVersion":` + raw + `,"parameters":{}}],"connections":{}}`
		f := Parse(NewSource("v.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			continue // not JSON ("01")
		}
		v := f.Workflows[0].Nodes[0].Value.Get("typeVersion")
		got, gotOK := versionNum(v)
		want, wantOK := v.Num()
		if got != want || gotOK != wantOK {
			t.Errorf("%s: versionNum %v %v, Num %v %v", raw, got, gotOK, want, wantOK)
		}
	}
}

// TestParamAsGet: Param of a key that is not hot, read off the indexed
// parameters, is what n.Params().Get gives (value, kind, path, position),
// for every key of every node of the fixtures and corpora, a key none
// holds, a dotted path and an escaped one.
func TestParamAsGet(t *testing.T) {
	eachFixtureNode(t, func(where string, n *Node) {
		keys := []string{"nope", "a.b", `a\.b`, "content", "0"}
		n.Params().Each(func(k string, v Value) bool {
			keys = append(keys, escapeKey(k), escapeKey(k)+".0", escapeKey(k)+".value", `\`+escapeKey(k))
			return true
		})
		for _, k := range keys {
			got, ok := n.Param(k)
			want := n.Params().Get(k)
			if ok != want.Exists() || got.Raw() != want.Raw() || got.Kind() != want.Kind() || got.Path() != want.Path() || got.Pos() != want.Pos() {
				t.Fatalf("%s: %s: Param(%q) %v %q at %q, Get %q at %q", where, n.Name, k, ok, got.Raw(), got.Path(), want.Raw(), want.Path())
			}
			// A path spelled otherwise than the tree spells it (an
			// escape before a plain byte) is the one its children's
			// paths follow.
			var gotKids, wantKids []string
			got.Each(func(k string, c Value) bool { gotKids = append(gotKids, c.Path()); return true })
			want.Each(func(k string, c Value) bool { wantKids = append(wantKids, c.Path()); return true })
			if !slices.Equal(gotKids, wantKids) {
				t.Fatalf("%s: %s: Param(%q)'s members at %q, Get's at %q", where, n.Name, k, gotKids, wantKids)
			}
		}
	})
}
