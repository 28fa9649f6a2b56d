package n8nschema

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// tree is one file's JSON, read in one walk by buildTree: every value with
// its byte range, objects and arrays with their children in source order.
// Values (value.go) are indexes into it, so reading a parameter is a few
// slice reads, not a scan of the JSON text.
type tree struct {
	src *Source
	// text is what was parsed: a string view of the source's bytes (after
	// a byte-order mark, before trailing data), or of a copy in which the
	// earlier members of a repeated key are blanked out. Offsets in nodes
	// are offsets in text; base is where text starts in src.Src.
	text  string
	base  int
	nodes []jnode // nodes[0] is the root
	// escKeys holds the unescaped keys of members whose key has an
	// escape, by the offset of the key's opening quote.
	escKeys map[uint32]string
	// decoded holds the strings with an escape that str has decoded, by
	// offset: facts read a Code node's code or a prompt several times
	// (more than half the bytes decoded on the corpus were decoded
	// before), and each decoding allocated the string again. The tree
	// never changes, so an entry never goes stale.
	mu      sync.Mutex
	decoded map[uint32]string
}

// jnode is one JSON value in 16 bytes: 0.4 of the text it stands for on
// the real corpus (a value per 40 bytes), 0.9 on a dense generated export
// (a value per 18 bytes).
type jnode struct {
	off uint32 // where the value's text starts
	// A container's children are nodes[first : first+n]; its text ends
	// after the last child, at the closing bracket (endOf). A scalar's
	// text ends at first (n is 0).
	first, n uint32
	// kdist is how far before off the opening quote of a member's key
	// is, or 0 when it is too far for 16 bits (keyOff then scans).
	kdist uint16
	k     uint8 // a Kind
	flags uint8
}

// maxText is the largest text the tree's 32-bit offsets address.
const maxText = math.MaxUint32 - 1

func (n *jnode) kind() Kind { return Kind(n.k) }

// jnode flags
const (
	strEsc  uint8 = 1 << iota // a string value holds an escape
	keyEsc                    // the member's key holds an escape
	dead                      // an earlier member of a repeated key (dropped)
	member                    // an object member (it has a key)
	literal                   // a parameter expression with no {{ }}: it evaluates to its text after "="
	strU                      // a string value holds a \u escape (strEsc is set too)
)

func (n *jnode) container() bool { return n.k == uint8(Object) || n.k == uint8(Array) }

// endOf is where the text of node n ends: the root's at the end of the
// text (white space included), a scalar's at
// n.first, another container's past the bracket after its last child.
func (t *tree) endOf(n *jnode) uint32 {
	if n == &t.nodes[0] && n.container() {
		return uint32(len(t.text))
	}
	return nodeEnd(t.nodes, t.text, n)
}

// nodeEnd is endOf without the root's rule; the builder uses it on nodes
// not yet in a tree. Repeated keys do not disturb it: a container's last
// member is never a dropped one, and blanked text is white space.
func nodeEnd(nodes []jnode, text string, n *jnode) uint32 {
	if !n.container() {
		return n.first
	}
	i := int(n.off) + 1
	if n.n > 0 {
		i = int(nodeEnd(nodes, text, &nodes[n.first+n.n-1]))
	}
	return uint32(skipWS(text, i)) + 1
}

// keyOff is the offset of the opening quote of member n's key: small
// enough to inline, since every member lookup asks it of each member
// it passes.
func (t *tree) keyOff(n *jnode) uint32 {
	if n.kdist != 0 {
		return n.off - uint32(n.kdist)
	}
	return t.farKeyOff(n)
}

// farKeyOff is keyOff for a key too far before its value for kdist: it
// scans back from the value.
func (t *tree) farKeyOff(n *jnode) uint32 {
	j := t.keyClose(n) - 1
	for {
		for t.text[j] != '"' {
			j--
		}
		k := j // a quote after an odd number of backslashes is escaped
		for k > 0 && t.text[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j
		}
		j--
	}
}

// keyOf is the unescaped key of member n. Pretty-printed JSON writes
// `"key": value`: a value with a quote three bytes before it has its key
// between the quote kdist before it and that one, read with no scan.
// Only white space and the colon lie between a key and its value, so that
// quote ends the key, unless it opens an empty one (kdist 3; `"":1`); an
// unescaped key holds no quote.
func (t *tree) keyOf(n *jnode) string {
	if o := n.off; n.flags&keyEsc == 0 && n.kdist > 3 && t.text[o-3] == '"' {
		return t.text[o-uint32(n.kdist)+1 : o-3]
	}
	return t.keyScanned(n)
}

