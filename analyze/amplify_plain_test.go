package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestPlainContexts: on every set that plain lets run skip its contexts
// (each file of the corpora alone, and each corpus whole), the contexts
// computed in full are all one, as the operations then take them. The
// corpora hold sets of both kinds: retrying calls into sub-workflows, error
// workflows, agents with tools (a fan of 10), shared models and unbounded
// loops make a set not plain.
func TestPlainContexts(t *testing.T) {
	for _, name := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		files := corpustest.FilesOf(t, name)
		plain, full := 0, 0
		check := func(fs []*n8nschema.File) {
			s := Build(fs, DefaultOptions())
			sc := getScratch()
			defer putScratch(sc)
			a := &amp{}
			failV := a.build(s, sc)
			if !a.plain() {
				full++
				return
			}
			plain++
			for v, c := range a.contexts(failV) {
				if c != one {
					t.Errorf("%s %s: plain, but vertex %d has the context %+v", name, fs[0].Source.Name, v, c)
					return
				}
			}
		}
		for _, f := range files {
			check([]*n8nschema.File{f})
		}
		check(files)
		if plain == 0 || full == 0 {
			t.Errorf("%s: %d plain sets, %d not: the corpus tests one side only", name, plain, full)
		}
		t.Logf("%s: %d plain sets, %d not", name, plain, full)
	}
}
