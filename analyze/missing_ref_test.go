package analyze

import "testing"

func TestReadsByName(t *testing.T) {
	for s, want := range map[string]bool{
		`{{ $('Lead').item.json.email }}`: true,
		`{{ $node["Config"].json.x }}`:    true,
		`{{ $items("Old Sheet") }}`:       true,
		`{{ $json.x }} and $`:             false,
		`$$ $json $input.first()`:         false,
		``:                                false,
		`$`:                               false,
	} {
		if got := readsByName(s); got != want {
			t.Errorf("readsByName(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestThrowsUnrun(t *testing.T) {
	for _, c := range []struct {
		form, after string
		want        bool
	}{
		{"$(", ".first().json.x", true},
		{"$(", ".item.json.x", true},
		{"$(", ".itemMatching(0)", true},
		{"$(", ".all()", true},
		{"$(", ".isExecuted", false},
		{"$(", ".params.url", false},
		{"$(", "?.first()", false},
		{"$node[", ".json.id", true},
		{"$node[", ".parameter.url", false},
		{"$items(", "[0].json.id", true},
	} {
		if got := throwsUnrun(c.form, c.after); got != c.want {
			t.Errorf("throwsUnrun(%q, %q) = %v, want %v", c.form, c.after, got, c.want)
		}
	}
}
