package analyze

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
