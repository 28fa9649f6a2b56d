package n8nschema

import (
	"testing"
)

// TestDescribeAsDescribeNode: what a parsed node keeps of its description
// (Describe, describeAs, declaredSet) is what DescribeNode and the
// entry's parameter list say, for every node of the fixtures and the
// corpora, and for hand-made nodes of known, unknown, tool and unversioned
// types.
func TestDescribeAsDescribeNode(t *testing.T) {
	check := func(where string, n *Node) {
		t.Helper()
		want, wantOK := DescribeNode(n.Type, n.TypeVersion)
		got, ok := n.Describe()
		if got != want || ok != wantOK {
			t.Fatalf("%s: %q v%v: Describe %+v %v, DescribeNode %+v %v", where, n.Type, n.TypeVersion, got, ok, want, wantOK)
		}
		for _, typ := range []string{n.Type, n.Type + "Tool", "n8n-nodes-base.set"} {
			want, wantOK := DescribeNode(typ, n.TypeVersion)
			if got, ok := n.describeAs(typ); got != want || ok != wantOK {
				t.Fatalf("%s: describeAs(%q) %+v %v, DescribeNode %+v %v", where, typ, got, ok, want, wantOK)
			}
		}
		if got.e != nil && got.e.params != "" {
			set := declaredSet(got.e)
			if len(set) != len(splitParams(got.e.params)) {
				t.Fatalf("%s: declaredSet of %q has %d names", where, got.e.params, len(set))
			}
			for _, p := range splitParams(got.e.params) {
				if !set[p] {
					t.Fatalf("%s: declaredSet lacks %q", where, p)
				}
			}
		}
	}
	described := 0
	eachFixtureNode(t, func(where string, n *Node) {
		if n.described {
			described++
		}
		check(where, n)
	})
	if described == 0 {
		t.Fatal("no parsed node was described at parse")
	}
	for _, n := range []*Node{
		{Type: "n8n-nodes-base.httpRequest", TypeVersion: 4.2},
		{Type: "n8n-nodes-base.httpRequest", TypeVersion: 0},
		{Type: "n8n-nodes-base.httpRequest", TypeVersion: 99},
		{Type: "n8n-nodes-base.httpRequestTool", TypeVersion: 4.2},
		{Type: "n8n-nodes-base.stickyNote", TypeVersion: 1},
		{Type: "community.unknown", TypeVersion: 1},
		{Type: ""},
	} {
		// As the parse does: Describe then reads what describe kept, not
		// DescribeNode again.
		n.describe()
		if !n.described {
			t.Fatalf("hand-made %q v%v: not described", n.Type, n.TypeVersion)
		}
		check("hand-made", n)
	}
}

func splitParams(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != ' ' {
			i++
		}
		out = append(out, s[:i])
		if i == len(s) {
			break
		}
		s = s[i+1:]
	}
	return out
}
