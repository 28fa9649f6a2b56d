package safewrite

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func write(t *testing.T, p, s string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), perm); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemp fails when a temporary file is left in dir.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".stormcheck-tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestWriteKeepsModeAndOwner(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "wf.json")
	write(t, p, "old", 0o640)
	owner := os.Geteuid() == 0 && runtime.GOOS != "windows"
	if owner {
		if err := os.Chown(p, 4321, 4322); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(p, []byte("new"), Options{Was: Of([]byte("old"))}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, p); got != "new" {
		t.Errorf("holds %q, want %q", got, "new")
	}
	if info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", info.Mode().Perm())
	}
	if uid, gid, ok := ownerOf(info); owner && ok && (uid != 4321 || gid != 4322) {
		t.Errorf("owner %d:%d, want 4321:4322", uid, gid)
	}
	noTemp(t, dir)
	// A new file gets Perm.
	q := filepath.Join(dir, "new.json")
	if err := Write(q, []byte("x"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(q); info.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v, want 0600", info.Mode().Perm())
	}
}

// A write that fails halfway (a full disk, an injected error) leaves the
// original whole and no temporary file.
func TestWriteFailureLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "wf.json")
	write(t, p, `{"nodes": []}`, 0o644)
	boom := errors.New("no space left on device")
	err := WriteWith(p, Options{}, func(w io.Writer) error {
		if _, err := w.Write([]byte(strings.Repeat("x", 200<<10))); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), p) {
		t.Errorf("error %v: want the write's, naming %s", err, p)
	}
	if got := read(t, p); got != `{"nodes": []}` {
		t.Errorf("the original was touched: %q", got)
	}
	noTemp(t, dir)
}

func TestWriteRefusesChanged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "wf.json")
	write(t, p, "read", 0o644)
	was := Of([]byte("read"))
	write(t, p, "saved by a person", 0o644) // same size class, other bytes
	err := Write(p, []byte("fixed"), Options{Was: was})
	if !errors.Is(err, ErrChanged) {
		t.Errorf("error %v, want ErrChanged", err)
	}
	if got := read(t, p); got != "saved by a person" {
		t.Errorf("the edit was lost: %q", got)
	}
	// Same size, other bytes.
	write(t, p, "READ", 0o644)
	if err := Write(p, []byte("fixed"), Options{Was: was}); !errors.Is(err, ErrChanged) {
		t.Errorf("same size, other bytes: error %v, want ErrChanged", err)
	}
	// Gone since.
	os.Remove(p)
	if err := Write(p, []byte("fixed"), Options{Was: was}); !errors.Is(err, ErrChanged) {
		t.Errorf("removed since: error %v, want ErrChanged", err)
	}
	// Created since it was found missing.
	write(t, p, "made meanwhile", 0o644)
	if err := Write(p, []byte("fixed"), Options{Was: Absent()}); !errors.Is(err, ErrChanged) || read(t, p) != "made meanwhile" {
		t.Errorf("created since: error %v, want ErrChanged", err)
	}
	// Holding the new bytes already (the same file reached twice): done.
	write(t, p, "fixed", 0o644)
	if err := Write(p, []byte("fixed"), Options{Was: was}); err != nil {
		t.Errorf("already written: %v", err)
	}
	noTemp(t, dir)
}

