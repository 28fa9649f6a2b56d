package analyze

import "slices"

// Unique sorts findings (SortFindings) and drops repeats: the same
// fingerprint, file, position and message. Run returns its findings so,
// and so does the engine with those of every group.
func Unique(fs []Finding) []Finding {
	SortFindings(fs)
	return slices.CompactFunc(fs, func(a, b Finding) bool { return sameFinding(&a, &b) })
}

// sameFinding is whether b repeats a: Unique keeps one of them.
func sameFinding(a, b *Finding) bool {
	return a.Fingerprint == b.Fingerprint && a.File == b.File && a.Pos == b.Pos && a.Message == b.Message
}
