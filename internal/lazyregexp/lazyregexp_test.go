package lazyregexp

import (
	"regexp"
	"slices"
	"testing"
)

// TestSameAsRegexp: each method gives what regexp's does.
func TestSameAsRegexp(t *testing.T) {
	const expr, s = `(\w)(\d+)`, "a1 b22 c333"
	r, want := New(expr), regexp.MustCompile(expr)
	CompileAll()
	if r.String() != want.String() || r.MatchString(s) != want.MatchString(s) ||
		r.FindString(s) != want.FindString(s) ||
		!slices.Equal(r.FindStringIndex(s), want.FindStringIndex(s)) ||
		!slices.Equal(r.FindStringSubmatch(s), want.FindStringSubmatch(s)) ||
		!slices.Equal(r.FindStringSubmatchIndex(s), want.FindStringSubmatchIndex(s)) ||
		!slices.Equal(r.FindAllString(s, -1), want.FindAllString(s, -1)) ||
		len(r.FindAllStringIndex(s, -1)) != 3 || len(r.FindAllStringSubmatch(s, 2)) != 2 ||
		len(r.FindAllStringSubmatchIndex(s, -1)) != 3 ||
		r.ReplaceAllString(s, "$2") != want.ReplaceAllString(s, "$2") ||
		r.ReplaceAllStringFunc(s, func(string) string { return "x" }) != "x x x" ||
		string(r.ReplaceAll([]byte(s), []byte("$1"))) != "a b c" ||
		string(r.ReplaceAllFunc([]byte(s), func([]byte) []byte { return nil })) != "  " {
		t.Errorf("%s differs from regexp's", expr)
	}
}

// TestCheckFindsBadPattern: Check reports a bad pattern, rare or not,
// before anything uses it.
func TestCheckFindsBadPattern(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("before: %v", err)
	}
	for _, make := range []func(string) *Regexp{New, NewRare} {
		mu.Lock()
		before := all
		mu.Unlock()
		make(`(`)
		if Check() == nil {
			t.Error("Check passed a bad pattern")
		}
		mu.Lock()
		all = before
		mu.Unlock()
	}
}
