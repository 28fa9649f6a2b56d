package analyze

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// uniqueJoined is Unique as it was: the lists joined into one slice,
// sorted by pointers and each finding kept copied.
func uniqueJoined(lists ...[]Finding) []Finding {
	fs := slices.Concat(lists...)
	if len(fs) < 2 {
		return fs
	}
	ps := make([]*Finding, len(fs))
	for i := range fs {
		ps[i] = &fs[i]
	}
	slices.SortStableFunc(ps, compareFindings)
	var out []Finding
	for _, p := range ps {
		if n := len(out); n > 0 && sameFinding(&out[n-1], p) {
			continue
		}
		out = append(out, *p)
	}
	return out
}

// TestUniqueLists: Unique of several lists keeps what Unique of their
// concatenation keeps, in the same order (a stable sort: findings equal
// in every compared field keep their list order), repeats across lists
// dropped, and leaves the lists as they were.
func TestUniqueLists(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	for round := range 2000 {
		lists := make([][]Finding, rng.Intn(5))
		for i := range lists {
			if rng.Intn(4) == 0 {
				continue // an empty list (nil)
			}
			for range rng.Intn(4) {
				lists[i] = append(lists[i], Finding{
					RuleID:      fmt.Sprintf("RS%03d", rng.Intn(3)),
					File:        []string{"a.json", "b.json"}[rng.Intn(2)],
					Pos:         n8nschema.Pos{Line: 1 + rng.Intn(3), Col: 1 + rng.Intn(2)},
					Node:        []string{"", "A"}[rng.Intn(2)],
					Message:     []string{"m", "n"}[rng.Intn(2)],
					Fingerprint: []string{"f", "g"}[rng.Intn(2)],
					Detail:      fmt.Sprint(round, i, rng.Intn(1000)), // tells equal findings apart
				})
			}
		}
		before := make([][]Finding, len(lists))
		for i, l := range lists {
			before[i] = slices.Clone(l)
		}
		want, got := uniqueJoined(lists...), Unique(lists...)
		if len(want) != len(got) {
			t.Fatalf("round %d: %d findings kept, want %d", round, len(got), len(want))
		}
		for i := range want {
			if want[i].Detail != got[i].Detail {
				t.Fatalf("round %d: finding %d is %q, want %q", round, i, got[i].Detail, want[i].Detail)
			}
		}
		for i := range lists {
			if !slices.EqualFunc(lists[i], before[i], func(a, b Finding) bool { return a.Detail == b.Detail }) {
				t.Fatalf("round %d: Unique changed list %d", round, i)
			}
		}
	}
}
