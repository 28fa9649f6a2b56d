package n8nschema

import (
	"strings"
	"testing"
)

// TestUnicodeEscaped: the parse marks a string whose JSON text holds a \u
// escape, and no other.
func TestUnicodeEscaped(t *testing.T) {
	text := `{"a": "plain", "b": "line\nbreak", "c": "\u0041", "d": "back\\u", "e": "x\\\u0073", "f": 1}`
	r := buildTree(NewSource("t.json", []byte(text)), text, 0)
	if !r.ok {
		t.Fatal("not parsed")
	}
	root := Value{t: r.t, i: 0, form: pathOfTree}
	for key, want := range map[string]bool{"a": false, "b": false, "c": true, "d": false, "e": true, "f": false, "missing": false} {
		if got := root.Get(key).UnicodeEscaped(); got != want {
			t.Errorf("%s: UnicodeEscaped() = %v, want %v", key, got, want)
		}
	}
}

// TestIsExprEscaped: IsExpr of an escaped string reads its first
// character as Str gives it, without unescaping the rest.
func TestIsExprEscaped(t *testing.T) {
	for _, s := range []string{`=a\n`, `a\n=`, `\u003d{{ $json.a }}\n`, `\u003D{{ 1 }}`, `\u003e{{ 1 }}`, `\n={{ 1 }}`, `\\={{ 1 }}`, `\u0030`, `\"=`, `={{ $json[\"a\"] }}`} {
		text := `{"a": "` + s + `"}`
		r := buildTree(NewSource("t.json", []byte(text)), text, 0)
		if !r.ok {
			t.Fatalf("%s: not parsed", text)
		}
		v := Value{t: r.t, i: 0, form: pathOfTree}.Get("a")
		if got, want := v.IsExpr(), strings.HasPrefix(v.Str(), "="); got != want {
			t.Errorf("%s: IsExpr() = %v, want %v", s, got, want)
		}
	}
}
