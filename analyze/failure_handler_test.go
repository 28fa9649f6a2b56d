package analyze

import (
	"maps"
	"testing"
)

func TestFailureFlags(t *testing.T) {
	for _, c := range []struct {
		code string
		want map[string]string
	}{
		{"let parseOk = true;\ntry { x = JSON.parse(s); } catch (err) { parseOk = false; parseError = err.message; }\nreturn { json: { parse_ok: parseOk, note: parseError } };",
			map[string]string{"parseOk": flagFalse, "parseError": flagText, "parse_ok": flagFalse, "note": flagText}},
		{"try { await send(); } catch (e) { return [{ json: { success: false, error: e.message } }]; }",
			map[string]string{"success": flagFalse, "error": flagText}},
		{"try { run(); } catch (e) { failed = true }\nreturn { json: { failedLater: failedCount } };",
			map[string]string{"failed": flagTrue}},
		{"return { json: { ok: true } };", nil},
	} {
		if got := FailureFlags(c.code); !maps.Equal(got, c.want) {
			t.Errorf("FailureFlags(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}
