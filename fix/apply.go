package fix

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Apply returns src with the edits applied (their Source is not read).
// Edits must not overlap; two insertions at one offset are applied in the
// order given.
func Apply(src []byte, edits []analyze.Edit) ([]byte, error) {
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(a, b analyze.Edit) int { return cmp.Compare(a.Offset, b.Offset) })
	out := make([]byte, 0, len(src)+64)
	at := 0
	for _, e := range es {
		if e.Offset < at || e.Len < 0 || e.Offset+e.Len > len(src) {
			return nil, fmt.Errorf("edit at byte %d overlaps another or lies outside the source", e.Offset)
		}
		out = append(out, src[at:e.Offset]...)
		out = append(out, e.Text...)
		at = e.Offset + e.Len
	}
	return append(out, src[at:]...), nil
}

// Plan picks the repairs --fix applies: safe ones, and unsafe ones when
// unsafe is true. A repair whose edits overlap an edit already taken is
// left for the next round (two findings often share a repair: the same
// edit is taken once). It returns the edits per source, sorted by offset,
// and the findings whose repairs were taken.
func Plan(fs []analyze.Finding, unsafe bool) (map[*n8nschema.Source][]analyze.Edit, []*analyze.Finding) {
	out := map[*n8nschema.Source][]analyze.Edit{}
	var taken []*analyze.Finding
	for i := range fs {
		f := &fs[i]
		r := f.Repair
		if r == nil || r.Safety == analyze.Unsafe && !unsafe {
			continue
		}
		ok := true
		var fresh []analyze.Edit
		for _, e := range r.Edits {
			if slices.Contains(out[e.Source], e) || slices.Contains(fresh, e) {
				continue
			}
			if slices.ContainsFunc(out[e.Source], func(x analyze.Edit) bool { return overlaps(x, e) }) {
				ok = false
				break
			}
			fresh = append(fresh, e)
		}
		if !ok {
			continue
		}
		for _, e := range fresh {
			out[e.Source] = append(out[e.Source], e)
		}
		taken = append(taken, f)
	}
	for s, es := range out {
		slices.SortFunc(es, func(a, b analyze.Edit) int { return cmp.Compare(a.Offset, b.Offset) })
		out[s] = es
	}
	return out, taken
}

// overlaps reports whether two edits touch the same bytes; insertions at
// one offset overlap too (their order would be a guess).
func overlaps(a, b analyze.Edit) bool {
	if a.Offset == b.Offset {
		return true
	}
	return a.Offset < b.Offset+b.Len && b.Offset < a.Offset+a.Len
}
