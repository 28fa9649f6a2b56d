package engine

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Fixed is what Fix did: fix.Result, and the filtered analysis of the
// files as they end up (what is left), for the report.
type Fixed struct {
	*fix.Result
	Filtered analyze.Filtered
}

// Fix repairs the files in memory as audit --fix does: the safe repairs,
// and the unsafe ones too when unsafe is true. It writes nothing.
func (s *Settings) Fix(files []*n8nschema.File, unsafe bool) (*Fixed, error) {
	// Every analysis (one per fix round) is kept by its set, so the
	// summary counts those of the files as they end up.
	filteredOf := map[*analyze.Set]analyze.Filtered{}
	check := func(files []*n8nschema.File) (*analyze.Set, []analyze.Finding) {
		set, f := s.Check(files)
		filteredOf[set] = f
		return set, f.Findings
	}
	res, err := fix.Files(files, check, s.FixOptions, unsafe)
	if err != nil {
		return nil, err
	}
	return &Fixed{Result: res, Filtered: filteredOf[res.Set]}, nil
}

// Diff is the unified diff of every changed file, in name order.
func (f *Fixed) Diff() string {
	now := make(map[string][]byte, len(f.Files))
	for _, file := range f.Files {
		now[file.Source.Name] = file.Source.Src
	}
	var b strings.Builder
	for _, name := range slices.Sorted(slices.Values(f.Changed)) {
		b.WriteString(fix.Diff(name, f.Original[name], now[name]))
	}
	return b.String()
}