func TestWriteRefusesLinkOutside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "bashrc")
	write(t, secret, "export PATH=/bin\n", 0o644)
	root := t.TempDir()
	inside := filepath.Join(root, "real.json")
	write(t, inside, "in", 0o644)
	if err := os.Symlink(secret, filepath.Join(root, "leak.json")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("real.json", filepath.Join(root, "alias.json")); err != nil {
		t.Fatal(err)
	}
	within := []string{mustReal(t, root)}
	err := Write(filepath.Join(root, "leak.json"), []byte("{}"), Options{Within: within})
	if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "leak.json") {
		t.Errorf("error %v, want ErrOutside naming leak.json", err)
	}
	if got := read(t, secret); got != "export PATH=/bin\n" {
		t.Errorf("the file outside was written: %q", got)
	}
	// A link inside: its target is written, the link stays a link.
	if err := Write(filepath.Join(root, "alias.json"), []byte("fixed"), Options{Within: within, Was: Of([]byte("in"))}); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(filepath.Join(root, "alias.json")); info.Mode()&os.ModeSymlink == 0 {
		t.Error("the link inside was replaced by a file")
	}
	if got := read(t, inside); got != "fixed" {
		t.Errorf("the link's target holds %q", got)
	}
	// The folder given is a link itself: its target is the place.
	top := t.TempDir()
	if err := os.Symlink(root, filepath.Join(top, "wf")); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(top, "wf", "real.json"), []byte("again"), Options{Within: within}); err != nil {
		t.Errorf("through the given folder's link: %v", err)
	}
	noTemp(t, root)
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A rename gives the file a new inode: another hard link keeps the old
// bytes (docs/security.md says so).
func TestWriteHardLinkKeepsOldBytes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "wf.json")
	write(t, p, "old", 0o644)
	other := filepath.Join(dir, "backup.json")
	if err := os.Link(p, other); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := Write(p, []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if read(t, p) != "new" || read(t, other) != "old" {
		t.Errorf("wf.json %q, backup.json %q; want new and old", read(t, p), read(t, other))
	}
}

// A report to a device (/dev/stdout, /dev/null) is written to it: the
// device is not replaced by a file.
func TestWriteToDevice(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	if err := Write("/dev/null", []byte("report"), Options{}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat("/dev/null")
	if err != nil || info.Mode()&os.ModeDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v %v", info, err)
	}
	// A workflow is never a device.
	if err := Write("/dev/null", []byte("x"), Options{Was: Of(nil)}); !errors.Is(err, ErrNotRegular) {
		t.Errorf("error %v, want ErrNotRegular", err)
	}
}

func TestWriteReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes files whatever their mode")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "wf.json")
	write(t, p, "old", 0o444)
	if err := Write(p, []byte("new"), Options{}); !errors.Is(err, os.ErrPermission) {
		t.Errorf("error %v, want permission denied", err)
	}
	if read(t, p) != "old" {
		t.Error("a read-only file was replaced")
	}
}

// An output named on the command line that is a link (planted in a
// checkout, say) is replaced by the file; what it points to is untouched.
func TestWriteReplacesOutputLink(t *testing.T) {
	outside := t.TempDir()
	rc := filepath.Join(outside, "bashrc")
	write(t, rc, "export PATH=/bin\n", 0o644)
	dir := t.TempDir()
	p := filepath.Join(dir, "stormcheck.sarif")
	if err := os.Symlink(rc, p); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := Write(p, []byte("{}"), Options{ReplaceLink: true}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o644 {
		t.Errorf("the output is %v, %v; want a regular file of mode 0644", info, err)
	}
	if read(t, rc) != "export PATH=/bin\n" || read(t, p) != "{}" {
		t.Errorf("the link's target holds %q, the output %q", read(t, rc), read(t, p))
	}
	if runtime.GOOS == "windows" {
		return
	}
	// A link to a device is written to: /dev/stdout is one.
	dev := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", dev); err != nil {
		t.Fatal(err)
	}
	if err := Write(dev, []byte("{}"), Options{ReplaceLink: true}); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(dev); info.Mode()&os.ModeSymlink == 0 {
		t.Error("a link to a device was replaced")
	}
	// A link to a folder is no file to write.
	folder := filepath.Join(dir, "folder")
	if err := os.Symlink(outside, folder); err != nil {
		t.Fatal(err)
	}
	if err := Write(folder, []byte("{}"), Options{ReplaceLink: true}); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a link to a folder: error %v, want ErrNotRegular", err)
	}
}
