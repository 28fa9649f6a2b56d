package n8nschema

import (
	"iter"
	"strconv"
	"strings"
)

// Kind is the JSON type of a Value.
type Kind int

const (
	Missing Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// Value is one JSON value of a workflow with its place in the source. Rules
// read parameters only through Values, so position arithmetic lives here.
type Value struct {
	t *tree  // nil when the value is missing
	i uint32 // index in t.nodes
	// The dotted path is made only when asked for (Path, Pos): most values
	// are read and dropped, and joining a path for every member and
	// element read was a large share of the allocations of an audit.
	form pathForm
	// odd is set when the path is not the one the tree spells for the
	// value (a Get path with an escape or a leading zero): the paths of
	// its children are then joined to it, not read off the tree.
	odd  bool
	path string
	elem string
}

// pathForm says how a Value's path is kept.
type pathForm uint8

const (
	pathAsIs   pathForm = iota // path is the whole path
	pathJoined                 // path is the parent's path, elem the last element
	pathOfTree                 // the path the tree spells for node i (tree.pathOf)
)

func (v Value) node() *jnode { return &v.t.nodes[v.i] }

// fullPath is the dotted path of the value from the root of its source.
func (v Value) fullPath() string {
	switch v.form {
	case pathJoined:
		return joinPath(v.path, v.elem)
	case pathOfTree:
		return v.t.pathOf(v.i)
	}
	return v.path
}

// sub is node c of v's tree, a member or element of v (or below it) whose
// path is v's followed by elem: read off the tree when v's path is the
// tree's, else joined to v's.
func (v Value) sub(c uint32, elem string) Value {
	if !v.odd {
		return Value{t: v.t, i: c, form: pathOfTree}
	}
	return Value{t: v.t, i: c, form: pathJoined, odd: true, path: v.fullPath(), elem: elem}
}

// missing is a value that is not there, at elem below parent.
func missing(parent, elem string) Value {
	return Value{path: parent, elem: elem, form: pathJoined}
}

// Exists reports whether the value is present (null counts as present).
func (v Value) Exists() bool { return v.t != nil }

// Kind returns the JSON type.
func (v Value) Kind() Kind {
	if v.t == nil {
		return Missing
	}
	return v.node().kind()
}

// Str returns a string value as is, and other scalars in their JSON text.
// A parameter that is an expression with no {{ }} ("=responseNode") is
// what n8n evaluates it to: its text after the "=".
func (v Value) Str() string {
	// A string with no escape that n8n does not read as a literal (most
	// strings read) is its text between the quotes, read where Str is
	// inlined: the call copied the Value.
	t := v.t
	if t == nil {
		return ""
	}
	if n := &t.nodes[v.i]; n.k == uint8(String) && n.flags&(literal|strEsc) == 0 {
		return t.text[n.off+1 : n.first-1]
	}
	return t.scalarStr(v.i)
}

// scalarStr is Str of node i but for its inlined case.
func (t *tree) scalarStr(i uint32) string {
	n := &t.nodes[i]
	switch n.kind() {
	case String:
		if n.flags&literal != 0 {
			if n.flags&strEsc == 0 {
				return t.text[n.off+2 : n.first-1]
			}
			return t.str(n)[1:]
		}
		return t.str(n)
	case Number:
		return numberText(t.text[n.off:n.first])
	case Bool:
		return t.text[n.off:n.first]
	}
	return ""
}

// escaped reports whether v is a string with an escape, which Str
// unescapes into a new string.
func (v Value) escaped() bool {
	return v.Kind() == String && v.node().flags&strEsc != 0
}

// UnicodeEscaped reports whether v is a string whose JSON text (Raw)
// holds a \u escape. Without one, every letter, digit and punctuation
// mark of Str is spelled as itself in Raw (the other escapes stand for a
// quote, a backslash, a slash or a control character), so a word not in
// Raw is not in Str either: a test that needs no unescaping.
func (v Value) UnicodeEscaped() bool {
	return v.Kind() == String && v.node().flags&strU != 0
}

// numberText is a number's text as Str gives it: an integer as written,
// anything else (1.50, 1e3) formatted back from its float.
func numberText(raw string) string {
	i := 0
	if raw[0] == '-' {
		i++
	}
	for ; i < len(raw); i++ {
		if !isDigit(raw[i]) {
			f, _ := strconv.ParseFloat(raw, 64)
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	return raw
}

// Raw returns the JSON text of the value.
func (v Value) Raw() string {
	if v.t == nil {
		return ""
	}
	n := v.node()
	return v.t.text[n.off:v.t.endOf(n)]
}

// True reports whether the value is the JSON literal true.
func (v Value) True() bool {
	if v.t == nil {
		return false
	}
	n := v.node()
	return n.kind() == Bool && v.t.text[n.off] == 't'
}

// Num returns a number, or a string holding a plain number; ok is false
// otherwise (expressions included).
func (v Value) Num() (float64, bool) {
	switch v.Kind() {
	case Number:
		n := v.node()
		raw := v.t.text[n.off:n.first]
		if f, ok := exactFloat(raw); ok {
			return f, true
		}
		// Like JSON.parse, a number out of float64's range is ±Inf.
		f, _ := strconv.ParseFloat(raw, 64)
		return f, true
	case String:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.Str()), 64)
		return f, err == nil
	}
	return 0, false
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat reads a JSON number of at most 15 digits and no exponent
// (typeVersion 4.2, index 0: nearly every number of a workflow) without
// ParseFloat: its digits and its power of ten are exact float64s, and
// one division rounds once, so the result is ParseFloat's. ok is false
// for anything else.
func exactFloat(raw string) (float64, bool) {
	i, neg := 0, false
	if raw != "" && raw[0] == '-' {
		i, neg = 1, true
	}
	var m uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(raw); i++ {
		c := raw[i]
		switch {
		case isDigit(c):
			m = m*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	f := float64(m) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// IsExpr reports whether the value is an n8n expression (a string that
// starts with "="; see docs/n8n-behaviour.md#expressions-and-resource-locators)
// whose value depends on data: a parameter expression with no {{ }} is
// its literal text (Str), not an expression.
func (v Value) IsExpr() bool {
	if v.Kind() != String {
		return false
	}
	return v.t.isExpr(v.node())
}

// isExpr is IsExpr of string node n.
func (t *tree) isExpr(n *jnode) bool {
	if n.flags&literal != 0 {
		return false
	}
	if n.flags&strEsc == 0 {
		return t.text[n.off+1] == '='
	}
	// An escaped string starts with "=" as itself or as \u003d, the one
	// escape that spells it: no need to unescape the rest (a Code
	// node's text, a note) to know.
	raw := t.text[n.off+1 : n.first-1]
	return raw[0] == '=' || len(raw) >= 6 && raw[:5] == `\u003` && (raw[5] == 'd' || raw[5] == 'D')
}

// Get returns a value below this one by dotted path ("options.maxRetries",
// "rules.values.0.name", `a\.b` for the key "a.b"): keys and array
// indexes separated by dots, with a backslash before a dot or other
// special character in a key. There are no queries or wildcards.
func (v Value) Get(path string) Value {
	if k := v.Kind(); k != Object && k != Array {
		return missing(v.fullPath(), path)
	}
	i, spelled, ok := v.t.lookup(v.i, path)
	if ok && spelled && !v.odd && v.form != pathAsIs {
		return Value{t: v.t, i: i, form: pathOfTree}
	}
	// A node's parameters hold their path as is (Param's every Get):
	// read here, not through fullPath's call.
	parent := v.path
	if v.form != pathAsIs {
		parent = v.fullPath()
	}
	if !ok {
		return missing(parent, path)
	}
	// Below a path at hand, joining later costs no more than the tree's
	// spelling, and a Get path spelled otherwise must print as given.
	return Value{t: v.t, i: i, form: pathJoined, odd: v.odd || !spelled, path: parent, elem: path}
}

// lookup follows path down from node i; spelled is false when path names
// the value otherwise than the tree spells its path (pathOf): an escaped
// or special byte in a key, a leading zero in an index.
func (t *tree) lookup(i uint32, path string) (_ uint32, spelled, ok bool) {
	// A key with an escape is not spelled as the tree spells it:
	// objectPart says so (an escape in an index finds nothing).
	spelled = true
	for {
		n := &t.nodes[i]
		var part string
		more := false
		switch n.kind() {
		case Object:
			// A plain key up to a dot or the end (nearly every path) is
			// cut here; objectPart reads the others.
			j := 0
			for j < len(path) && !pathSpecial[path[j]] {
				j++
			}
			if j == len(path) {
				part, path = path, ""
			} else if path[j] == '.' {
				part, path, more = path[:j], path[j+1:], true
			} else {
				var special bool
				part, path, more, special = objectPart(path)
				spelled = spelled && !special
			}
			k, ok := t.member(n, part)
			if !ok {
				return 0, false, false
			}
			i = k
		case Array:
			part, path, more = strings.Cut(path, ".")
			k, ok := arrayIndex(part)
			if !ok || k >= uint64(n.n) {
				return 0, false, false
			}
			if len(part) > 1 && part[0] == '0' {
				spelled = false
			}
			i = n.first + uint32(k)
		default:
			return 0, false, false
		}
		if !more {
			return i, spelled, true
		}
	}
}

// hasPathSpecial reports whether escapeKey would escape a byte of key.
func hasPathSpecial(key string) bool {
	for i := 0; i < len(key); i++ {
		if pathSpecial[key[i]] {
			return true
		}
	}
	return false
}

// member finds the member of object n whose key is key.
func (t *tree) member(n *jnode, key string) (uint32, bool) {
	text, kids := t.text, t.children(n)
	for k := range kids {
		c := &kids[k]
		if c.flags&keyEsc != 0 || c.kdist == 0 {
			return t.memberFrom(n, uint32(k), key) // rare: kept out of this loop
		}
		// An unescaped key holds no quote: the text after its opening
		// quote is key and a quote exactly when the key is key.
		from := int(c.off-uint32(c.kdist)) + 1
		if to := from + len(key); to < len(text) && text[to] == '"' && text[from:to] == key {
			return n.first + uint32(k), true
		}
	}
	return 0, false
}

// memberFrom is member from child k on, any key: escaped, or too far
// from its value for kdist.
func (t *tree) memberFrom(n *jnode, k uint32, key string) (uint32, bool) {
	for ; k < n.n; k++ {
		c := &t.nodes[n.first+k]
		if c.flags&keyEsc != 0 {
			if t.escKeys[t.keyOff(c)] == key {
				return n.first + k, true
			}
			continue
		}
		s := t.text[t.keyOff(c)+1:]
		if len(s) > len(key) && s[len(key)] == '"' && s[:len(key)] == key {
			return n.first + k, true
		}
	}
	return 0, false
}

// objectPart cuts the first key off a dotted path, unescaping it; more is
// false when it was the last; special is true when the key as given holds
// a byte escapeKey would escape (hasPathSpecial), or an escape.
func objectPart(path string) (part, rest string, more, special bool) {
	// One pass over the key, which is short: strings.IndexAny built a
	// byte set or searched its set once per byte, a third of the cost of
	// a Get.
	i := 0
	for ; i < len(path); i++ {
		if c := path[i]; pathSpecial[c] {
			if c == '.' {
				return path[:i], path[i+1:], true, special
			}
			if c == '\\' {
				break
			}
			special = true
		}
	}
	if i == len(path) {
		return path, "", false, special
	}
	b := []byte(path[:i])
	for ; i < len(path); i++ {
		switch path[i] {
		case '\\':
			i++
			if i < len(path) {
				b = append(b, path[i])
			}
		case '.':
			return string(b), path[i+1:], true, true
		default:
			b = append(b, path[i])
		}
	}
	return string(b), "", false, true
}

// arrayIndex reads an array index of a dotted path: digits only.
func arrayIndex(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		next := n*10 + uint64(s[i]-'0')
		if next < n {
			return 0, false
		}
		n = next
	}
	return n, true
}

// getMany sets out[i] to v.Get(keys[i]) for plain keys (no dotted path
// syntax), reading the object's members once.
func (v Value) getMany(keys []string, out []Value) {
	if v.Kind() != Object {
		for i, k := range keys {
			out[i] = v.Get(k)
		}
		return
	}
	clear(out)
	n := v.node()
	for k := n.first; k < n.first+n.n; k++ {
		key := v.t.keyOf(&v.t.nodes[k])
		for i, want := range keys {
			if key == want && !out[i].Exists() {
				out[i] = v.member(k, want)
			}
		}
	}
	parent, joined := "", false
	for i, k := range keys {
		if !out[i].Exists() {
			if !joined {
				parent, joined = v.fullPath(), true
			}
			out[i] = missing(parent, k)
		}
	}
}

// field is Get(key) of a plain key (no dotted path syntax), and whether
// the object v holds it. It makes no path for a key v lacks, which Get
// joins for a message that names it: most readers only ask what is there.
func (v Value) field(key string) (Value, bool) {
	if v.Kind() != Object {
		return Value{}, false
	}
	k, ok := v.t.member(v.node(), key)
	if !ok {
		return Value{}, false
	}
	return v.member(k, key), true
}

// member is node c of v's tree, v's member of that key, with the path
// Get(key) gives it.
func (v Value) member(c uint32, key string) Value {
	spelled := !hasPathSpecial(key)
	if spelled && !v.odd && v.form != pathAsIs {
		return Value{t: v.t, i: c, form: pathOfTree}
	}
	return Value{t: v.t, i: c, form: pathJoined, odd: v.odd || !spelled, path: v.fullPath(), elem: key}
}

// Elems returns the elements of an array (nil for anything else).
func (v Value) Elems() []Value {
	if v.Kind() != Array {
		return nil
	}
	n := v.node()
	if n.n == 0 {
		return nil
	}
	out := make([]Value, n.n)
	for k := range n.n {
		out[k] = v.elemAt(n, k)
	}
	return out
}

// ElemsSeq yields the elements of an array as Elems lists them, with their
// indexes, without building the slice (nothing for anything else).
func (v Value) ElemsSeq() iter.Seq2[int, Value] {
	return func(yield func(int, Value) bool) {
		v.eachElem(yield)
	}
}

// Len is len(v.Elems()) without building them: the number of elements
// of an array, 0 for anything else.
func (v Value) Len() int {
	if v.Kind() != Array {
		return 0
	}
	return int(v.node().n)
}

// eachElem calls fn for every element of an array in order, as Elems
// would list them, without building the slice; fn returns false to stop.
func (v Value) eachElem(fn func(i int, e Value) bool) {
	if v.Kind() != Array {
		return
	}
	n := v.node()
	for k := range n.n {
		if !fn(int(k), v.elemAt(n, k)) {
			return
		}
	}
}

// elemAt is element k of array v (whose node is n).
func (v Value) elemAt(n *jnode, k uint32) Value {
	if !v.odd {
		return Value{t: v.t, i: n.first + k, form: pathOfTree}
	}
	return v.sub(n.first+k, strconv.Itoa(int(k)))
}

// Each calls fn for every member of an object in source order.
func (v Value) Each(fn func(key string, val Value) bool) {
	if v.Kind() != Object {
		return
	}
	n := v.node()
	for k := n.first; k < n.first+n.n; k++ {
		key := v.t.keyOf(&v.t.nodes[k])
		if !fn(key, v.memberAt(k, key)) {
			return
		}
	}
}

// memberAt is v's member k (a node index) of that key, as Each gives it.
func (v Value) memberAt(k uint32, key string) Value {
	if v.odd {
		return v.sub(k, escapeKey(key))
	}
	return Value{t: v.t, i: k, form: pathOfTree}
}

// Walk calls fn for every scalar below v (depth first, source order), with
// its path relative to v. Rules use it to search free-form parameters.
func (v Value) Walk(fn func(rel string, val Value)) {
	v.walk("", fn)
}

func (v Value) walk(rel string, fn func(string, Value)) {
	switch v.Kind() {
	case Object, Array:
	case Missing:
		return
	default:
		fn(rel, v)
		return
	}
	n := v.node()
	// The path elements, read once (a key is found by scanning back from
	// its value).
	var buf [16]string
	elems := buf[:0]
	if n.n > uint32(len(buf)) {
		elems = make([]string, 0, n.n)
	}
	size := 0
	for k := range n.n {
		e := childElem(v.t, n, k)
		elems = append(elems, e)
		size += len(rel) + 1 + len(e)
	}
	if rel == "" {
		for k, e := range elems {
			v.sub(n.first+uint32(k), e).walk(e, fn)
		}
		return
	}
	// The children's relative paths are made as one string: one
	// allocation per container, not one per member.
	var b strings.Builder
	b.Grow(size)
	for _, e := range elems {
		b.WriteString(rel)
		b.WriteByte('.')
		b.WriteString(e)
	}
	rels, start := b.String(), 0
	for k, e := range elems {
		end := start + len(rel) + 1 + len(e)
		v.sub(n.first+uint32(k), e).walk(rels[start:end], fn)
		start = end
	}
}

// Scalars calls fn for every scalar below v, depth first in source order,
// as Walk does but without building the relative paths; it stops when fn
// returns false. Searches that ignore the path use it.
func (v Value) Scalars(fn func(Value) bool) {
	v.scalars(fn)
}

// ExprsWith calls fn, depth first in source order, for each expression
// string below v (IsExpr) whose text may hold the byte b: one whose JSON
// text holds b, or that holds a \u escape (which may spell b). b must be
// a byte no other JSON escape spells (not '"', '\\', '/' or a control
// byte). It stops when fn returns false. It is Scalars with that filter,
// without a call for each scalar: a container's descendants are one run
// of the tree's nodes (tree.descendants), read in a loop, and the few
// strings found are put in source order.
func (v Value) ExprsWith(b byte, fn func(Value) bool) {
	if v.t == nil {
		return
	}
	t := v.t
	n := v.node()
	if v.odd || !n.container() {
		v.exprsWith(b, fn)
		return
	}
	if n.n == 0 {
		return
	}
	lo, hi := t.descendants(n)
	// The strings found, in source order (by offset); past the array's
	// room, the walk.
	var found [16]uint32
	k := 0
	for j := lo; j < hi; j++ {
		c := &t.nodes[j]
		if c.kind() != String || !t.isExpr(c) || c.flags&strU == 0 && strings.IndexByte(t.text[c.off+1:c.first-1], b) < 0 {
			continue
		}
		if k == len(found) {
			v.exprsWith(b, fn)
			return
		}
		at := k
		for at > 0 && t.nodes[found[at-1]].off > c.off {
			found[at] = found[at-1]
			at--
		}
		found[at] = j
		k++
	}
	for _, j := range found[:k] {
		if !fn(Value{t: t, i: j, form: pathOfTree}) {
			return
		}
	}
}

// exprsWith is ExprsWith by the walk, for an odd v, one that is no
// container, or one that holds many such strings.
func (v Value) exprsWith(b byte, fn func(Value) bool) {
	v.scalars(func(c Value) bool {
		if !c.IsExpr() {
			return true
		}
		if n := c.node(); n.flags&strU == 0 && strings.IndexByte(c.t.text[n.off+1:n.first-1], b) < 0 {
			return true
		}
		return fn(c)
	})
}

func (v Value) scalars(fn func(Value) bool) bool {
	switch v.Kind() {
	case Object, Array:
		n := v.node()
		for k := range n.n {
			var c Value
			if v.odd {
				c = v.sub(n.first+k, childElem(v.t, n, k))
			} else {
				c = Value{t: v.t, i: n.first + k, form: pathOfTree}
			}
			if !c.scalars(fn) {
				return false
			}
		}
		return true
	case Missing:
		return true
	default:
		return fn(v)
	}
}

// childElem is the path element of child k of container n: its index or
// its escaped key.
func childElem(t *tree, n *jnode, k uint32) string {
	if n.kind() == Array {
		return strconv.Itoa(int(k))
	}
	return escapeKey(t.keyOf(&t.nodes[n.first+k]))
}

// Path is the dotted path of the value from the root of its source.
func (v Value) Path() string { return v.fullPath() }

// Pos is where the value stands: the key of an object member, else the value.
func (v Value) Pos() Pos {
	if v.t == nil {
		return Pos{Path: v.fullPath()}
	}
	return v.posAs(v.fullPath())
}

// posAs is Pos of an existing value whose full path the caller has joined.
func (v Value) posAs(path string) Pos {
	n := v.node()
	off := n.off
	if n.flags&member != 0 {
		off = v.t.keyOff(n)
	}
	return v.t.src.PosAt(v.t.base+int(off), path)
}

// withPath is v with its full path given: the parser joins the paths of
// nodes and connections itself, once each, instead of a join per level.
func (v Value) withPath(path string) Value {
	return Value{t: v.t, i: v.i, odd: v.odd, path: path}
}

// len is the number of members or elements of a container (0 for a
// scalar or a missing value).
func (v Value) len() int {
	if k := v.Kind(); k != Object && k != Array {
		return 0
	}
	return int(v.node().n)
}

// at is child k (0-based) of container v, without a path: the caller
// gives it one (withPath) before anything reads its path.
func (v Value) at(k int) Value {
	return Value{t: v.t, i: v.node().first + uint32(k), odd: v.odd}
}

// keyAt is the unescaped key of member k of object v.
func (v Value) keyAt(k int) string {
	return v.t.keyOf(&v.t.nodes[v.node().first+uint32(k)])
}

// Span is the byte range of the value's JSON text in its source; 0, 0
// when the value does not exist.
func (v Value) Span() (start, end int) {
	if v.t == nil {
		return 0, 0
	}
	n := v.node()
	return v.t.base + int(n.off), v.t.base + int(v.t.endOf(n))
}

// Offset is the byte offset in its source where the value starts, without
// the line and column arithmetic of ValuePos; -1 when it is not known.
func (v Value) Offset() int {
	if v.t == nil {
		return -1
	}
	return v.t.base + int(v.node().off)
}

// ValuePos is where the value itself starts (after its key).
func (v Value) ValuePos() Pos {
	if v.t == nil {
		return Pos{Path: v.fullPath()}
	}
	return v.t.src.PosAt(v.t.base+int(v.node().off), v.fullPath())
}

// StringMember is a string-valued member of an object, found by
// StringMembers.
type StringMember struct {
	Key    string // the member name, unescaped
	Str    string // the string, unescaped
	Offset int    // source offset of the string's opening quote
	RawLen int    // length of the string's JSON text, quotes included
	// Name is the first "name" member of the same object when that is a
	// string (NameIsString), as obj.Get("name") finds it.
	Name         string
	NameIsString bool
}

// StringMembers calls fn for every string-valued object member below v
// (strings that are array elements are not members), in source order. It
// reports whether it read every member: always, now that the parser keeps
// only the last member of a repeated key (it returned false, having
// called fn for none, when it read the text and an object repeated a key).
func (v Value) StringMembers(fn func(StringMember)) bool {
	return v.StringMembersOf(nil, fn)
}

// StringMembersOf is StringMembers for the members whose key keep accepts
// (all when keep is nil): the others are skipped without unescaping.
func (v Value) StringMembersOf(keep func(key string) bool, fn func(StringMember)) bool {
	if v.Kind() == Object {
		v.t.stringMembers(v.i, keep, fn)
	}
	return true
}

func (t *tree) stringMembers(i uint32, keep func(string) bool, fn func(StringMember)) {
	n := &t.nodes[i]
	kids := t.children(n)
	if n.kind() == Array {
		for k := range kids {
			if c := kids[k].kind(); c == Object || c == Array {
				t.stringMembers(n.first+uint32(k), keep, fn)
			}
		}
		return
	}
	name, nameIsString := "", false
	if k, ok := t.member(n, "name"); ok && t.nodes[k].kind() == String {
		name, nameIsString = t.str(&t.nodes[k]), true
	}
	for k := range kids {
		c := &kids[k]
		switch c.kind() {
		case Object, Array:
			t.stringMembers(n.first+uint32(k), keep, fn)
		case String:
			key := t.keyOf(c)
			if keep == nil || keep(key) {
				fn(StringMember{Key: key, Str: t.str(c), Offset: t.base + int(c.off), RawLen: int(c.first - c.off),
					Name: name, NameIsString: nameIsString})
			}
		}
	}
}

// StringMembersIn is StringMembersOf for the members whose string's JSON
// text meets [from, to) (source offsets): it enters only the containers
// whose text may meet the range, so a few members of a large value cost
// about its depth times a binary search of each level.
func (v Value) StringMembersIn(from, to int, keep func(key string) bool, fn func(StringMember)) {
	if v.Kind() != Object {
		return
	}
	// The range in the tree's own offsets, clamped to its text.
	lo, hi := from-v.t.base, to-v.t.base
	if hi <= 0 || lo >= len(v.t.text) || lo >= hi {
		return
	}
	v.t.stringMembersIn(v.i, uint32(max(lo, 0)), uint32(min(hi, len(v.t.text))), keep, fn)
}

// stringMembersIn is stringMembers for the children of node i whose text
// may meet [lo, hi). Child k's text ends before child k+1's starts, so the
// children before the first one whose successor starts after lo are
// skipped by a binary search; the walk stops at the first child that
// starts at or after hi.
func (t *tree) stringMembersIn(i uint32, lo, hi uint32, keep func(string) bool, fn func(StringMember)) {
	n := &t.nodes[i]
	kids := t.children(n)
	// first is the least k with k == len(kids)-1 or kids[k+1].off > lo.
	first, last := 0, len(kids)-1
	for first < last {
		m := int(uint(first+last) >> 1)
		if kids[m+1].off > lo {
			last = m
		} else {
			first = m + 1
		}
	}
	isObject := n.kind() == Object
	name, nameIsString, named := "", false, false
	for k := first; k < len(kids) && kids[k].off < hi; k++ {
		c := &kids[k]
		switch c.kind() {
		case Object, Array:
			t.stringMembersIn(n.first+uint32(k), lo, hi, keep, fn)
		case String:
			if !isObject || c.first <= lo {
				continue
			}
			key := t.keyOf(c)
			if keep != nil && !keep(key) {
				continue
			}
			if !named {
				named = true
				if j, ok := t.member(n, "name"); ok && t.nodes[j].kind() == String {
					name, nameIsString = t.str(&t.nodes[j]), true
				}
			}
			fn(StringMember{Key: key, Str: t.str(c), Offset: t.base + int(c.off), RawLen: int(c.first - c.off),
				Name: name, NameIsString: nameIsString})
		}
	}
}