// keyScanned is keyOf but for its common case.
func (t *tree) keyScanned(n *jnode) string {
	if n.flags&keyEsc != 0 {
		return t.escKeys[t.keyOff(n)]
	}
	return t.text[t.keyOff(n)+1 : t.keyClose(n)]
}

// keyClose is the offset of the quote that closes n's key: the last quote
// before the colon in front of the value.
func (t *tree) keyClose(n *jnode) uint32 {
	i := n.off - 1
	for t.text[i] != ':' {
		i--
	}
	i--
	for t.text[i] != '"' {
		i--
	}
	return i
}

// str is the unescaped text of a string value.
func (t *tree) str(n *jnode) string {
	raw := t.text[n.off+1 : n.first-1]
	if n.flags&strEsc == 0 {
		return raw
	}
	t.mu.Lock()
	s, ok := t.decoded[n.off]
	t.mu.Unlock()
	if !ok {
		s = unescape(raw)
		t.mu.Lock()
		if t.decoded == nil {
			t.decoded = map[uint32]string{}
		}
		t.decoded[n.off] = s
		t.mu.Unlock()
	}
	return s
}

// descendants is the run of t.nodes that holds every value below the
// non-empty container n, nested ones included, and nothing else:
// everything the builder appended between n's opening and its closing,
// which starts with the children of the first container below it to
// close (n's first non-empty container child, that one's, and so on).
func (t *tree) descendants(n *jnode) (lo, hi uint32) {
	lo, hi = n.first, n.first+n.n
	for d := n; ; {
		next := -1
		for k, c := range t.children(d) {
			if c.container() && c.n > 0 {
				next = int(d.first) + k
				break
			}
		}
		if next < 0 {
			return lo, hi
		}
		d = &t.nodes[next]
		lo = d.first
	}
}

// markLiterals flags the strings below node i (a node's parameters) that
// n8n reads as a literal: an expression ("=...") with no {{ }} renders to
// its text after the "=" (see docs/n8n-behaviour.md#expressions-and-resource-locators).
// It reports whether a string below holds "{{" and does not begin with
// "=" (Node.BareBraces): n8n sends it as it is, braces and all; and
// whether node i is a container with no expression below (IsExpr: a
// string that begins with "=" and holds "{{"; Node.NoExprs), decided
// from what the literal test reads.
func (t *tree) markLiterals(i uint32) (bare, none bool) {
	n := &t.nodes[i]
	if !n.container() || n.n == 0 {
		return false, n.container()
	}
	exprs := false
	lo, hi := t.descendants(n)
	for k := lo; k < hi; k++ {
		c := &t.nodes[k]
		if c.kind() != String {
			continue
		}
		var lit bool
		raw := t.text[c.off+1 : c.first-1]
		switch {
		case c.flags&strEsc == 0:
			if t.text[c.off+1] == '=' {
				lit = !holdsBraces(t.text[c.off+2 : c.first-1])
				exprs = exprs || !lit
			} else if !bare {
				bare = holdsBraces(raw)
			}
		case raw[0] != '=' && raw[0] != '\\':
			// Decided without unescaping: the text starts with neither
			// "=" nor an escape (one that might be "\u003d").
			if !bare {
				bare = holdsBraces(raw)
			}
		case c.flags&strU == 0:
			// Decided without unescaping: with no \u, every escape
			// spells one character that is neither "=" nor a brace, so
			// the text begins with "=" only when raw does, and holds
			// "{{" only where raw does.
			if !holdsBraces(raw) {
				lit = raw[0] == '='
			} else if raw[0] == '\\' {
				bare = true
			} else {
				exprs = true // "=" and "{{"
			}
		case holdsBraces(raw):
			// It holds "{{" already (no escape has a brace after its
			// backslash, so the braces stay): no literal; bare unless it
			// begins with "=", spelled as itself or as an escape (an
			// expression then).
			exprs = exprs || t.isExpr(c)
			if raw[0] == '\\' && !bare {
				bare = !strings.HasPrefix(unescape(raw), "=")
			}
		default:
			s := unescape(raw)
			lit = strings.HasPrefix(s, "=") && !holdsBraces(s)
			exprs = exprs || strings.HasPrefix(s, "=") && !lit
		}
		if lit {
			c.flags |= literal
		}
	}
	return bare, !exprs
}

