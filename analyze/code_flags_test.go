package analyze

import (
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
		{"test of a constant", "const limit = 5;\nconst big = typeof limit === 'number';\nreturn [{json: {big}}];", nil},
		{"response.json() is no item", "const r = await response.json();\nconst ok = typeof r.id === 'string';", nil},
		{"no flag bound", "if (typeof $json.id !== 'string') throw new Error('no id');\nreturn $input.all();", nil},
	} {
		if got := FieldFlags(c.code); !cmp.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
