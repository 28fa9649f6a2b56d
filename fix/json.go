package fix

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// The JSON edits below work on the source bytes, not on a re-encoded
// document: they find a member by scanning the object it belongs to, and
// write new members in the style of their neighbours, so that everything
// else in the file keeps its bytes.

var errShape = errors.New("the JSON does not have the expected shape")

// member is one member of an object (or, with key "", one element of an
// array): offsets of the key's opening quote and of the value's first and
// past-the-last bytes.
type member struct {
	key              string
	keyStart         int
	valStart, valEnd int
	hasKey           bool
}

// container is an object or array of a source.
type container struct {
	src     []byte
	open    int // offset of '{' or '['
	close   int // offset of '}' or ']'
	array   bool
	members []member
}

func ws(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func skipWS(src []byte, i int) int {
	for i < len(src) && ws(src[i]) {
		i++
	}
	return i
}

// stringEnd returns the offset past the closing quote of the string that
// opens at i.
func stringEnd(src []byte, i int) (int, error) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errShape
}

// valueEnd returns the offset past the value that starts at i.
func valueEnd(src []byte, i int) (int, error) {
	if i >= len(src) {
		return 0, errShape
	}
	switch src[i] {
	case '"':
		return stringEnd(src, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(src); j++ {
			switch src[j] {
			case '"':
				e, err := stringEnd(src, j)
				if err != nil {
					return 0, err
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errShape
	}
	j := i
	for j < len(src) && !ws(src[j]) && src[j] != ',' && src[j] != '}' && src[j] != ']' {
		j++
	}
	if j == i {
		return 0, errShape
	}
	return j, nil
}

// scan reads the object or array that opens at off.
func scan(src []byte, off int) (*container, error) {
	if off < 0 || off >= len(src) || (src[off] != '{' && src[off] != '[') {
		return nil, errShape
	}
	c := &container{src: src, open: off, array: src[off] == '['}
	closer := byte('}')
	if c.array {
		closer = ']'
	}
	i := skipWS(src, off+1)
	if i < len(src) && src[i] == closer {
		c.close = i
		return c, nil
	}
	for {
		var m member
		if !c.array {
			if i >= len(src) || src[i] != '"' {
				return nil, errShape
			}
			e, err := stringEnd(src, i)
			if err != nil {
				return nil, err
			}
			m.keyStart, m.hasKey = i, true
			if bytes.IndexByte(src[i+1:e-1], '\\') < 0 {
				m.key = string(src[i+1 : e-1])
			} else if err := json.Unmarshal(src[i:e], &m.key); err != nil {
				return nil, errShape
			}
			i = skipWS(src, e)
			if i >= len(src) || src[i] != ':' {
				return nil, errShape
			}
			i = skipWS(src, i+1)
		}
		m.valStart = i
		e, err := valueEnd(src, i)
		if err != nil {
			return nil, err
		}
		m.valEnd = e
		c.members = append(c.members, m)
		i = skipWS(src, e)
		if i >= len(src) {
			return nil, errShape
		}
		if src[i] == closer {
			c.close = i
			return c, nil
		}
		if src[i] != ',' {
			return nil, errShape
		}
		i = skipWS(src, i+1)
	}
}

// get returns the member of an object with that key; ok is false when it
// is missing, and an error when the key is repeated (parsers disagree on
// which one counts, JSON.parse keeps the last: no edit can be sure).
func (c *container) get(key string) (member, bool, error) {
	var found member
	n := 0
	for _, m := range c.members {
		if m.key == key {
			found = m
			n++
		}
	}
	if n > 1 {
		return member{}, false, errors.New("the key " + strconv.Quote(key) + " is repeated")
	}
	return found, n == 1, nil
}

// style is how a container lays out its members.
type style struct {
	pretty bool
	nl     string // "\n" or "\r\n"
	indent string // the members' indentation (pretty)
	unit   string // one level of indentation (pretty)
	sep    string // between key and value: ":" or ": "
	comma  string // after a comma between members (compact): "" or " "
}

// lineIndent returns the leading whitespace of the line holding offset i.
func lineIndent(src []byte, i int) string {
	s := i
	for s > 0 && src[s-1] != '\n' {
		s--
	}
	e := s
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	return string(src[s:e])
}

// newline is the file's line ending: CRLF when its first line ends so.
func newline(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// styleOf reads a container's style; parent is the style of the container
// around it, used when this one is empty and shows none of its own.
func (c *container) styleOf(parent style) style {
	st := style{nl: newline(c.src), sep: parent.sep, unit: parent.unit}
	if st.sep == "" {
		st.sep = ": "
	}
	if st.unit == "" {
		st.unit = "  "
	}
	open := lineIndent(c.src, c.open)
	if len(c.members) == 0 {
		inner := string(c.src[c.open+1 : c.close])
		st.pretty = strings.Contains(inner, "\n") || parent.pretty
		st.indent = open + st.unit
		if !st.pretty {
			st.comma = parent.comma
		}
		return st
	}
	first := c.members[0]
	before := string(c.src[c.open+1 : c.members[0].keyStartOrVal()])
	if i := strings.LastIndexByte(before, '\n'); i >= 0 {
		st.pretty = true
		st.indent = before[i+1:]
		if u, ok := strings.CutPrefix(st.indent, open); ok {
			st.unit = u // "" in a file that indents nothing
		}
	}
	if first.hasKey {
		if e, err := stringEnd(c.src, first.keyStart); err == nil {
			st.sep = string(c.src[e:first.valStart])
		}
	}
	if strings.ContainsAny(st.sep, "\r\n") {
		st.sep = ": "
	}
	if !st.pretty {
		// Compact: after a comma as between the first two members, else
		// spaced like the key separator ({"a": 1} → {"b": 2, "a": 1}).
		st.comma = strings.TrimPrefix(st.sep, ":")
		if len(c.members) > 1 {
			gap := c.src[first.valEnd:c.members[1].keyStartOrVal()]
			if i := bytes.IndexByte(gap, ','); i >= 0 {
				st.comma = string(gap[i+1:])
			}
		}
	}
	return st
}

func (m member) keyStartOrVal() int {
	if m.hasKey {
		return m.keyStart
	}
	return m.valStart
}

// Values to write: a raw JSON literal, an object with ordered members, or
// an array.
type (
	raw    string
	object []field
	array  []any
)

type field struct {
	key string
	val any
}

// quote writes a JSON string as JSON.stringify does (no HTML escaping).
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// render writes v in style st, nested at st.indent.
func render(v any, st style) string {
	var b strings.Builder
	renderTo(&b, v, st)
	return b.String()
}

func renderTo(b *strings.Builder, v any, st style) {
	inner := st
	inner.indent = st.indent + st.unit
	open := func(c string) {
		b.WriteString(c)
	}
	between := func(first bool) {
		if !first {
			b.WriteString(",")
			if !st.pretty {
				b.WriteString(st.comma)
			}
		}
		if st.pretty {
			b.WriteString(st.nl + inner.indent)
		}
	}
	closeWith := func(c string, n int) {
		if st.pretty && n > 0 {
			b.WriteString(st.nl + st.indent)
		}
		b.WriteString(c)
	}
	switch x := v.(type) {
	case raw:
		b.WriteString(string(x))
	case object:
		open("{")
		for i, f := range x {
			between(i == 0)
			b.WriteString(quote(f.key) + st.sep)
			renderTo(b, f.val, inner)
		}
		closeWith("}", len(x))
	case array:
		open("[")
		for i, e := range x {
			between(i == 0)
			renderTo(b, e, inner)
		}
		closeWith("]", len(x))
	}
}

// edit is a byte edit of one source (package analyze's Edit without it).
type edit struct {
	off, n int
	text   string
}

// insert adds a member (or an array element, key "") to a container, in
// its style: before the first member, so that no other line changes, or
// inside an empty container.
func (c *container) insert(key string, v any, parent style) edit {
	return c.insertFields([]field{{key, v}}, parent)
}

// insertFields adds several members (or elements) in one edit.
func (c *container) insertFields(fs []field, parent style) edit {
	st := c.styleOf(parent)
	var parts []string
	for _, f := range fs {
		text := render(f.val, st)
		if !c.array {
			text = quote(f.key) + st.sep + text
		}
		parts = append(parts, text)
	}
	next := ","
	if st.pretty {
		next += st.nl + st.indent
	} else {
		next += st.comma
	}
	text := strings.Join(parts, next)
	if len(c.members) == 0 {
		if st.pretty {
			return edit{off: c.open + 1, n: c.close - c.open - 1,
				text: st.nl + st.indent + text + st.nl + lineIndent(c.src, c.open)}
		}
		return edit{off: c.open + 1, n: c.close - c.open - 1, text: text}
	}
	// The new members take the first lines; the old first member moves
	// down with the same indentation.
	return edit{off: c.members[0].keyStartOrVal(), text: text + next}
}

// set makes path (keys below the object at off) hold v: it replaces an
// existing scalar, or inserts the missing members. It fails when a member
// on the way is not an object or a key is repeated.
func set(src []byte, off int, path []string, v any, parent style) (edit, error) {
	return change(src, off, path, v, parent, func(m member, st style) (edit, error) {
		if src[m.valStart] == '{' || src[m.valStart] == '[' {
			return edit{}, errShape // only scalars are replaced
		}
		return edit{off: m.valStart, n: m.valEnd - m.valStart, text: render(v, st)}, nil
	})
}

// appendElem adds an element to the array at path below the object at off,
// creating the members on the way.
func appendElem(src []byte, off int, path []string, elem any, parent style) (edit, error) {
	return change(src, off, path, array{elem}, parent, func(m member, st style) (edit, error) {
		a, err := scan(src, m.valStart)
		if err != nil || !a.array {
			return edit{}, errShape
		}
		return a.insert("", elem, st), nil
	})
}

// change walks path (keys below the object at off). Where a member is
// missing, it and the objects below it are inserted around missing; the
// last member, when it exists, is edited by leaf in the style of its object.
func change(src []byte, off int, path []string, missing any, parent style, leaf func(m member, st style) (edit, error)) (edit, error) {
	c, err := scan(src, off)
	if err != nil || c.array {
		return edit{}, errShape
	}
	m, ok, err := c.get(path[0])
	if err != nil {
		return edit{}, err
	}
	st := c.styleOf(parent)
	if !ok {
		val := missing
		for i := len(path) - 1; i >= 1; i-- {
			val = object{{path[i], val}}
		}
		return c.insert(path[0], val, parent), nil
	}
	if len(path) == 1 {
		return leaf(m, st)
	}
	if src[m.valStart] != '{' {
		return edit{}, errShape
	}
	return change(src, m.valStart, path[1:], missing, st, leaf)
}
