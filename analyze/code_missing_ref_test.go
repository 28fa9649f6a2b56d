package analyze

import (
	"strings"
	"testing"
)

func TestSureAt(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"const a = $('X').all();", true},
		{"const u = $json.u || {};\nconst t = $('X').item.json.t || 0;", true},
		{"return [{ json: { a: $('X').first().json } }];", true},
		{"const f = rows.map(r => { return r.json; });\nconst a = $('X').all();", true},
		{"function helper() { return 1; }\nconst a = JSON.parse($('X').first().json.body);", true},
		{"const out = [];\nfor (const item of $input.all()) {\n  out.push({ json: { r: $('X').item.json } });\n}", true},
		{"for (const item of items) { const r = $('X').item; }", true},
		{"const a = $json.ok ? $('X').item : null;", false},
		{"const a = $json.ok && $('X').item;", false},
		{"if (a) {\n  b = $('X').all();\n}", false},
		{"if (a) b = 1;\nelse b = $('X').all();", false},
		{"if (a) return [];\nconst b = $('X').all();", false},
		{"if (a) { return []; }\nconst b = $('X').all();", false},
		{"try {\n  const b = $('X').all();\n} catch (e) {}", false},
		{"function f() {\n  return $('X').all();\n}", false},
		{"const f = () => $('X').all();", false},
		{"for (const r of $json.rows) { const b = $('X').item; }", false},
		{"for (const item of items) { if (!item.json.ok) continue;\n const b = $('X').item; }", false},
		{"const s = `${$('X').item.json.a}`;", false},
		{"// $('X').all()\nconst a = 1;", false},
		{"switch (a) { case 1: b = $('X').all(); }", false},
	} {
		at := strings.Index(c.code, "$('X')")
		if got := sureAt(c.code, at); got != c.want {
			t.Errorf("sureAt(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}