// holdsBraces is strings.Contains(s, "{{"), quicker on the short strings
// that make most parameters and most often hold no '{' at all: one byte
// search, not Index's two-byte one.
func holdsBraces(s string) bool {
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 || i+1 >= len(s) {
			return false
		}
		if s[i+1] == '{' {
			return true
		}
		s = s[i+2:]
	}
}

// children are the nodes of a container in source order.
func (t *tree) children(n *jnode) []jnode {
	return t.nodes[n.first : n.first+n.n]
}

// buildResult is what one walk found.
type buildResult struct {
	t    *tree
	reps []repeatedKey
	// deepAt is the offset of the bracket that opens level MaxDepth+1, or
	// -1; ok is false when the text is not valid JSON (or too deep).
	deepAt int
	ok     bool
}

// repeatedKey is a member whose key an earlier member of the same object
// already used.
type repeatedKey struct {
	key      string
	path     string // dotted path of the later member
	off      int    // offset of the later key's opening quote
	firstOff int    // offset of the earlier key's opening quote
	// [blankFrom, blankTo) is the earlier member, key to value (lastMembersWin
	// blanks the comma after it too); its value starts at dropVal.
	blankFrom, blankTo, dropVal int
	// keptVal is where the later member's value starts.
	keptVal int
}

// builder is the state of one walk. Its slices are pooled: a walk's
// scratch space is most of what it would otherwise allocate.
type builder struct {
	text string
	// pending holds the direct children of every open container, each
	// container's own node followed by its children so far. When a
	// container closes, its children move to nodes as one block.
	pending []jnode
	nodes   []jnode
	frames  []frame
	escKeys map[uint32]string
	reps    []repeatedKey
	// the key of the member whose value comes next: its quotes' offsets
	// (add makes the string: a string field written for every key cost
	// its write barrier's test), and whether it holds an escape
	key, keyEnd uint32
	kesc        bool
	// inObject: the innermost open container is an object, so the next
	// value is a member.
	inObject bool
	// maps are the emptied byKey maps of closed frames, for keyMap.
	maps []map[string]int
}

// keyMap is an empty map for a frame's byKey: one a closed frame used, if
// any (a large object's siblings are often large too).
func (b *builder) keyMap() map[string]int {
	if n := len(b.maps); n > 0 {
		m := b.maps[n-1]
		b.maps = b.maps[:n-1]
		return m
	}
	return make(map[string]int, 32)
}

// pkey is the unescaped key of member pending[k], read back from the text
// as the tree reads it (keys seldom repeat: this is rare).
func (b *builder) pkey(k int) string {
	return (&tree{text: b.text, escKeys: b.escKeys}).keyOf(&b.pending[k])
}

type frame struct {
	self   int // index in pending of the container's node
	object bool
	// byKey indexes the live members of a large object by key (pending
	// index); small ones are searched from the end, only for a key whose
	// bit (keyBit) is already in seen: keys seldom repeat.
	byKey map[string]int
	seen  uint64
	// dropped: a member was dropped (a repeated key), so close copies
	// the live children one by one.
	dropped bool
}

// keyBit is one of 64 bits for a key, from its length and end bytes
// mixed by a multiplicative hash (its top six bits).
func keyBit(key string) uint64 {
	h := uint64(len(key))
	if len(key) > 0 {
		h ^= uint64(key[0])<<8 ^ uint64(key[len(key)-1])<<16
	}
	return 1 << (h * 0x9E3779B97F4A7C15 >> 58)
}

var builders = sync.Pool{New: func() any { return new(builder) }}

