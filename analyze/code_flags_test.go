package analyze

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestFieldFlags: the names a Code node binds to a test of a field of an
// item, and what stays out (a fallback, a test of another value).
func TestFieldFlags(t *testing.T) {
	for _, c := range []struct {
		name, code string
		want       []FieldFlag
	}{
		{"typeof through an alias", "const s = $input.item.json || {};\nconst ok = typeof s.worker_hours === 'number';\nreturn { json: { ok, hours: ok ? s.worker_hours : null } };",
			[]FieldFlag{{"ok", "$input.item.json"}}},
		{"output key", "return [{ json: { found: $json.id !== undefined, name: $json.name } }];", []FieldFlag{{"found", "$json"}}},
		{"negation", "const r = $('Runner Stats').first().json;\nconst missing = !r.cost;\nreturn [{json: {missing}}];", []FieldFlag{{"missing", "$('Runner Stats').first().json"}}},
		{"in", "for (const item of $input.all()) {\n  item.json.has_stats = 'worker_hours' in item.json;\n}\nreturn $input.all();", []FieldFlag{{"has_stats", "item.json"}}},
		{"set under an if", "const s = $json;\nlet ok = true;\nif (typeof s.worker_hours !== 'number') { ok = false; }\nreturn [{json: {ok}}];", []FieldFlag{{"ok", "$json"}}},
		{"returned under an if", "if (!$json.data) return [{ json: { success: false } }];\nreturn [{ json: { success: true, rows: $json.data } }];", []FieldFlag{{"success", "$json"}}},
		{"renamed flag", "const ok = $json.total != null;\nreturn [{json: {available: ok}}];", []FieldFlag{{"ok", "$json"}, {"available", "$json"}}},
		{"both fields", "const s = $input.first().json;\nconst ok = typeof s.a === 'number' && typeof s.b === 'number';\nreturn [{json: {ok}}];", []FieldFlag{{"ok", "$input.first().json"}}},
		{"fallback is not a test", "return [{ json: { hours: $json.worker_hours || 0, cost: $json.cost ?? 'n/a' } }];", nil},
		{"equals true through a ternary alias", "const dm = $('DM').isExecuted ? $('DM').first().json : null;\nreturn [{ json: { slack: { notified: dm?.ok === true } } }];",
			[]FieldFlag{{"notified", "$('DM').first().json"}}},
		{"equals a string is no test of presence", "return [{ json: { hot: $json.tier === 'Hot' } }];", nil},
		{"an alias after ?? is no ternary", "const r = cached ?? $('X').first().json;\nconst ok = typeof r.id === 'string';", nil},
		{"test of a constant", "const limit = 5;\nconst big = typeof limit === 'number';\nreturn [{json: {big}}];", nil},
		{"response.json() is no item", "const r = await response.json();\nconst ok = typeof r.id === 'string';", nil},
		{"no flag bound", "if (typeof $json.id !== 'string') throw new Error('no id');\nreturn $input.all();", nil},
	} {
		if got := FieldFlags(c.code); !cmp.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFieldFallbacks: the fields a Code node reads with a fallback of its
// own words, and the placeholders left out.
func TestFieldFallbacks(t *testing.T) {
	for _, c := range []struct {
		name, code string
		want       []FieldFlag
	}{
		{"answer of its own", "return $input.all().map((item) => {\n  const texto = item.json.resposta || 'Recebi sua mensagem! Já te respondo por aqui.';\n  return { json: { texto } };\n});",
			[]FieldFlag{{"resposta", "item.json"}}},
		{"?? and an index", "const r = $input.first().json;\nconst reply = r.choices?.[0]?.message?.content ?? \"Sorry, I cannot answer right now.\";",
			[]FieldFlag{{"content", "$input.first().json"}}},
		{"template literal", "const t = $json.text || `Thanks for your order, ${name}!`;", []FieldFlag{{"text", "$json"}}},
		{"placeholders", "return [{ json: { a: $json.a || 'n/a', b: $json.b ?? '{}', c: $json.c || 0, d: $json.d || 'not found' } }];", nil},
		{"the error field", "const why = $json.error?.message || 'unknown error occurred here';", nil},
		{"another value's fallback", "const name = config.name || 'the whole team here';\nreturn [{ json: { name, id: $json.id } }];", nil},
	} {
		if got := FieldFallbacks(c.code); !cmp.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestItemRefsBounded: the alias scan reads each declaration's reference
// within maxSpan+maxRefLen bytes of it, so that code of many declarations
// bound to no item is read in linear time, and an alias near its
// reference is still bound.
func TestItemRefsBounded(t *testing.T) {
	const decls = 5000
	code := strings.Repeat("const a = 1;\n", decls) + "const s = $json.x\nreturn []"
	refs, read := itemRefsRead(code)
	if limit := (decls + 1) * (maxSpan + maxRefLen); read > limit {
		t.Fatalf("itemRefs read %d bytes for %d declarations, want at most %d", read, decls+1, limit)
	}
	if refs["s"] != "$json" {
		t.Fatalf("itemRefs bound s to %q, want $json", refs["s"])
	}
	// Before the bound: each declaration read the code to its end, 163 M
	// bytes here.
	if read >= len(code)*decls/4 {
		t.Fatalf("itemRefs read %d bytes: it grows with declarations × length", read)
	}
}

// TestFieldTestNeeds: every match of each of fieldTests' patterns holds
// one of the pattern's needs, so that skipping a pattern whose needs a
// code lacks finds the same tests; on codes made to match each pattern
// (each one must match at least once) and on every Code node of the
// corpora.
func TestFieldTestNeeds(t *testing.T) {
	codes := []string{
		"const ok = typeof $json.a === 'number';",
		"const found = $json.id !== undefined; const none = $json.x == null;",
		"const sent = $('DM').first().json.ok === true;",
		"const gone = undefined === $json.a; const empty = null != $json.b;",
		"const missing = ! $json.cost;",
		"const has = 'worker_hours' in item.json;",
		"const has = $json.hasOwnProperty('a');",
		"const has = Object.hasOwn($json, 'a');",
		"const a = Boolean($json.a), b = Array.isArray($json.list), c = Number.isFinite($json.n);",
		"const label = $json.ok ? 'yes' : \"no\";",
		"const s = $input.item.json || {};\nconst ok = typeof s.worker_hours === 'number';\nreturn { json: { ok, hours: ok ? s.worker_hours : null } };",
		"return [{ json: { found: $json.id !== undefined, name: $json.name } }];",
		"for (const item of $input.all()) {\n  item.json.has_stats = 'worker_hours' in item.json;\n}\nreturn $input.all();",
		"const dm = $('DM').isExecuted ? $('DM').first().json : null;\nreturn [{ json: { slack: { notified: dm?.ok === true } } }];",
	}
	matched := make([]int, len(fieldTestPatterns("")))
	check := func(code string) {
		refs := itemRefs(code)
		if len(refs) == 0 {
			return
		}
		for i, p := range fieldTestPatterns(refAlternation(refs)) {
			for _, m := range regexp.MustCompile(p.re).FindAllString(code, -1) {
				matched[i]++
				if !slices.ContainsFunc(p.needs, func(lit string) bool { return strings.Contains(m, lit) }) {
					t.Errorf("pattern %d matches %q, which holds none of %q", i, m, p.needs)
				}
			}
		}
	}
	for _, code := range codes {
		check(code)
	}
	for i, k := range matched {
		if k == 0 {
			t.Errorf("pattern %d matches none of the codes", i)
		}
	}
	t.Run("corpora", func(t *testing.T) {
		n := 0
		for _, w := range corpustest.Workflows(t) {
			for _, nd := range w.Nodes {
				for _, p := range []string{"jsCode", "functionCode"} {
					if v, ok := nd.Param(p); ok && v.Kind() == n8nschema.String {
						check(v.Str())
						n++
					}
				}
			}
		}
		t.Logf("%d codes", n)
	})
}
