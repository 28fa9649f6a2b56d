package analyze

import (
	"cmp"
	"slices"
)

// Unique sorts findings (SortFindings) and drops repeats: the same
// fingerprint, file, position and message. Run returns its findings so;
// the two-pass audit joins those of its groups and of the SetWide rules
// with UniqueOf.
func Unique(fs []Finding) []Finding {
	SortFindings(fs)
	return slices.CompactFunc(fs, func(a, b Finding) bool { return sameFinding(&a, &b) })
}

// UniqueOf is Unique(slices.Concat(runs...)) without touching the runs: it
// sorts references to the findings, not the findings (each is hundreds of
// bytes), and copies each finding it keeps once, into an array of its own.
func UniqueOf(runs ...[]Finding) []Finding {
	type ref struct{ run, i int32 }
	n := 0
	for _, r := range runs {
		n += len(r)
	}
	refs := make([]ref, 0, n)
	for ri, r := range runs {
		for i := range r {
			refs = append(refs, ref{int32(ri), int32(i)})
		}
	}
	// Ties keep the joined order, as SortFindings' stable sort does.
	slices.SortFunc(refs, func(a, b ref) int {
		if c := compareFindings(&runs[a.run][a.i], &runs[b.run][b.i]); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.run, b.run), cmp.Compare(a.i, b.i))
	})
	out := make([]Finding, 0, n)
	for _, x := range refs {
		f := &runs[x.run][x.i]
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
