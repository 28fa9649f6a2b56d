package analyze

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestStaticDeclsAsRegexp holds staticDecls to the search of the whole
// code it replaces: the same declarations, and the same refusal when a
// call is none of them or there are more than four.
func TestStaticDeclsAsRegexp(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want := staticDeclRE.FindAllStringSubmatchIndex(s, -1)
		wantEach := len(want) == len(staticAnyRE.FindAllStringIndex(s, -1)) && len(want) <= 4
		got, each := staticDecls(s)
		if each != wantEach || each && !slices.EqualFunc(got, want, slices.Equal[[]int]) {
			t.Fatalf("staticDecls(%q) = %v, %v; the regexp %v, %v", s, got, each, want, wantEach)
		}
	}
	for _, c := range []string{
		"const s = $getWorkflowStaticData('global'); s.x = 1;", "let  d=this . getWorkflowStaticData ( \"node\" )",
		"x(getWorkflowStaticData('global'))", "const a = $getWorkflowStaticData('global'), b = $getWorkflowStaticData('node')",
		"// note\nvar n = $getWorkflowStaticData('node')", "const 9x = $getWorkflowStaticData('global')", "getWorkflowStaticData",
	} {
		check(c)
	}
	pieces := []string{"const", "let", "var", " ", "\n", "\t", "x", "$", "=", "this", ".", "getWorkflowStaticData", "(", ")", "'", "\"",
		"global", "node", ";", "_", "9", "é", "s"}
	r := rand.New(rand.NewSource(1))
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	ws := func() string { return pick("", " ", "  ", "\n", "\t ") }
	decls := 0
	for range 40000 {
		var b strings.Builder
		for range r.Intn(6) {
			if r.Intn(3) == 0 {
				b.WriteString(pieces[r.Intn(len(pieces))])
				continue
			}
			// A declaration, then maybe one byte dropped or a piece put in.
			d := pick("const", "let", "var", "xconst") + pick(" ", "\n", "\t", "") + pick("s", "$d", "_9", "9x", "this") + ws() + "=" + ws() +
				pick("$", "this"+ws()+"."+ws(), "", "x.") + "getWorkflowStaticData" + ws() + "(" + ws() + pick("'", "\"") +
				pick("global", "node", "nodes") + pick("'", "\"") + ws() + pick(")", "", "))")
			if k := r.Intn(len(d) + 1); r.Intn(4) == 0 && k < len(d) {
				d = d[:k] + d[k+1:]
			} else if r.Intn(4) == 0 {
				d = d[:k] + pieces[r.Intn(len(pieces))] + d[k:]
			}
			b.WriteString(d + pick(";", "\n", ", ", "", " x.y = 1;"))
		}
		if len(staticDeclRE.FindAllStringIndex(b.String(), -1)) > 0 {
			decls++
		}
		check(b.String())
	}
	if decls < 2000 {
		t.Fatalf("only %d of the random codes hold a declaration", decls)
	}
}
