//go:build unix

package cmd

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// walkJSONByWalkDir is walkJSON as filepath.WalkDir does it: the reference
// walkJSON's own listing must agree with.
func walkJSONByWalkDir(dir string) (out []walked, bare []string) {
	pl := newPlaces([]string{dir}, "")
	var listed []string
	notBare := map[string]bool{}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			out = append(out, walked{path: p, err: err})
			notBare[p] = true
			return nil
		}
		if d.Name() == ".git" {
			notBare[filepath.Dir(p)] = true
		}
		if d.IsDir() {
			name := d.Name()
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			listed = append(listed, p)
			return nil
		}
		if !strings.EqualFold(filepath.Ext(p), ".json") || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		switch t := d.Type(); {
		case t.IsRegular():
			out = append(out, walked{path: p})
		case t&fs.ModeSymlink != 0:
			st, err := os.Stat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				out = append(out, walked{path: p, err: errDangling})
			case err != nil:
				out = append(out, walked{path: p, err: err})
			case st.Mode().IsRegular():
				if real, err := filepath.EvalSymlinks(p); err != nil || !pl.reaches(real) {
					out = append(out, walked{path: p, err: errLinkOut})
				} else {
					out = append(out, walked{path: p})
				}
			}
		}
		return nil
	})
	for _, p := range listed {
		if !notBare[p] {
			bare = append(bare, p)
		}
	}
	return out, bare
}

// walkedCmp compares walks by path and error text.
var walkedCmp = gocmp.Comparer(func(a, b walked) bool {
	if (a.err == nil) != (b.err == nil) {
		return false
	}
	return a.path == b.path && (a.err == nil || a.err.Error() == b.err.Error())
})

// TestWalkJSONAsWalkDir: walkJSON finds the files, errors and bare folders
// filepath.WalkDir finds, in its order, on a tree of every kind of entry
// it treats apart and on both corpora.
func TestWalkJSONAsWalkDir(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{
		"a.json", "B.JSON", "b.json", "a.json.txt", ".hidden.json", "z-.json",
		"a/x.json", "a.b/y.json", "a-b/y.json", "ab/y.json",
		".dot/x.json", "node_modules/x.json", "sub/node_modules.json",
		"repo/.git/HEAD", "repo/w.json", "repo/deeper/v.json", "gitfile/.git", "gitfile/u.json",
		"empty/.keep", "ünïcode/é.json",
	} {
		write(rel, "{}")
	}
	link("a.json", "link.json")
	link("nowhere.json", "dangling.json")
	link("sub", "dirlink.json")
	link("a", "dirlink")
	link(".", "self.json")
	outside := filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(outside, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	link(outside, "out.json")
	link("../"+filepath.Base(root)+"/a.json", "roundabout.json")
	link(".hidden.json", "tohidden.json")
	link("node_modules/x.json", "tomodules.json")
	link("a.json.txt", "totext.json")
	link("a/x.json", "sub/up.json")
	mkfifo(t, filepath.Join(root, "pipe.json"))
	if err := os.MkdirAll(filepath.Join(root, "many"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 700 { // more than one getdents buffer of names
		write(filepath.Join("many", strings.Repeat("n", 40)+strconv.Itoa(i*7919%1000)+".json"), "{}")
	}
	closed := filepath.Join(root, "closed")
	write("closed/c.json", "{}")
	if err := os.Chmod(closed, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(closed, 0o755) })
	if syscall.Geteuid() != 0 {
		if _, err := os.ReadDir(closed); err == nil {
			t.Fatal("a folder of mode 0 was listed: the tree does not test an unlistable folder")
		}
	}

	same := func(t *testing.T, dir string) {
		t.Helper()
		gotOut, gotBare := walkJSON(dir, newPlaces([]string{dir}, ""))
		wantOut, wantBare := walkJSONByWalkDir(dir)
		if d := gocmp.Diff(wantOut, gotOut, walkedCmp); d != "" {
			t.Errorf("walkJSON(%s) files (-WalkDir +walkJSON):\n%s", dir, d)
		}
		if d := gocmp.Diff(wantBare, gotBare); d != "" {
			t.Errorf("walkJSON(%s) bare folders (-WalkDir +walkJSON):\n%s", dir, d)
		}
	}
	if out, _ := walkJSONByWalkDir(root); len(out) < 700 {
		t.Fatalf("the reference found %d files: the tree is not what the test means", len(out))
	}
	for _, rel := range []string{".", "a", "dirlink", "missing", "a.json", "closed", "repo"} {
		same(t, filepath.Join(root, rel))
	}
	for _, name := range []string{"n8n-real", "n8n-more"} {
		t.Run(name, func(t *testing.T) { same(t, sharedtest.Path(t, "corpus", name)) })
	}
}
