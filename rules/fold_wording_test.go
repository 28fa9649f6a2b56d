package rules

import "testing"

// TestFoldMoreWording: a folded finding counts the places it stands for in
// words that agree with the number.
func TestFoldMoreWording(t *testing.T) {
	for _, r := range All() {
		if r.FoldMore == nil {
			continue
		}
		one, two := r.FoldMore("", 1), r.FoldMore("", 2)
		if one == two || one == "" {
			t.Errorf("%s: FoldMore(1) = %q, FoldMore(2) = %q", r.ID, one, two)
		}
	}
	var rs005 string
	for _, r := range All() {
		if r.ID == "RS005" {
			rs005 = r.FoldMore("", 1) + "|" + r.FoldMore("", 3)
		}
	}
	if want := "; referenced from 1 more place|; referenced from 3 more places"; rs005 != want {
		t.Errorf("RS005 folds as %q, want %q", rs005, want)
	}
}
