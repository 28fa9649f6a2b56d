package n8nschema

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unicode/utf8"
)

// sharedDir returns ../shared relative to the repository (the corpus and the
// reference texts). It skips the test when the folder is absent, and fails it
// when the CI environment variable is set: CI must run the corpus tests.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared")
	if _, err := os.Stat(filepath.Join(dir, "corpus")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but %s is missing: %v", dir, err)
		}
		t.Skipf("%s is absent; skipping the corpus test", dir)
	}
	return dir
}

// checkPos fails when p is valid but does not lie inside src, or when its
// line and column disagree with its byte offset.
func checkPos(t testing.TB, src *Source, what string, p Pos) {
	t.Helper()
	if !p.IsValid() {
		return
	}
	b := src.Src
	if p.Offset < 0 || p.Offset > len(b) {
		t.Fatalf("%s: offset %d outside the file (%d bytes)", what, p.Offset, len(b))
	}
	if line := bytes.Count(b[:p.Offset], []byte("\n")) + 1; p.Line != line {
		t.Fatalf("%s: line %d, but offset %d is on line %d", what, p.Line, p.Offset, line)
	}
	// The text of the line, without its newline, in runes.
	start := bytes.LastIndexByte(b[:p.Offset], '\n') + 1
	end := len(b)
	if i := bytes.IndexByte(b[start:], '\n'); i >= 0 {
		end = start + i
	}
	line := b[start:end]
	if p.Line == 1 && hasBOM(b) {
		line = line[3:]
	}
	if n := utf8.RuneCount(line); p.Col < 1 || p.Col > n+1 {
		t.Fatalf("%s: column %d outside line %d (%d runes)", what, p.Col, p.Line, n)
	}
	if q := src.PosAt(p.Offset, p.Path); q.Line != p.Line || q.Col != p.Col {
		t.Fatalf("%s: position %s disagrees with its offset %d (%s)", what, p, p.Offset, q)
	}
}

// checkValue checks that a value's positions are inside the file and that
// the source text at its value position is the value's raw JSON.
func checkValue(t testing.TB, src *Source, what string, v Value) {
	t.Helper()
	checkPos(t, src, what+" (key)", v.Pos())
	vp := v.ValuePos()
	checkPos(t, src, what, vp)
	if vp.IsValid() && v.Exists() && !bytes.HasPrefix(src.Src[vp.Offset:], []byte(v.Raw())) {
		t.Fatalf("%s at %s: source there does not start with the value %.40q", what, vp, v.Raw())
	}
}

// checkFile checks every position a parsed file hands out.
func checkFile(t testing.TB, f *File) {
	t.Helper()
	src := f.Source
	for i, p := range f.Problems {
		checkPos(t, src, "file problem "+itoa(i), p.Pos)
	}
	for _, w := range f.Workflows {
		checkPos(t, src, "workflow "+w.Path, w.Pos)
		for i, p := range w.Problems {
			checkPos(t, src, "workflow problem "+itoa(i), p.Pos)
		}
		for _, c := range w.Connections {
			checkPos(t, src, "connection "+c.From+" -> "+c.To, c.Pos)
		}
		checkValue(t, src, "settings", w.Settings.Value)
		for _, n := range w.Nodes {
			checkPos(t, src, "node "+itoa(n.Index), n.Pos)
			checkValue(t, src, "node value "+itoa(n.Index), n.Value)
			checkValue(t, src, "maxTries", n.MaxTries)
			n.Params().Walk(func(rel string, v Value) {
				checkValue(t, src, "parameter "+rel, v)
			})
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
