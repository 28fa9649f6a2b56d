package n8nschema

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
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
	r    gjson.Result
	src  *Source
	base int // offset of the parsed slice inside src.Src
	// The gjson path is joined only when asked for (Path, Pos): most
	// values are read and dropped, and joining every path on every Get
	// and Each was a large share of the parse's allocations. When joined
	// is false, path is the whole path; else it is the parent's path and
	// elem the last element.
	path   string
	elem   string
	joined bool
}

// fullPath is the gjson path of the value from the root of its source.
func (v Value) fullPath() string {
	if !v.joined {
		return v.path
	}
	return joinPath(v.path, v.elem)
}

// child is a value below v whose last path element is elem.
func (v Value) child(r gjson.Result, parent, elem string) Value {
	return Value{r: r, src: v.src, base: v.base, path: parent, elem: elem, joined: true}
}

// Exists reports whether the value is present (null counts as present).
func (v Value) Exists() bool { return v.r.Exists() }

// Kind returns the JSON type.
func (v Value) Kind() Kind {
	switch v.r.Type {
	case gjson.Null:
		if !v.r.Exists() {
			return Missing
		}
		return Null
	case gjson.False, gjson.True:
		return Bool
	case gjson.Number:
		return Number
	case gjson.String:
		return String
	}
	if v.r.IsArray() {
		return Array
	}
	if v.r.IsObject() {
		return Object
	}
	return Missing
}

// Str returns a string value as is, and other scalars in their JSON text.
func (v Value) Str() string {
	if v.r.Type == gjson.JSON || !v.r.Exists() {
		return ""
	}
	return v.r.String()
}

// Raw returns the JSON text of the value.
func (v Value) Raw() string { return v.r.Raw }

// True reports whether the value is the JSON literal true.
func (v Value) True() bool { return v.r.Type == gjson.True }

// Num returns a number, or a string holding a plain number; ok is false
// otherwise (expressions included).
func (v Value) Num() (float64, bool) {
	switch v.r.Type {
	case gjson.Number:
		return v.r.Num, true
	case gjson.String:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.r.Str), 64)
		return f, err == nil
	}
	return 0, false
}

// IsExpr reports whether the value is an n8n expression (a string that
// starts with "="; see n8n-semantics.md §1.3).
func (v Value) IsExpr() bool {
	return v.r.Type == gjson.String && strings.HasPrefix(v.r.Str, "=")
}

// Get returns a value below this one by gjson path ("options.maxRetries").
func (v Value) Get(path string) Value {
	if !v.r.IsObject() && !v.r.IsArray() {
		return v.child(gjson.Result{}, v.fullPath(), path)
	}
	return v.child(v.r.Get(path), v.fullPath(), path)
}

// getMany sets out[i] to v.Get(keys[i]) for plain keys (no gjson path
// syntax), reading an object once: gjson has no index, so each Get scans
// the object again from its start.
func (v Value) getMany(keys []string, out []Value) {
	if !v.r.IsObject() {
		for i, k := range keys {
			out[i] = v.Get(k)
		}
		return
	}
	parent := v.fullPath()
	for i, k := range keys {
		// A missing member as Result.Get leaves it: at the parent's index.
		out[i] = v.child(gjson.Result{Index: v.r.Index}, parent, k)
	}
	found := 0
	v.r.ForEach(func(k, e gjson.Result) bool {
		for i, key := range keys {
			if k.Str == key && !out[i].Exists() {
				out[i] = v.child(e, parent, key)
				found++
			}
		}
		return found < len(keys)
	})
}

// Elems returns the elements of an array (nil for anything else).
func (v Value) Elems() []Value {
	if !v.r.IsArray() {
		return nil
	}
	var out []Value
	i := 0
	parent := v.fullPath()
	v.r.ForEach(func(_, e gjson.Result) bool {
		out = append(out, v.child(e, parent, strconv.Itoa(i)))
		i++
		return true
	})
	return out
}

