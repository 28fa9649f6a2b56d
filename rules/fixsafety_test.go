package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestFixSafety: every repair a rule's findings carry over its fixtures
// and examples has the safety the rule declares (FixSafety), a rule that
// declares none names no repair, and a rule that declares one makes a
// repair somewhere, so the check means something.
func TestFixSafety(t *testing.T) {
	for _, r := range All() {
		t.Run(r.ID, func(t *testing.T) {
			paths, err := filepath.Glob(filepath.Join("testdata", r.ID, "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			paths = append(paths, filepath.Join("examples", r.ID+".bad.json"))
			repaired := 0
			for _, p := range paths {
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				f := n8nschema.Parse(n8nschema.NewSource(filepath.Base(p), src))
				f.Explicit = true
				set := analyze.Build([]*n8nschema.File{f}, fixtureOptions(t, p))
				fs := analyze.Run(set, []*analyze.Rule{r})
				for _, fd := range fs {
					if r.FixSafety == 0 && fd.RepairWith != nil {
						t.Errorf("%s: %s names a repair, but the rule declares none", p, fd.Message)
					}
				}
				fix.Attach(set, fs, fix.Options{MaxTokens: 4096})
				for _, fd := range fs {
					if fd.Repair == nil {
						continue
					}
					repaired++
					if fd.Repair.Safety != r.FixSafety {
						t.Errorf("%s: the repair of %q is %v, the rule declares %v", p, fd.Message, fd.Repair.Safety, r.FixSafety)
					}
				}
			}
			if r.FixSafety != 0 && repaired == 0 {
				t.Errorf("the rule declares %v repairs and its fixtures and examples get none", r.FixSafety)
			}
		})
	}
}