// buildTree reads text (the JSON of one file, base bytes into src.Src)
// once: it validates it as JSON (RFC 8259), stops at nesting deeper than
// MaxDepth, finds repeated keys, and builds the tree. The later member of
// a repeated key wins (JSON.parse's rule): the earlier one is not among
// its object's children.
func buildTree(src *Source, text string, base int) buildResult {
	b := builders.Get().(*builder)
	defer func() {
		clear(b.frames[:cap(b.frames)]) // closed frames' maps too: they view text
		*b = builder{pending: b.pending[:0], nodes: b.nodes[:0], frames: b.frames[:0], maps: b.maps}
		builders.Put(b)
	}()
	b.text = text
	b.nodes = append(b.nodes, jnode{}) // the root's place
	deepAt, ok := b.run()
	r := buildResult{deepAt: deepAt, ok: ok && deepAt < 0}
	if !r.ok {
		return r
	}
	b.nodes[0] = b.pending[0]
	r.t = &tree{src: src, text: text, base: base, escKeys: b.escKeys}
	r.reps = b.reps
	// An exact copy: the builder's array goes to the next file.
	r.t.nodes = slices.Clone(b.nodes)
	return r
}

// run is the walk: an explicit stack instead of recursion, so nesting
// costs no Go stack. It returns deepAt >= 0 at a bracket that nests too
// deep, else ok when text is one valid JSON value with only white space
// around it.
func (b *builder) run() (deepAt int, ok bool) {
	s := b.text
	i := b.ws(0)
value:
	if i >= len(s) {
		return -1, false
	}
	switch c := s[i]; c {
	case '{', '[':
		if len(b.frames) == MaxDepth {
			return i, false
		}
		kind := Array
		if c == '{' {
			kind = Object
		}
		b.open(i, kind)
		i = b.ws(i + 1)
		if i < len(s) && s[i] == c+2 { // } or ]
			i++
			b.close()
			goto after
		}
		if c == '{' {
			goto key
		}
		goto value
	case '"':
		j, fl, ok := scanString(s, i)
		if !ok {
			return -1, false
		}
		// A string's flags are the escapes it holds
		// (scanString): strEsc for any, with strU for a
		// \u, which a search of Raw for a word spelled
		// only as itself asks first (UnicodeEscaped).
		b.leaf(i, j, String, fl)
		i = j
	case 't':
		if !strings.HasPrefix(s[i:], "true") {
			return -1, false
		}
		b.leaf(i, i+4, Bool, 0)
		i += 4
	case 'f':
		if !strings.HasPrefix(s[i:], "false") {
			return -1, false
		}
		b.leaf(i, i+5, Bool, 0)
		i += 5
	case 'n':
		if !strings.HasPrefix(s[i:], "null") {
			return -1, false
		}
		b.leaf(i, i+4, Null, 0)
		i += 4
	default:
		j, ok := scanNumber(s, i)
		if !ok {
			return -1, false
		}
		b.leaf(i, j, Number, 0)
		i = j
	}
after:
	// A value ended at i; in pretty-printed JSON a comma or a bracket
	// follows right away.
	if i >= len(s) || s[i] <= ' ' {
		i = b.ws(i)
	}
	if len(b.frames) == 0 {
		return -1, i == len(s)
	}
	if i >= len(s) {
		return -1, false
	}
	if top := &b.frames[len(b.frames)-1]; s[i] == ',' {
		i = b.ws(i + 1)
		if top.object {
			goto key
		}
		goto value
	} else if top.object && s[i] == '}' || !top.object && s[i] == ']' {
		i++
		b.close()
		goto after
	}
	return -1, false
key:
	if i >= len(s) || s[i] != '"' {
		return -1, false
	}
	{
		j, fl, ok := scanString(s, i)
		if !ok {
			return -1, false
		}
		b.key, b.keyEnd, b.kesc = uint32(i), uint32(j-1), fl != 0
		// Pretty-printed JSON writes `"key": value`: the colon and its
		// one space need no call to ws.
		if j+2 < len(s) && s[j:j+2] == ": " && s[j+2] > ' ' {
			i = j + 2
			goto value
		}
		i = b.ws(j)
		if i >= len(s) || s[i] != ':' {
			return -1, false
		}
		i = b.ws(i + 1)
	}
	goto value
}

// add appends a value's node to the open container (or makes it the
// root), dropping an earlier member of the same key.
func (b *builder) add(n jnode) {
	if b.inObject {
		key := b.text[b.key+1 : b.keyEnd]
		n.flags |= member
		if d := n.off - b.key; d <= math.MaxUint16 {
			n.kdist = uint16(d)
		}
		if b.kesc {
			key = unescape(key)
			n.flags |= keyEsc
			if b.escKeys == nil {
				b.escKeys = map[uint32]string{}
			}
			b.escKeys[b.key] = key
		}
		// The common case first: a small object whose keys so far
		// leave this key's bit unset (member's first test).
		top := &b.frames[len(b.frames)-1]
		if bit := keyBit(key); top.byKey == nil && top.seen&bit == 0 && len(b.pending)-top.self <= 16 {
			top.seen |= bit
		} else {
			b.member(top, key, int(n.off))
		}
	}
	b.pending = append(b.pending, n)
}

