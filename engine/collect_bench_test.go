package engine

import (
	"os"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// BenchmarkCollect lists the real corpus as audit does: the folder
// walk, naming each file, dedupe and sort. It runs before the first pass,
// on one core.
func BenchmarkCollect(b *testing.B) {
	dir := sharedtest.Path(b, "corpus", "n8n-real")
	wd, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		if _, err := Collect([]string{dir}, nil, NewNamer(wd, "", ""), DefaultMaxFileSize); err != nil {
			b.Fatal(err)
		}
	}
	cputime.ReportPerOp(b, cpu)
}
