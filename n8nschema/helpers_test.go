package n8nschema

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// posChecker checks positions against its own index of the file's
// newlines (it shares no code with Source.PosAt).
type posChecker struct {
	t   testing.TB
	src *Source
	nl  []int // offsets of '\n'
}

func newPosChecker(t testing.TB, src *Source) *posChecker {
	c := &posChecker{t: t, src: src}
	for i, b := range src.Src {
		if b == '\n' {
			c.nl = append(c.nl, i)
		}
	}
	return c
}

// pos fails when p is valid but does not lie inside the file, or when its
// line and column disagree with its byte offset.
func (c *posChecker) pos(what string, p Pos) {
	t := c.t
	t.Helper()
	if !p.IsValid() {
		return
	}
	b := c.src.Src
	if p.Offset < 0 || p.Offset > len(b) {
		t.Fatalf("%s: offset %d outside the file (%d bytes)", what, p.Offset, len(b))
	}
	// Newlines before the offset give the line; the last one starts it.
	k := sort.SearchInts(c.nl, p.Offset)
	if p.Line != k+1 {
		t.Fatalf("%s: line %d, but offset %d is on line %d", what, p.Line, p.Offset, k+1)
	}
	start, end := 0, len(b)
	if k > 0 {
		start = c.nl[k-1] + 1
	}
	if k < len(c.nl) {
		end = c.nl[k]
	}
	line, before := b[start:end], b[start:p.Offset]
	if k == 0 && hasBOM(b) && p.Offset >= 3 {
		line, before = line[3:], before[3:]
	}
	if n := utf8.RuneCount(line); p.Col < 1 || p.Col > n+1 {
		t.Fatalf("%s: column %d outside line %d (%d runes)", what, p.Col, p.Line, n)
	}
	if col := utf8.RuneCount(before) + 1; p.Col != col {
		t.Fatalf("%s: column %d, but offset %d is at column %d of line %d", what, p.Col, p.Offset, col, p.Line)
	}
	if q := c.src.PosAt(p.Offset, p.Path); q.Line != p.Line || q.Col != p.Col {
		t.Fatalf("%s: position %s disagrees with its offset %d (%s)", what, p, p.Offset, q)
	}
}

// value checks that a value's positions are inside the file and that the
// source text at its value position is the value's raw JSON, but for the
// members of repeated keys that the parser blanked to spaces.
func (c *posChecker) value(what string, v Value) {
	c.t.Helper()
	c.pos(what+" (key)", v.Pos())
	vp := v.ValuePos()
	c.pos(what, vp)
	if vp.IsValid() && v.Exists() && !sameBesidesBlanks(c.src.Src[vp.Offset:], v.Raw()) {
		c.t.Fatalf("%s at %s: source there does not start with the value %.40q", what, vp, v.Raw())
	}
}

// sameBesidesBlanks reports whether src starts with raw, where raw may hold
// a space in place of any byte but a line break.
func sameBesidesBlanks(src []byte, raw string) bool {
	if len(src) < len(raw) {
		return false
	}
	for i := range len(raw) {
		if raw[i] != src[i] && (raw[i] != ' ' || src[i] == '\n' || src[i] == '\r') {
			return false
		}
	}
	return true
}

// checkFile checks every position a parsed file hands out.
func checkFile(t testing.TB, f *File) {
	t.Helper()
	c := newPosChecker(t, f.Source)
	for i, p := range f.Problems {
		c.pos("file problem "+itoa(i), p.Pos)
	}
	for _, w := range f.Workflows {
		c.pos("workflow "+w.Path, w.Pos)
		for i, p := range w.Problems {
			c.pos("workflow problem "+itoa(i), p.Pos)
		}
		for _, cn := range w.Connections {
			c.pos("connection "+cn.From+" -> "+cn.To, f.Source.PosAt(cn.Offset, cn.Path()))
		}
		c.value("settings", w.Settings.Value)
		for _, n := range w.Nodes {
			c.pos("node "+itoa(n.Index), n.Pos)
			c.value("node value "+itoa(n.Index), n.Value)
			c.value("maxTries", n.MaxTries())
			n.Params().Walk(func(rel string, v Value) {
				c.value("parameter "+rel, v)
			})
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// eachCorpusFile calls fn with every JSON file of ../shared/corpus/name
// (skipped without ../shared, failed under CI) and fails when there is
// none. Tests of this package cannot use internal/corpustest, which
// imports it.
func eachCorpusFile(t *testing.T, name string, fn func(path string, src []byte)) {
	t.Helper()
	eachJSONFile(t, sharedtest.Path(t, "corpus", name), fn)
}

// eachJSONFile calls fn with every JSON file below root and fails when
// there is none.
func eachJSONFile(t *testing.T, root string, fn func(path string, src []byte)) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fn(p, src)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("%s: no JSON file found", root)
	}
}