// eachElem calls fn for every element of an array in order, as Elems
// would list them, without building the slice; fn returns false to stop.
func (v Value) eachElem(fn func(i int, e Value) bool) {
	if !v.r.IsArray() {
		return
	}
	parent := v.fullPath()
	i := 0
	v.r.ForEach(func(_, e gjson.Result) bool {
		ok := fn(i, v.child(e, parent, strconv.Itoa(i)))
		i++
		return ok
	})
}

// Each calls fn for every member of an object in source order.
func (v Value) Each(fn func(key string, val Value) bool) {
	if !v.r.IsObject() {
		return
	}
	parent := v.fullPath()
	v.r.ForEach(func(k, e gjson.Result) bool {
		return fn(k.Str, v.child(e, parent, escapeKey(k.Str)))
	})
}

// Walk calls fn for every scalar below v (depth first, source order), with
// its path relative to v. Rules use it to search free-form parameters.
func (v Value) Walk(fn func(rel string, val Value)) {
	v.walk("", fn)
}

func (v Value) walk(rel string, fn func(string, Value)) {
	switch v.Kind() {
	case Object, Array:
		v.children(func(elem string, c Value) bool {
			c.walk(joinPath(rel, elem), fn)
			return true
		})
	case Missing:
	default:
		fn(rel, v)
	}
}

// children calls fn for every member of an object or element of an array
// with its path element, in one pass without Each's or Elems' extra work
// (Walk and Scalars run over every parameter of many nodes); it stops when
// fn returns false and reports whether it ran to the end.
func (v Value) children(fn func(elem string, c Value) bool) bool {
	isArray := v.Kind() == Array
	parent := v.fullPath()
	ok, i := true, 0
	v.r.ForEach(func(key, e gjson.Result) bool {
		var elem string
		if isArray {
			elem = strconv.Itoa(i)
			i++
		} else {
			elem = escapeKey(key.Str)
		}
		ok = fn(elem, v.child(e, parent, elem))
		return ok
	})
	return ok
}

// Scalars calls fn for every scalar below v, depth first in source order,
// as Walk does but without building the relative paths; it stops when fn
// returns false. Searches that ignore the path use it.
func (v Value) Scalars(fn func(Value) bool) {
	v.scalars(fn)
}

func (v Value) scalars(fn func(Value) bool) bool {
	switch v.Kind() {
	case Object, Array:
		return v.children(func(_ string, c Value) bool { return c.scalars(fn) })
	case Missing:
		return true
	default:
		return fn(v)
	}
}

// Path is the gjson path of the value from the root of its source.
func (v Value) Path() string { return v.fullPath() }

// Pos is where the value stands: the key of an object member, else the value.
func (v Value) Pos() Pos {
	path := v.fullPath()
	// gjson reports 0 for an unknown index; only the root may truly be at 0.
	if v.src == nil || !v.r.Exists() || v.r.Index == 0 && path != "" {
		return Pos{Path: path}
	}
	return v.src.PosAt(keyStart(v.src.Src, v.base+v.r.Index), path)
}

// Span is the byte range of the value's JSON text in its source; 0, 0
// when the value does not exist.
func (v Value) Span() (start, end int) {
	if v.src == nil || !v.r.Exists() {
		return 0, 0
	}
	return v.base + v.r.Index, v.base + v.r.Index + len(v.r.Raw)
}

// Offset is the byte offset in its source where the value starts, without
// the line and column arithmetic of ValuePos; -1 when it is not known.
func (v Value) Offset() int {
	if v.src == nil || !v.r.Exists() {
		return -1
	}
	return v.base + v.r.Index
}

