//go:build unix

package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestFoldersReadAsPath: a file read through folders (in its folder) reads
// as when opened by its path, bytes and errors, for every kind of entry an
// input can be, past the bound on folders held and after close; close lets
// every handle go.
func TestFoldersReadAsPath(t *testing.T) {
	root := t.TempDir()
	var paths []string
	add := func(rel string) string {
		p := filepath.Join(root, rel)
		paths = append(paths, p)
		return p
	}
	for i := range maxFolders + 10 {
		p := add(filepath.Join("d"+strconv.Itoa(i), "w.json"))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf(`{"nodes":[],"i":%d}`, i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("d0/w.json", add("link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere.json", add("dangling.json")); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, add("pipe.json"))
	add("missing.json")
	add(filepath.Join("nodir", "x.json"))
	add("d1") // a folder
	if err := os.WriteFile(add("big.json"), make([]byte, 200), 0o644); err != nil {
		t.Fatal(err)
	}

	read := func(dirs *folders, p string) string {
		b, err := readRegularIn(dirs, p, 100, nil)
		return fmt.Sprintf("%q %v", b, err)
	}
	before := openFDs(t)
	dirs := newFolders()
	for round := range 2 { // the second finds the folders open
		for _, p := range paths {
			if got, want := read(dirs, p), read(nil, p); got != want {
				t.Errorf("round %d, %s: read in its folder %s, by path %s", round, p, got, want)
			}
		}
	}
	if held := openFDs(t) - before; held != maxFolders {
		t.Errorf("%d handles held, want the bound, %d", held, maxFolders)
	}
	dirs.close()
	if held := openFDs(t) - before; held != 0 {
		t.Errorf("%d handles still held after close", held)
	}
	for _, p := range paths[:3] {
		if got, want := read(dirs, p), read(nil, p); got != want {
			t.Errorf("after close, %s: %s, by path %s", p, got, want)
		}
	}
}

// openFDs counts the process's open files.
func openFDs(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count open files: %v", err)
	}
	return len(es)
}