// member records key in the object top before its new member, whose
// value starts at val, is added: an earlier live member of that key
// becomes a repeat.
func (b *builder) member(top *frame, key string, val int) {
	prev := -1
	if top.byKey != nil {
		if k, ok := top.byKey[key]; ok {
			prev = k
		}
	} else if bit := keyBit(key); top.seen&bit == 0 {
		top.seen |= bit
	} else {
		for k := len(b.pending) - 1; k > top.self; k-- {
			if b.pending[k].flags&dead == 0 && b.pkey(k) == key {
				prev = k
				break
			}
		}
	}
	if prev >= 0 {
		m := &b.pending[prev]
		m.flags |= dead
		top.dropped = true
		mkey := int(m.off) - int(m.kdist)
		if m.kdist == 0 {
			mkey = int((&tree{text: b.text}).keyOff(m))
		}
		b.reps = append(b.reps, repeatedKey{key: key, path: b.path(escapeKey(key)), off: int(b.key),
			firstOff: mkey, blankFrom: mkey, blankTo: int(nodeEnd(b.nodes, b.text, m)), dropVal: int(m.off), keptVal: val})
	}
	if top.byKey != nil {
		top.byKey[key] = len(b.pending)
	} else if len(b.pending)-top.self > 16 {
		top.byKey = b.keyMap()
		for k := top.self + 1; k < len(b.pending); k++ {
			if b.pending[k].flags&dead == 0 {
				top.byKey[b.pkey(k)] = k
			}
		}
		top.byKey[key] = len(b.pending)
	}
}

// path is the dotted path of a member of the innermost open object whose
// escaped key is last.
func (b *builder) path(last string) string {
	var sb strings.Builder
	for f := 1; f < len(b.frames); f++ {
		self := b.frames[f].self
		if b.frames[f-1].object {
			sb.WriteString(escapeKey(b.pkey(self)))
		} else {
			sb.WriteString(strconv.Itoa(self - b.frames[f-1].self - 1))
		}
		sb.WriteByte('.')
	}
	sb.WriteString(last)
	return sb.String()
}

func (b *builder) leaf(off, end int, kind Kind, flags uint8) {
	b.add(jnode{off: uint32(off), first: uint32(end), k: uint8(kind), flags: flags})
}

func (b *builder) open(off int, kind Kind) {
	b.add(jnode{off: uint32(off), k: uint8(kind)})
	b.frames = append(b.frames, frame{self: len(b.pending) - 1, object: kind == Object})
	b.inObject = kind == Object
}

// close ends the innermost container: its live children move to
// nodes as one block.
func (b *builder) close() {
	f := &b.frames[len(b.frames)-1]
	c := &b.pending[f.self]
	c.first = uint32(len(b.nodes))
	if !f.dropped {
		b.nodes = append(b.nodes, b.pending[f.self+1:]...)
	} else {
		for _, k := range b.pending[f.self+1:] {
			if k.flags&dead == 0 {
				b.nodes = append(b.nodes, k)
			}
		}
	}
	c.n = uint32(len(b.nodes)) - c.first
	if f.byKey != nil && len(f.byKey) <= 1024 { // a huge one is not kept
		clear(f.byKey) // its keys view text
		b.maps = append(b.maps, f.byKey)
	}
	f.byKey = nil
	b.pending = b.pending[:f.self+1]
	b.frames = b.frames[:len(b.frames)-1]
	b.inObject = len(b.frames) > 0 && b.frames[len(b.frames)-1].object
}

