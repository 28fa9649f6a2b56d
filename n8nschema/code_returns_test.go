package n8nschema

import "testing"

// TestTopLevelReturns: only the returns of the Code node's own function
// count; a helper's, a callback's or an IIFE's do not.
func TestTopLevelReturns(t *testing.T) {
	cases := []struct {
		code string
		want []string // what follows each top-level return
	}{
		{"return [{ json: {} }];", []string{" [{ json"}},
		{"const t = (s) => { return s.slice(0, 9); };\nreturn [{ json: { t: t('x') } }];", []string{" [{ json"}},
		{"function f(a) { if (a) { return 1 } return 2 }\nreturn items;", []string{" items;"}},
		{"const o = { m(x) { return x } };\nreturn items;", []string{" items;"}},
		{"const v = (() => { try { return JSON.parse(x) } catch (e) { return null } })();\nreturn [{json: v}];", []string{" [{json: v}];"}},
		{"if (x) { return []; }\nfor (const a of b) { return a; }", []string{" [];", " a;"}},
		{"const s = `a ${ (() => { return 1 })() } b`; // return no\nreturn s;", []string{" s;"}},
		{"const r = /[{]/; const q = '{'; /* { */ return out;", []string{" out;"}},
		{"const r = a / b; items.forEach(function (i) { return; });\nreturn x.filter(y => y);", []string{" x.filter(y => y);"}},
		{"}}} return a; ((( {", []string{" a; ((( {"}},
		{"x.return; return", []string{""}},
		{"for await (const r of rows) { return r; }\nreturn items;", []string{" r;", " items;"}},
	}
	for _, c := range cases {
		got := TopLevelReturns(c.code)
		if len(got) != len(c.want) {
			t.Errorf("%q: %d top-level returns, want %d", c.code, len(got), len(c.want))
			continue
		}
		for i, at := range got {
			rest := c.code[at:]
			if len(rest) > len(c.want[i]) {
				rest = rest[:len(c.want[i])]
			}
			if rest != c.want[i] {
				t.Errorf("%q: return %d is followed by %q, want %q", c.code, i, rest, c.want[i])
			}
		}
	}
}
