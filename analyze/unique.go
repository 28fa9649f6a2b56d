package analyze

import "slices"

// Unique sorts findings (SortFindings) and drops repeats: the same
// fingerprint, file, position and message. Run returns its findings so,
// and so does the engine with those of every group. It sorts pointers,
// not the findings (each some 360 bytes), and copies each finding kept
// once, into a new slice.
func Unique(fs []Finding) []Finding {
	if len(fs) < 2 {
		return fs
	}
	ps := make([]*Finding, len(fs))
	for i := range fs {
		ps[i] = &fs[i]
	}
	slices.SortStableFunc(ps, compareFindings)
	out := make([]Finding, 0, len(fs))
	for _, p := range ps {
		if n := len(out); n > 0 && sameFinding(&out[n-1], p) {
			continue
		}
		out = append(out, *p)
	}
	return out
}

// sameFinding is whether b repeats a: Unique keeps one of them.
func sameFinding(a, b *Finding) bool {
	return a.Fingerprint == b.Fingerprint && a.File == b.File && a.Pos == b.Pos && a.Message == b.Message
}
