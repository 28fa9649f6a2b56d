// Package n8nschema is the typed model of exported n8n workflows: every input
// shape n8n and its users produce, every node and parameter with the source
// position it came from, and the node catalog that says what each node type
// does to the outside world.
//
// It parses each file in one walk into a tree of values with their byte
// offsets (tree.go), reads the workflows from that tree, and hands out
// typed values; rules never touch JSON themselves (they use Node.Param).
package n8nschema

import (
	"bytes"
	"encoding/binary"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Pos is a place in a source file: 1-based line and rune column, the byte
// offset, and the dotted path of the value (usable with jq after swapping
// separators). A zero Line means the position is unknown.
type Pos struct {
	Line   int    `json:"line"`
	Col    int    `json:"column"`
	Offset int    `json:"-"`
	Path   string `json:"path,omitempty"`
}

// IsValid reports whether the position points somewhere.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Source is one input: a file, stdin, or a workflow fetched from an API.
type Source struct {
	// Name is what reports show: a slash-separated path relative to the
	// repository root, "<stdin>", or the editor URL of a fetched workflow.
	Name string
	// Src is read-only once the Source is made: parsed values are string
	// views of these bytes, not copies.
	Src []byte

	released bool // Release dropped Src
	valid    bool // ValidJSON

	once sync.Once
	// lineStarts holds the offset of every line start, counted exactly
	// and kept in 32 bits (a source of 4 GiB or more uses bigStarts),
	// built on first need (index): most sources never need it (PosAt).
	lineStarts []uint32
	bigStarts  []int

	// The last position asked (see PosAt): its line (1-based; 0 before
	// the first), offset and column, the BOM counted.
	mu        sync.Mutex
	lastOff   int
	lastCol   int
	lastLn    int
	lastStart int // where line lastLn starts
}

// Release drops the source's bytes and line index once nothing will read
// them (the audit has kept what it needs of the file); Name stays, and
// reading a position or a line panics.
func (s *Source) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Src, s.lineStarts, s.bigStarts, s.released = nil, nil, nil, true
}

func (s *Source) mustHold() {
	if s.released {
		panic("n8nschema: source " + strconv.Quote(s.Name) + " was released: its bytes and positions are gone")
	}
}

// ValidJSON reports whether Parse read the source whole: one valid JSON
// value (after a byte-order mark) with only white space around it, nested
// at most MaxDepth deep. A file with data after its workflow, which n8n's
// JSON.parse rejects, is not. Set by Parse, so that --fix need not check
// the bytes again.
func (s *Source) ValidJSON() bool { return s.valid }

// NewSource wraps the bytes of one input.
func NewSource(name string, src []byte) *Source {
	return &Source{Name: name, Src: src}
}

func (s *Source) index() { s.once.Do(s.buildIndex) }

func (s *Source) buildIndex() {
	n := bytes.Count(s.Src, []byte{'\n'}) + 1
	if uint64(len(s.Src)) > math.MaxUint32 {
		s.bigStarts = make([]int, 1, n)
		for i, b := range s.Src {
			if b == '\n' {
				s.bigStarts = append(s.bigStarts, i+1)
			}
		}
		return
	}
	s.lineStarts = make([]uint32, 1, n)
	rest, off := s.Src, 0
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		off += i + 1
		s.lineStarts = append(s.lineStarts, uint32(off))
		rest = rest[i+1:]
	}
}

// lines is the number of lines (a source without a newline has one).
func (s *Source) lines() int {
	if s.bigStarts != nil {
		return len(s.bigStarts)
	}
	return len(s.lineStarts)
}

// lineStart is the offset where 0-based line i starts.
func (s *Source) lineStart(i int) int {
	if s.bigStarts != nil {
		return s.bigStarts[i]
	}
	return int(s.lineStarts[i])
}

