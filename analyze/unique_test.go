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

// TestUniqueWithSet: the end of an audit with the set-wide rules on the
// pool and their findings merged in keeps what Unique of the groups' lists
// and RunSet's findings keeps, in the same order: ties between a group's
// finding and a set-wide one (equal in every compared field) keep the
// group's first, and repeats within the set-wide findings are dropped.
func TestUniqueWithSet(t *testing.T) {
	rng := rand.New(rand.NewSource(35))
	srcs := []*n8nschema.Source{n8nschema.NewSource("a.json", nil), n8nschema.NewSource("b.json", nil)}
	for round := range 2000 {
		finding := func(i int) Finding {
			return Finding{
				RuleID:      fmt.Sprintf("RS%03d", rng.Intn(3)),
				File:        srcs[rng.Intn(2)].Name,
				Pos:         n8nschema.Pos{Line: 1 + rng.Intn(3), Col: 1 + rng.Intn(2)},
				Node:        []string{"", "A"}[rng.Intn(2)],
				Message:     []string{"m", "n"}[rng.Intn(2)],
				Fingerprint: []string{"f", "g"}[rng.Intn(2)],
				Detail:      fmt.Sprint(round, i, rng.Intn(1000)),
			}
		}
		lists := make([][]Finding, rng.Intn(4))
		for i := range lists {
			for range rng.Intn(4) {
				lists[i] = append(lists[i], finding(i))
			}
		}
		wfs := []WorkflowSummary{{Source: srcs[0], Name: "w"}, {Source: srcs[1], Name: "w"}}
		rules := make([]*Rule, rng.Intn(4))
		for i := range rules {
			// Each run reports the same diagnostics: RunSet and
			// UniqueWithSet run the rules once each.
			var ds []Diagnostic
			var at []int
			for range rng.Intn(4) {
				f := finding(-1 - i)
				ds = append(ds, Diagnostic{Pos: f.Pos, Message: f.Message, Detail: f.Detail})
				at = append(at, rng.Intn(2))
			}
			if len(ds) > 1 && rng.Intn(2) == 0 {
				ds[1], at[1] = ds[0], at[0] // a repeat
			}
			rules[i] = &Rule{ID: fmt.Sprintf("RS%03d", rng.Intn(3)), RunSet: func(p *SetPass) {
				for k, d := range ds {
					p.Report(&p.Workflows[at[k]], nil, d)
				}
			}}
		}
		want := Unique(append(slices.Clone(lists), RunSet(wfs, rules, &Options{}))...)
		got := UniqueWithSet(lists, wfs, rules, &Options{})
		if len(want) != len(got) {
			t.Fatalf("round %d: %d findings kept, want %d", round, len(got), len(want))
		}
		for i := range want {
			if want[i].Detail != got[i].Detail || want[i].Fingerprint != got[i].Fingerprint {
				t.Fatalf("round %d: finding %d is %q, want %q", round, i, got[i].Detail, want[i].Detail)
			}
		}
	}
}
