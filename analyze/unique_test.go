package analyze

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestJoinOf: runs joined with JoinOf, with no more or with a sorted run
// merged in by Joined.Unique, give what Unique gives on the runs
// concatenated: ties (same order key, other fingerprint) in joined order,
// repeats across runs dropped. JoinOf leaves the runs as they were.
func TestJoinOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	pick := func(vals ...string) string { return vals[rng.IntN(len(vals))] }
	for round := range 200 {
		runs := make([][]Finding, rng.IntN(6))
		id := 0
		for r := range runs {
			for range rng.IntN(30) {
				id++
				f := Finding{
					File: pick("a.json", "b.json"), Pos: n8nschema.Pos{Line: rng.IntN(3), Col: rng.IntN(2), Offset: rng.IntN(2)},
					RuleID: pick("RS101", "RS505"), Node: pick("", "n"), Message: pick("m", "m2"),
					Detail: fmt.Sprint(id), // tells which one was kept
				}
				// Like Fingerprint, from the rule and node (and more).
				f.Fingerprint = f.RuleID + f.Node + pick("1", "2")
				runs[r] = append(runs[r], f)
			}
			if rng.IntN(2) == 0 { // sorted, as Run returns them, or not
				runs[r] = Unique(runs[r])
			}
		}
		before := make([][]Finding, len(runs))
		for r := range runs {
			before[r] = slices.Clone(runs[r])
		}
		want := Unique(slices.Concat(runs...))
		got := JoinOf(runs...).Unique(nil)
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: JoinOf\n%v\nwant\n%v", round, got, want)
		}
		if !reflect.DeepEqual(runs, before) {
			t.Fatalf("round %d: JoinOf changed its runs", round)
		}
		// Joined.Unique: the last run merged into the others joined.
		if len(runs) > 0 {
			last := Unique(slices.Clone(runs[len(runs)-1]))
			want := Unique(slices.Concat(append(runs[:len(runs)-1:len(runs)-1], last)...))
			got := JoinOf(runs[:len(runs)-1]...).Unique(last)
			if (len(want) > 0 || len(got) > 0) && !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: Joined.Unique\n%v\nwant\n%v", round, got, want)
			}
		}
	}
}
