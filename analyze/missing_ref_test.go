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