// ws is skipWS for the walk, quick on the white space of pretty-printed
// JSON: a newline and the indentation after it.
func (b *builder) ws(i int) int {
	s := b.text
	for i < len(s) {
		switch c := s[i]; {
		case c > ' ':
			return i // a token: the common case, one comparison
		case c == '\n':
			i++
			// Pretty-printed exports indent every line: skip the spaces
			// eight at a time, then the rest of them at once, and return
			// at once at the token that follows them.
			for i+8 <= len(s) {
				if x := load8(s, i) ^ stopK[kSpaces]; x != 0 {
					if i += bits.TrailingZeros64(x) / 8; s[i] > ' ' {
						return i
					}
					break
				}
				i += 8
			}
		case c == ' ' || c == '\t' || c == '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

// scanString reads the string token at s[i] (a quote) and validates it;
// it returns the end (past the closing quote) and the escapes it holds:
// strEsc for any, with strU for a \u.
func scanString(s string, i int) (end int, esc uint8, ok bool) {
	for i++; i < len(s); i++ {
		// Skip eight plain bytes at a time (the walk's hottest loop).
		for i+8 <= len(s) {
			if m := stopMask(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				goto stop
			}
			i += 8
		}
		// The last bytes of the text, one at a time (a table's address
		// here cost a register in the walk at every stop).
		for i < len(s) && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\' {
			i++
		}
	stop:
		if i >= len(s) {
			break
		}
		switch s[i] {
		case '"':
			return i + 1, esc, true
		case '\\':
			esc |= strEsc
			i++
			if i >= len(s) {
				return i, esc, false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				esc |= strU
				for range 4 {
					i++
					if i >= len(s) || !isHex(s[i]) {
						return i, esc, false
					}
				}
			default:
				return i, esc, false
			}
		default: // a control character
			return i, esc, false
		}
	}
	return i, esc, false
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stopMask flags the bytes of x that a string scan stops at: below 0x20, a quote
// or a backslash (the bit tricks of "Bit Twiddling Hacks": hasless and
// haszero). Flipping bit 1 of every byte turns the quote (0x22) into
// 0x20 and keeps the bytes below 0x20 below it, while the bytes 0x20,
// 0x21 and 0x23 become 0x22, 0x23 and 0x21: one hasless(y, 0x21) finds
// both. It is 0 exactly when there is none, and its lowest flag is
// exact: a byte above a flagged one may be flagged wrongly (a borrow),
// one below never is.
func stopMask(x uint64) uint64 {
	// Both tests clear the flag of a byte whose high bit is set; y and bs
	// have x's high bits, so one &^ x does it for both.
	y := x ^ stopK[kFlip02]
	bs := x ^ stopK[kBackslashes]
	return ((y + stopK[kLess21]) | (bs + stopK[kLess01])) &^ x & stopK[kHighs]
}

// stopK holds stopMask's constants (the subtractions as additions of the
// two's complement), then ws's spaces. A variable, not constants: read
// from memory, they fold into the ADDQ, ANDQ and XORQ that use them, where
// each constant took a MOVQ of its own every word (the compiler
// rematerializes constants in the loop rather than keep them in registers
// inside run): ~25 → ~20 instructions a word of string text.
var stopK = [6]uint64{ones * 0x02, ones * '\\', ^uint64(ones*0x21) + 1, ^uint64(ones) + 1, highs, ones * ' '}

// stopK's places.
const (
	kFlip02      = iota // ones * 0x02: the XOR that swaps '"' with 0x20
	kBackslashes        // ones * '\\'
	kLess21             // subtracts 0x21 from each byte
	kLess01             // subtracts 0x01 from each byte
	kHighs              // the high bit of each byte
	kSpaces             // ones * ' ': ws's indentation
)

// load8 reads s[i:i+8] as a little-endian word: the compiler makes the
// eight byte loads one, and the slice is bounds-checked, so a word past
// the end panics instead of reading beyond s.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanNumber reads the number at s[i] by JSON's grammar.
func scanNumber(s string, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	if i >= len(s) || !isDigit(s[i]) {
		return i, false
	}
	if s[i] == '0' {
		i++
	} else {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return i, false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return i, false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	return i, true
}

// unescape decodes the text of a JSON string between its quotes (a lone
// surrogate becomes U+FFFD; bytes that are not UTF-8 stay).
func unescape(s string) string {
	// out is never longer than s: the string is the one allocation. o
	// never passes i, so a word stored at o while a word is read at i
	// stays inside out.
	out := make([]byte, len(s))
	o := 0
	for i := 0; i < len(s); i++ {
		// Copy the plain bytes up to the next escape: the text of a valid
		// string holds no quote or control byte unescaped, so a backslash
		// is the one byte to look for. Decoded strings are code and
		// prompts, an escape every line: the first two words are tested
		// here (a word that holds the backslash is stored whole, the bytes
		// from it on are written over), a longer run goes to memchr's
		// vector search, whose call costs as much as a few words.
		if i+16 <= len(s) {
			x := load8(s, i)
			store8(out, o, x)
			if z := hasBackslash(x); z != 0 {
				n := bits.TrailingZeros64(z) / 8
				i, o = i+n, o+n
				goto esc
			}
			x = load8(s, i+8)
			store8(out, o+8, x)
			if z := hasBackslash(x); z != 0 {
				n := 8 + bits.TrailingZeros64(z)/8
				i, o = i+n, o+n
				goto esc
			}
			i, o = i+16, o+16
		}
		{
			j := strings.IndexByte(s[i:], '\\')
			if j < 0 {
				j = len(s) - i
			}
			o += copy(out[o:], s[i:i+j])
			if i += j; i >= len(s) {
				break
			}
		}
	esc:
		i++
		if i >= len(s) {
			break
		}
		if c := unescaped[s[i]]; c != 0 {
			out[o] = c
			o++
			continue
		}
		if s[i] != 'u' || i+5 > len(s) {
			break
		}
		r := hex4(s[i+1:])
		i += 5
		if r >= 0xD800 && r < 0xDC00 && len(s[i:]) >= 6 && s[i] == '\\' && s[i+1] == 'u' {
			if r2 := hex4(s[i+2:]); r2 >= 0xDC00 && r2 < 0xE000 {
				r = utf16.DecodeRune(r, r2)
				i += 6
			}
		}
		o += len(utf8.AppendRune(out[o:o], r))
		i--
	}
	return view(out[:o])
}

// unescaped is the byte a one-letter escape stands for, by its letter (0
// for \u and what is no escape).
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hasBackslash flags the backslashes of x (haszero of x ^ '\\'s, as in
// stopMask: its lowest flag is exact).
func hasBackslash(x uint64) uint64 {
	m := x ^ ones*'\\'
	return (m - ones) &^ m & highs
}

// store8 writes x to b[i:i+8] little-endian (load8's inverse; one store).
func store8(b []byte, i int, x uint64) {
	b = b[i : i+8]
	b[0], b[1], b[2], b[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	b[4], b[5], b[6], b[7] = byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56)
}

// hex4 reads four hex digits (0 when one is not: strconv.ParseUint's
// answer to a syntax error).
func hex4(s string) rune {
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0
		}
		r = r<<4 | rune(c)
	}
	return r
}

// deepBracket is the offset of the first bracket that opens level
// MaxDepth+1 of b, or -1, counting brackets outside strings without validating:
// an invalid file nested too deep says so rather than where it breaks.
func deepBracket(b []byte) int {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = strEnd(b, i)
		case '{', '[':
			if depth == MaxDepth {
				return i
			}
			depth++
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return -1
}

// pathOf is the dotted path the tree spells for node i from its root:
// members by escaped key, elements by index. close moves a container's
// children to nodes when it ends, so a container's descendants are the
// nodes from where it opened to the end of its own children, its
// children's descendants in their order: the child that holds i is the
// first child container whose children end after i.
func (t *tree) pathOf(i uint32) string {
	var buf [96]byte
	p := buf[:0]
	for cur := uint32(0); cur != i; {
		n := &t.nodes[cur]
		k := i - n.first
		if i < n.first || k >= n.n {
			k = t.holder(n, i)
			if k >= n.n {
				break // not below the root: cannot happen
			}
		}
		if n.kind() == Array {
			p = appendIndex(p, int(k))
		} else {
			p = appendElem(p, escapeKey(t.keyOf(&t.nodes[n.first+k])))
		}
		cur = n.first + k
	}
	return string(p)
}

// holder is the child of container n whose descendants include node i
// (n.n when none does).
func (t *tree) holder(n *jnode, i uint32) uint32 {
	// ends reports whether the last child container at or before child
	// k ends after i: false up to the holder, true from it on.
	endsAfter := func(k uint32) bool {
		for {
			c := &t.nodes[n.first+k]
			if c.container() && c.n > 0 {
				return c.first+c.n > i
			}
			if k == 0 {
				return false
			}
			k--
		}
	}
	lo, hi := uint32(0), n.n
	for lo < hi {
		mid := lo + (hi-lo)/2
		if endsAfter(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
