package analyze

import (
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
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
		// A regex literal is not code: its brackets open and close nothing.
		{"if ($json.a) {\n const t = s.replace(/}/g, '');\n const v = $('X').all();\n}", false},
		{"const out = [];\nif ($json.mode === 'legacy') {\n  const tpl = $json.text.replace(/\\{([^}]+)\\}/g, (m, k) => k);\n  const cfg = $('X').first().json;\n}", false},
		{"const re = /[)}\\]]/g;\nconst a = $('X').all();", true},
		{"const half = a / 2, b = c / 2;\nconst d = $('X').all();", true},
		{"const s = '/* x */'; const r = /'/;\nconst a = $('X').all();", true},
		{"const m = s.match(/\\$\\('X'\\)/);", false},
		{"functionX(a) { return 1 }\nconst a = $('X').all();", true},
		{"const g = function* gen(a) { return 1 };\nconst a = $('X').all();", true},
		// A postfix ++ or -- ends an operand: the / after it divides, and
		// the brackets after it are code.
		{"if ($json.legacy) {\n  const half = n-- / (total / 2);\n  const cfg = $('X').first();\n}", false},
		{"if ($json.legacy) {\n  const half = i++ / (total / 2);\n  const cfg = $('X').first();\n}", false},
		{"const half = i++ / (total / 2);\nconst cfg = $('X').first();", true},
		// A close of another kind than its opener: the rest is not read.
		{"const a = (b];\nconst c = $('X').first();", false},
		// A throw stops the code before the statements after it.
		{"throw new Error('x');\nconst c = $('X').first();", false},
		{"throw new Error($('X').first().json.msg);", true},
	} {
		at := strings.Index(c.code, "$('X')")
		if got := sureAt(c.code, at); got != c.want {
			t.Errorf("sureAt(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}

// TestSureScannerAgrees: one sureScanner asked offsets in order (and one
// asked again from the start) answers as sureAt asked each alone.
func TestSureScannerAgrees(t *testing.T) {
	code := "const a = $('X').all();\nif (x) {\n const b = $('X').all(); }\nconst r = s.replace(/}/g, '') && $('X');\n" +
		"for (const item of items) { const c = $('X').item; }\nconst s = '$(';\nreturn $('X').all();\nconst d = $('X');"
	offs := nameOffsets(code, "$(")
	var s sureScanner
	for range 2 { // the second pass starts again from the first offset
		for _, at := range offs {
			if got, want := s.at(code, at), sureAt(code, at); got != want {
				t.Errorf("sureScanner.at(%d) = %v, sureAt = %v", at, got, want)
			}
		}
	}
}

// TestSkipLiteralRegex: a / where an expression starts opens a regex
// literal, stepped over to its flags; after a name, a number, ) or ] it
// divides, as does one whose literal does not close on its line.
func TestSkipLiteralRegex(t *testing.T) {
	for _, c := range []struct {
		code string
		i    int    // the /'s offset (-1: where want is)
		want string // the literal stepped over, "" for division
	}{
		{"x = /\\{([^}]+)\\}/g;", 4, "/\\{([^}]+)\\}/g"},
		{"f(/[/]/, 1)", 2, "/[/]/"},
		{"return /a\\/b/i.test(s)", 7, "/a\\/b/i"},
		{"/}/.test(s)", 0, "/}/"},
		{"a / b / c", 2, ""},
		{"f(a) / 2", 5, ""},
		{"x[1] / 2", 5, ""},
		{"x = 10 / 2", 7, ""},
		{"x = a.return / 2 / 3", 13, ""},
		{"x = /abc\nd/", 4, ""},
		{"x = /abc", 4, ""},
		{"// the pattern\n/a}/.test(s)", 15, "/a}/"},
		{"const p = [\n  // the first\n  /a}/g,\n  /* the second */ /b)/i];", -1, "/a}/g"},
		{"const p = [\n  // the first\n  /a}/g,\n  /* the second */ /b)/i];", -1, "/b)/i"},
		{"x = a // half\n  / 2;", 16, ""},
	} {
		if c.i < 0 {
			c.i = strings.Index(c.code, c.want)
		}
		j := skipLiteral(c.code, c.i)
		got := ""
		if j != c.i {
			got = c.code[c.i : j+1]
		}
		if got != c.want {
			t.Errorf("skipLiteral(%q, %d) steps over %q, want %q", c.code, c.i, got, c.want)
		}
	}
}

// TestSureAtLinear: judging the reads of a missing node in code of k
// guarded blocks takes at most 6× the CPU time for 4× the code (both under
// maxStaticCode). sureAt ran an unanchored regexp over the code before
// every { after a ): 144 KB of code took 7.6 s.
func TestSureAtLinear(t *testing.T) {
	code := func(k int) string {
		return strings.Repeat("if (a) { b = 1 }\n", k) + "const x = $('X').all();\nconst y = $('Y').all();\n"
	}
	const k = 1500
	small, large := code(k), code(4*k)
	if len(large) > maxStaticCode {
		t.Fatalf("the large code is %d bytes, past maxStaticCode", len(large))
	}
	judge := func(c string) func() {
		return func() {
			for _, at := range nameOffsets(c, "$(") {
				if !sureAt(c, at) {
					t.Fatalf("a read at the top level is not sure")
				}
			}
		}
	}
	st, lt := cputime.Scales(3, 3, 6, judge(small), judge(large))
	t.Logf("%d bytes: %v; %d bytes: %v", len(small), st, len(large), lt)
	if lt > 6*st {
		t.Errorf("sureAt: %d bytes take %v, %d take %v: more than 6×", len(small), st, len(large), lt)
	}
	// A line of slashes that each may open a regex that never closes:
	// each is read at most maxRegexLen bytes on.
	slashes := func(k int) string {
		return strings.Repeat("=/[", 3*k) + "\n" + strings.Repeat("f(a) / 2;\n", k) + "const x = $('X').all();"
	}
	small, large = slashes(k), slashes(4*k)
	st, lt = cputime.Scales(3, 3, 6, judge(small), judge(large))
	t.Logf("slashes: %d bytes: %v; %d bytes: %v", len(small), st, len(large), lt)
	if lt > 6*st {
		t.Errorf("sureAt over slashes: %d bytes take %v, %d take %v: more than 6×", len(small), st, len(large), lt)
	}
	if sureAt(strings.Repeat(" ", maxStaticCode)+"$('X').all()", maxStaticCode) {
		t.Errorf("code past maxStaticCode is judged")
	}
}
