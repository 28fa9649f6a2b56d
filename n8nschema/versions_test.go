package n8nschema

import "testing"

func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Version
		ok   bool
	}{
		{"2.8.4", Version{2, 8, 4}, true},
		{"v2.41.1", Version{2, 41, 1}, true},
		{"1.123", Version{1, 123, 0}, true},
		{"2", Version{}, false},
		{"2.8.4.1", Version{}, false},
		{"2.x", Version{}, false},
		{"2.08.4", Version{}, false},
		{"-1.2.3", Version{}, false},
		{"", Version{}, false},
	} {
		got, err := ParseVersion(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestVersionOrder(t *testing.T) {
	if NewestKnown() != (Version{2, 41, 1}) {
		t.Errorf("newest known %v", NewestKnown())
	}
	if (Version{2, 8, 4}).Compare(Version{2, 41, 1}) != -1 || (Version{2, 41, 1}).Compare(Version{2, 8, 4}) != 1 || (Version{1, 2, 3}).Compare(Version{1, 2, 3}) != 0 {
		t.Error("Compare orders by number, not text")
	}
	for v, want := range map[Version]bool{{1, 123, 0}: true, {1, 122, 9}: false, {2, 8, 4}: true, {3, 0, 0}: true} {
		if Checked(v) != want {
			t.Errorf("Checked(%v) = %v, want %v", v, !want, want)
		}
	}
}
