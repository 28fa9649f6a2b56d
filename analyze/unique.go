package analyze

import "slices"

// Unique sorts findings (SortFindings) and drops repeats: the same
// fingerprint, file, position and message. Run returns its findings so;
// the two-pass audit joins those of its groups and of the SetWide rules
// with it.
func Unique(fs []Finding) []Finding {
	SortFindings(fs)
	return slices.CompactFunc(fs, func(a, b Finding) bool {
		return a.Fingerprint == b.Fingerprint && a.File == b.File && a.Pos == b.Pos && a.Message == b.Message
	})
}
