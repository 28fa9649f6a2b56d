package rules

import "testing"

// TestMangledFrom pins which names a name mangled by an encoding
// round-trip stands for: each run of U+FFFD is one or two non-ASCII
// letters, every other character is kept.
func TestMangledFrom(t *testing.T) {
	for _, c := range []struct {
		mangled, name string
		want          bool
	}{
		{"Clasificador de Intenci\uFFFD\uFFFDn", "Clasificador de Intención", true}, // "ó" as two bytes, each lost
		{"Clasificador de Intenci\uFFFDn", "Clasificador de Intención", true},       // one per letter
		{"Se\uFFFDal de p\uFFFDgina", "Señal de página", true},
		{"Espa\uFFFD\uFFFDa", "España", true},
		{"Stra\uFFFDe", "Straße", true},
		{"\uFFFD\uFFFD\uFFFDr", "Für", false},                                    // "F" is ASCII
		{"Intenci\uFFFD\uFFFDn", "Intencion", false},                             // no non-ASCII letter there
		{"Clasificador de Intenci\uFFFDn", "Clasificador de Intencióóón", false}, // three letters for one run
		{"Clasificador de Intenci\uFFFDn", "Clasificador de Intención 2", false},
	} {
		if got := mangledFrom(c.mangled, c.name); got != c.want {
			t.Errorf("mangledFrom(%q, %q) = %v, want %v", c.mangled, c.name, got, c.want)
		}
	}
}
