package cmd

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSecurityDocNamesRealTests: every test docs/security.md cites for a
// promise exists, so a renamed or removed test cannot leave a promise
// that nothing holds.
func TestSecurityDocNamesRealTests(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	var tests strings.Builder
	err = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			tests.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cited := regexp.MustCompile("`((?:Test|Fuzz)[A-Za-z0-9_]+)`").FindAllSubmatch(doc, -1)
	if len(cited) < 40 {
		t.Fatalf("%d tests cited: the pattern no longer reads the doc", len(cited))
	}
	for _, m := range cited {
		if !strings.Contains(tests.String(), "func "+string(m[1])+"(") {
			t.Errorf("docs/security.md cites %s, which no test file defines", m[1])
		}
	}
}