// PosAt converts a byte offset into a position.
//
// Positions are mostly asked for in source order and a few lines apart
// (the parser asks for its nodes' in offset order, a connection's is made
// only where one is reported; an audit asks for a few dozen a file, against
// a line every 30 bytes), so
// PosAt counts the newlines from the last position asked instead of
// indexing every line; only a position far before the last one reads the
// line index (a file asked back and forth would count its text again and
// again).
func (s *Source) PosAt(off int, path string) Pos {
	if s.released {
		s.mustHold()
	}
	if off < 0 || off > len(s.Src) {
		return Pos{Path: path}
	}
	s.mu.Lock()
	from, ln, col, start := s.lastOff, s.lastLn, s.lastCol, s.lastStart // ln is 1-based
	if ln == 0 {
		from, ln, col, start = 0, 1, 1, 0
	}
	switch {
	case from <= off:
		// Forward: the same line counts its column on from the last
		// position (a one-line export stays linear), another counts from
		// its start.
		gap := s.Src[from:off]
		if k := bytes.Count(gap, newline); k == 0 {
			col += runeCount(gap)
		} else {
			ln += k
			start = from + bytes.LastIndexByte(gap, '\n') + 1
			col = runeCount(s.Src[start:off]) + 1
		}
	case from-off <= maxBack:
		ln -= bytes.Count(s.Src[off:from], newline)
		start = bytes.LastIndexByte(s.Src[:off], '\n') + 1
		col = runeCount(s.Src[start:off]) + 1
	default:
		s.index()
		i := sort.Search(s.lines(), func(i int) bool { return s.lineStart(i) > off }) - 1
		ln, start = i+1, s.lineStart(i)
		col = runeCount(s.Src[start:off]) + 1
	}
	s.lastLn, s.lastOff, s.lastCol, s.lastStart = ln, off, col, start
	s.mu.Unlock()
	if ln == 1 && hasBOM(s.Src) && off >= 3 {
		col-- // the byte-order mark is not a column an editor shows
	}
	return Pos{Line: ln, Col: col, Offset: off, Path: path}
}

// maxBack is how far before the last position asked PosAt counts back
// rather than read the line index.
const maxBack = 1 << 16

var newline = []byte{'\n'}

// runeCount is utf8.RuneCount, eight ASCII bytes at a time: a column is
// mostly a line's indentation.
func runeCount(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&highs != 0 {
			break
		}
	}
	return i + utf8.RuneCount(b[i:])
}

// Line returns the text of a 1-based line without its line ending.
func (s *Source) Line(n int) string {
	start, end := s.LineSpan(n)
	return string(s.Src[start:end])
}

// LineSpan returns the byte offsets of a 1-based line's text in Src, without
// its line ending (or the first line's byte-order mark); an empty span for
// a line that does not exist. It does not read the line: a snippet of a
// one-line export needs only the bytes it shows. Like PosAt it counts
// newlines, from the last line it or PosAt found when n is at or after it.
func (s *Source) LineSpan(n int) (start, end int) {
	s.mustHold()
	if n < 1 {
		return 0, 0
	}
	s.mu.Lock()
	ln, start := 1, 0
	if s.lastLn != 0 && s.lastLn <= n {
		ln, start = s.lastLn, s.lastStart
	}
	// Whole chunks of lines before line n are counted, not searched.
	const chunk = 4096
	for ln < n {
		to := min(start+chunk, len(s.Src))
		if k := bytes.Count(s.Src[start:to], newline); ln+k < n {
			if to == len(s.Src) {
				s.mu.Unlock()
				return 0, 0 // no line n
			}
			ln, start = ln+k, to
			continue
		}
		for ; ln < n; ln++ {
			start += bytes.IndexByte(s.Src[start:], '\n') + 1
		}
	}
	s.lastLn, s.lastOff, s.lastCol, s.lastStart = n, start, 1, start
	s.mu.Unlock()
	end = len(s.Src)
	if i := bytes.IndexByte(s.Src[start:], '\n'); i >= 0 {
		end = start + i
	}
	if end > start && s.Src[end-1] == '\r' {
		end--
	}
	if n == 1 && hasBOM(s.Src[start:end]) {
		start += 3
	}
	return start, end
}

func hasBOM(b []byte) bool {
	return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// escapeKey escapes a key for use as one component of a dotted path.
func escapeKey(k string) string {
	i := 0
	for i < len(k) && !pathSpecial[k[i]] {
		i++
	}
	if i == len(k) {
		return k
	}
	// Byte by byte: the special characters are ASCII, and a key that is
	// not UTF-8 keeps its bytes (ranging over runes made them U+FFFD, a
	// path that named no key).
	var b strings.Builder
	b.Grow(len(k) + 2)
	b.WriteString(k[:i])
	for ; i < len(k); i++ {
		if pathSpecial[k[i]] {
			b.WriteByte('\\')
		}
		b.WriteByte(k[i])
	}
	return b.String()
}

// pathSpecial marks the bytes escapeKey escapes (a table: every member
// read by Each escapes its key, and strings.ContainsAny built its set on
// every call).
var pathSpecial = func() (t [256]bool) {
	for _, c := range []byte(`.*?|#@\!=<>%"`) {
		t[c] = true
	}
	return t
}()

func joinPath(prefix, elem string) string {
	if prefix == "" {
		return elem
	}
	return prefix + "." + elem
}
