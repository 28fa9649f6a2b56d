package analyze

import (
	"cmp"
	"slices"
)

// Unique sorts findings (SortFindings) and drops repeats: the same
// fingerprint, file, position and message. Run returns its findings so;
// the two-pass audit joins those of its groups and of the SetWide rules
// with JoinOf and Joined.Unique.
func Unique(fs []Finding) []Finding {
	SortFindings(fs)
	return slices.CompactFunc(fs, func(a, b Finding) bool { return sameFinding(&a, &b) })
}

// Joined are the findings of several runs in SortFindings' order, ties in
// joined order, not yet copied: the order is of references to them, as
// each finding is hundreds of bytes.
type Joined struct {
	runs [][]Finding
	refs []findingRef
}

type findingRef struct{ run, i int32 }

// JoinOf sorts the findings of the runs, which it leaves as they are:
// JoinOf(runs...).Unique(nil) is Unique(slices.Concat(runs...)).
func JoinOf(runs ...[]Finding) Joined {
	n := 0
	for _, r := range runs {
		n += len(r)
	}
	refs := make([]findingRef, 0, n)
	for ri, r := range runs {
		for i := range r {
			refs = append(refs, findingRef{int32(ri), int32(i)})
		}
	}
	slices.SortFunc(refs, func(a, b findingRef) int {
		if c := compareFindings(&runs[a.run][a.i], &runs[b.run][b.i]); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.run, b.run), cmp.Compare(a.i, b.i))
	})
	return Joined{runs, refs}
}

// Unique is Unique(append(joined findings, more...)) for more as Unique
// leaves findings (sorted, no repeats), in an array of its own: each kept
// finding is copied once. more is merged in rather than sorted with the
// rest; that holds as findings with one fingerprint have one rule and node
// (Fingerprint hashes both), so repeats stand next to each other either way.
func (j Joined) Unique(more []Finding) []Finding {
	out := make([]Finding, 0, len(j.refs)+len(more))
	refs := j.refs
	for len(refs) > 0 || len(more) > 0 {
		var f *Finding
		// Ties take the joined finding first, as the stable sort would.
		if len(refs) > 0 {
			f = &j.runs[refs[0].run][refs[0].i]
		}
		if len(more) > 0 && (f == nil || compareFindings(&more[0], f) < 0) {
			f, more = &more[0], more[1:]
		} else {
			refs = refs[1:]
		}
		if k := len(out); k > 0 && sameFinding(&out[k-1], f) {
			continue
		}
		out = append(out, *f)
	}
	return slices.Clip(out)
}

// sameFinding is whether b repeats a: Unique keeps one of them.
func sameFinding(a, b *Finding) bool {
	return a.Fingerprint == b.Fingerprint && a.File == b.File && a.Pos == b.Pos && a.Message == b.Message
}