// ValuePos is where the value itself starts (after its key).
func (v Value) ValuePos() Pos {
	if v.src == nil || !v.r.Exists() {
		return Pos{Path: v.fullPath()}
	}
	return v.src.PosAt(v.base+v.r.Index, v.fullPath())
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
// (strings that are array elements are not members), in source order,
// reading v's text once: Walk's gjson ForEach scans each container again
// at every level of nesting. It returns false, having called fn for none,
// when an object below v repeats a key: a gjson path then names the first
// of them, and the caller must walk with paths to see the same values.
func (v Value) StringMembers(fn func(StringMember)) bool {
	return v.StringMembersOf(nil, fn)
}

// StringMembersOf is StringMembers for the members whose key keep accepts
// (all when keep is nil): the others are skipped without unescaping.
func (v Value) StringMembersOf(keep func(key string) bool, fn func(StringMember)) bool {
	if v.src == nil || !v.r.Exists() || v.Kind() != Object {
		return true
	}
	s := &memberScanner{raw: v.r.Raw, base: v.base + v.r.Index, keep: keep}
	s.value(0)
	if s.dup {
		return false
	}
	for _, m := range s.out {
		fn(m)
	}
	return true
}

type memberScanner struct {
	raw  string
	base int
	keep func(key string) bool
	out  []StringMember
	dup  bool
}

func (s *memberScanner) ws(i int) int {
	for i < len(s.raw) && isSpace(s.raw[i]) {
		i++
	}
	return i
}

// str returns the end of the string token starting at i (just past its
// closing quote) and its unescaped text.
func (s *memberScanner) str(i int) (int, string) {
	j, esc := s.strEnd(i)
	if !esc {
		return j, s.raw[i+1 : j-1]
	}
	return j, gjson.Parse(s.raw[i:j]).Str
}

// strEnd returns the end of the string token starting at i (just past its
// closing quote) and whether it holds an escape.
func (s *memberScanner) strEnd(i int) (int, bool) {
	esc := false
	j := i + 1
	for j < len(s.raw) && s.raw[j] != '"' {
		if s.raw[j] == '\\' {
			esc = true
			j++
		}
		j++
	}
	j++ // past the closing quote
	if j > len(s.raw) {
		j = len(s.raw)
	}
	return j, esc
}

// value scans the value starting at i (after white space) and returns its end.
func (s *memberScanner) value(i int) int {
	i = s.ws(i)
	if i >= len(s.raw) {
		return i
	}
	switch s.raw[i] {
	case '{':
		return s.object(i)
	case '[':
		i++
		for {
			i = s.ws(i)
			if i >= len(s.raw) || s.raw[i] == ']' {
				return i + 1
			}
			if s.raw[i] == ',' {
				i++
				continue
			}
			i = s.value(i)
		}
	case '"':
		j, _ := s.strEnd(i)
		return j
	}
	for i < len(s.raw) && !isSpace(s.raw[i]) && s.raw[i] != ',' && s.raw[i] != '}' && s.raw[i] != ']' {
		i++
	}
	return i
}

func (s *memberScanner) object(i int) int {
	i++
	var keys []string
	var seen map[string]bool
	var own []int // indexes in s.out of this object's string members
	name, nameIsString, haveName := "", false, false
	for {
		i = s.ws(i)
		if i >= len(s.raw) || s.raw[i] == '}' {
			break
		}
		if s.raw[i] == ',' {
			i++
			continue
		}
		var key string
		i, key = s.str(i)
		if seen != nil {
			s.dup = s.dup || seen[key]
			seen[key] = true
		} else {
			for _, k := range keys {
				s.dup = s.dup || k == key
			}
			if keys = append(keys, key); len(keys) > 16 {
				seen = map[string]bool{}
				for _, k := range keys {
					seen[k] = true
				}
			}
		}
		i = s.ws(i)
		if i < len(s.raw) && s.raw[i] == ':' {
			i++
		}
		i = s.ws(i)
		if i < len(s.raw) && s.raw[i] == '"' {
			kept := s.keep == nil || s.keep(key)
			if !kept && (key != "name" || haveName) {
				i = s.value(i) // skipped: not unescaped
			} else {
				j, str := s.str(i)
				if kept {
					own = append(own, len(s.out))
					s.out = append(s.out, StringMember{Key: key, Str: str, Offset: s.base + i, RawLen: j - i})
				}
				if key == "name" && !haveName {
					name, nameIsString = str, true
				}
				i = j
			}
		} else {
			i = s.value(i)
		}
		if key == "name" {
			haveName = true
		}
	}
	for _, k := range own {
		s.out[k].Name, s.out[k].NameIsString = name, nameIsString
	}
	return i + 1
}
