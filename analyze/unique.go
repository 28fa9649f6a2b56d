package analyze

import "slices"

// Unique sorts the findings of lists, joined in their order
// (SortFindings), and drops repeats: the same fingerprint, file, position
// and message. Run returns its findings so, and so does the engine with
// those of every group. It sorts pointers into the lists, not the
// findings (each some 360 bytes), and copies each finding kept once, into
// a new slice; the lists are not joined first. Fewer than two findings
// are not copied: the list that holds the one (else the first list) is
// returned itself.
func Unique(lists ...[]Finding) []Finding {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	if n < 2 {
		// Nothing to sort: the list of the one finding, else the first.
		for _, l := range lists {
			if len(l) > 0 {
				return l
			}
		}
		if len(lists) > 0 {
			return lists[0]
		}
		return nil
	}
	ps := make([]*Finding, 0, n)
	for _, l := range lists {
		for i := range l {
			ps = append(ps, &l[i])
		}
	}
	return uniqueOf(ps)
}

// sortedOf is pointers to the findings of lists, joined in their order,
// sorted stably as Unique sorts them; repeats are kept.
func sortedOf(lists [][]Finding) []*Finding {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	ps := make([]*Finding, 0, n)
	for _, l := range lists {
		for i := range l {
			ps = append(ps, &l[i])
		}
	}
	slices.SortStableFunc(ps, compareFindings)
	return ps
}

// uniqueOf is Unique of the findings ps points to, wherever they are: the
// runner's pass lists are read in place, not joined into a slice first.
func uniqueOf(ps []*Finding) []Finding {
	slices.SortStableFunc(ps, compareFindings)
	out := make([]Finding, 0, len(ps))
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
