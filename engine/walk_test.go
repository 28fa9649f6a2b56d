//go:build unix

package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestWalkJSON: on a tree of every kind of entry it treats apart, walkJSON
// keeps the .json files and the links to files it would read by itself,
// names what it cannot read, and leaves out the rest.
func TestWalkJSON(t *testing.T) {
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
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.json"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err) // the walk never opens it
	}
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

	got := map[string]string{}
	ws, _ := walkJSON(root, NewPlaces([]string{root}, ""))
	for _, w := range ws {
		rel, _ := filepath.Rel(root, w.path)
		got[rel] = "read"
		if w.err != nil {
			got[rel] = w.err.Error()
		}
	}
	for rel, want := range map[string]string{
		"a.json": "read", "B.JSON": "read", "b.json": "read", "z-.json": "read", "a/x.json": "read", "a.b/y.json": "read",
		"repo/w.json": "read", "repo/deeper/v.json": "read", "gitfile/u.json": "read", "ünïcode/é.json": "read",
		"sub/node_modules.json": "read", "link.json": "read", "roundabout.json": "read", "sub/up.json": errDangling.Error(),
		"dangling.json": errDangling.Error(), "out.json": errLinkOut.Error(), "tohidden.json": errLinkOut.Error(),
		"tomodules.json": errLinkOut.Error(), "totext.json": errLinkOut.Error(),
	} {
		if got[rel] != want {
			t.Errorf("%s: %q, want %q", rel, got[rel], want)
		}
	}
	for _, rel := range []string{"a.json.txt", ".hidden.json", ".dot/x.json", "node_modules/x.json", "dirlink.json", "self.json", "pipe.json", "dirlink/x.json"} {
		if _, ok := got[rel]; ok {
			t.Errorf("%s was kept", rel)
		}
	}
	if syscall.Geteuid() != 0 && !strings.Contains(got["closed"], "permission denied") {
		t.Errorf("the unlistable folder: %q, want its error", got["closed"])
	}
	if n := len(got); n < 700 {
		t.Errorf("%d entries: the many folder is missing", n)
	}
}

func TestDirOfIsDir(t *testing.T) {
	for _, p := range []string{"/", "/a", "/a/b", "/a/b/c.json", "a", "a/b.json", ".", "..", "../a/b", "x.json", "/work/shared/corpus/n8n-real/f.json"} {
		p = filepath.FromSlash(p)
		if got, want := dirOf(p), filepath.Dir(p); got != want {
			t.Errorf("dirOf(%q) = %q, filepath.Dir says %q", p, got, want)
		}
	}
}

// TestLearnTops: the git tops a walk's listings give (learnTops) are those
// gitTop finds with a stat of .git in each folder, for .git folders, files,
// links to either or to nothing, a name in other case, a .git below a
// skipped folder, an unlistable folder and a top above the walk.
func TestLearnTops(t *testing.T) {
	top := t.TempDir()
	mk := func(rel string, dir bool) {
		p := filepath.Join(top, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if dir {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte("{}"), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	mk(".git", true)
	for _, rel := range []string{"w/a/x.json", "w/repo/y.json", "w/repo/in/z.json", "w/repo/-first/t.json", "w/file/u.json", "w/-b/v.json", "w/upper/s.json",
		"w/dangling/d.json", "w/linked/l.json", "w/linkfile/f.json", "w/.hidden/h.json", "w/node_modules/m.json", "w/closed/c.json"} {
		mk(rel, false)
	}
	mk("w/repo/.git", true)
	mk("w/file/.git", false)
	mk("w/upper/.GIT", true)
	mk("w/-b/.git", true)
	mk("w/.hidden/.git", true)
	for target, rel := range map[string]string{"nowhere": "w/dangling/.git", "../repo/.git": "w/linked/.git", "../file/.git": "w/linkfile/.git"} {
		if err := os.Symlink(target, filepath.Join(top, rel)); err != nil {
			t.Fatal(err)
		}
	}
	mk("w/closed/.git", true)
	closed := filepath.Join(top, "w/closed")
	if err := os.Chmod(closed, 0o300); err != nil { // searchable, not listable
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(closed, 0o755) })
	if _, err := os.ReadDir(closed); err == nil {
		// root lists any folder: the walk's error path goes untested here.
		t.Log("w/closed is listable (running as root?): an unlistable folder's top is not tested")
	}

	root := filepath.Join(top, "w")
	_, dirs := walkJSON(root, NewPlaces([]string{root}, ""))
	learned := NewNamer(root, "", "")
	learned.learnTops(dirs)
	if len(dirs) < 10 {
		t.Fatalf("%d folders listed", len(dirs))
	}
	tops := 0
	for _, d := range dirs {
		want := NewNamer(root, "", "").gitTop(d.path)
		if got := learned.tops[d.path]; got != want {
			t.Errorf("%s: learned top %q, gitTop %q", d.path, got, want)
		}
		if want == d.path {
			tops++
		}
	}
	if tops < 4 {
		t.Errorf("%d folders are their own top: the tree does not test .git in a folder", tops)
	}
	for _, rel := range []string{"w", "w/a", "w/repo/in", "w/closed"} {
		d := filepath.Join(top, rel)
		if got, want := learned.gitTop(d), NewNamer(root, "", "").gitTop(d); got != want {
			t.Errorf("%s: top %q, want %q", rel, got, want)
		}
	}
}
