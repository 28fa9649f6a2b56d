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

// Two catch-set variables returned under one key: the first found wins,
// on every call (the flags were once read in a map's order).
func TestFailureFlagsSameEveryCall(t *testing.T) {
	code := "let a=true,b=true; try{x()}catch(e){a=false; b=true}\nif(z) return {ok: a}\nreturn {ok: b}\n"
	want := FailureFlags(code)
	if want["ok"] != flagFalse {
		t.Fatalf("FailureFlags: ok = %q, want %q (a, found first)", want["ok"], flagFalse)
	}
	for range 200 {
		if got := FailureFlags(code); got["ok"] != want["ok"] {
			t.Fatalf("FailureFlags: ok = %q on one call, %q on another", got["ok"], want["ok"])
		}
	}
}
