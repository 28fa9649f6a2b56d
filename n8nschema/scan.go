package n8nschema

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/tidwall/gjson"
)

// MaxDepth is the deepest nesting of arrays and objects Parse reads. The
// deepest real export in the corpus nests 14 levels; gjson and every walk
// over values (Walk, Scalars, StringMembers, redaction) recurse, and ten
// million "[" overflowed the Go stack and killed the process, so a file
// nested deeper is an RS001 finding instead.
const MaxDepth = 512

// strEnd returns the index of the quote that closes the string opened at
// b[i], or len(b). Strings are most of a workflow's bytes (code, prompts),
// so it jumps from quote to quote instead of looking at every byte.
func strEnd(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		n := 0 // backslashes before the quote: odd means it is escaped
		for m := j - 1; m > i && b[m] == '\\'; m-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		j++
	}
}

// repeatedKey is a member whose key an earlier member of the same object
// already used.
type repeatedKey struct {
	key      string
	path     string // gjson path of the later member
	off      int    // offset of the later key's opening quote
	firstOff int    // offset of the earlier key's opening quote
	// [blankFrom, blankTo) is the earlier member with the comma after it.
	blankFrom, blankTo int
}

// scanJSON reads b once, without recursion, before anything that
// recurses (gjson's validator first). deepAt is the offset of the bracket
// that opens level MaxDepth+1, or -1; then nothing else is known. Else
// reps lists every object member whose key repeats an earlier one in the
// same object; it is meaningful only when b is valid JSON.
func scanJSON(b []byte) (reps []repeatedKey, deepAt int) {
	var out []repeatedKey
	pooled := scanStacks.Get().(*[]scanFrame)
	stack := (*pooled)[:0]
	defer func() {
		// Drop the references into b before the frames go back.
		for i := range stack[:cap(stack)] {
			f := &stack[:cap(stack)][i]
			clear(f.members)
			clear(f.byKey)
			clear(f.spare)
			f.elemKey, f.key = nil, nil
		}
		*pooled = stack[:0]
		scanStacks.Put(pooled)
	}()
	path := func(last string) string {
		var sb strings.Builder
		for _, f := range stack[1:] {
			if f.elemIsKey {
				sb.WriteString(escapeKey(string(f.elemKey)))
			} else {
				sb.WriteString(strconv.Itoa(f.elemIndex))
			}
			sb.WriteByte('.')
		}
		sb.WriteString(last)
		return sb.String()
	}
	// push opens a container in the top frame. Popped frames keep their
	// members' storage for the next container at that depth: most objects
	// are small, and one slice per depth serves them all.
	push := func(object bool) {
		f := scanFrame{object: object}
		if len(stack) > 0 {
			if top := &stack[len(stack)-1]; top.object {
				f.elemIsKey, f.elemKey = true, top.key
			} else {
				f.elemIndex = top.index
			}
		}
		if len(stack) < cap(stack) {
			old := stack[:len(stack)+1][len(stack)]
			f.members = old.members[:0]
			if old.byKey != nil {
				clear(old.byKey)
				f.spare = old.byKey
			} else {
				f.spare = old.spare
			}
		}
		stack = append(stack, f)
	}
	// valueDone records the end of a value in the top frame.
	valueDone := func(end int) {
		if len(stack) == 0 {
			return
		}
		top := &stack[len(stack)-1]
		if !top.object {
			top.index++
			return
		}
		prev := -1
		if top.byKey != nil {
			if k, ok := top.byKey[view(top.key)]; ok {
				prev = k
			}
		} else {
			for k := range top.members {
				if bytes.Equal(top.members[k].key, top.key) {
					prev = k
					break
				}
			}
		}
		if prev >= 0 {
			m := &top.members[prev]
			key := string(top.key)
			out = append(out, repeatedKey{key: key, path: path(escapeKey(key)), off: top.keyOff, firstOff: m.start,
				blankFrom: m.start, blankTo: m.end})
			m.start, m.end = top.keyOff, end
			return
		}
		top.members = append(top.members, scanMember{top.key, top.keyOff, end})
		if top.byKey != nil {
			top.byKey[view(top.key)] = len(top.members) - 1
		} else if len(top.members) > 16 {
			top.byKey = top.spare
			if top.byKey == nil {
				top.byKey = make(map[string]int, 32)
			}
			for k, m := range top.members {
				top.byKey[view(m.key)] = k
			}
		}
	}
	expectKey := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			j := strEnd(b, i)
			if expectKey && len(stack) > 0 {
				top := &stack[len(stack)-1]
				top.key, top.keyOff = b[i+1:j], i
				if bytes.IndexByte(top.key, '\\') >= 0 {
					// min: an unterminated string ends at len(b).
					top.key = []byte(gjson.ParseBytes(b[i:min(j+1, len(b))]).Str)
				}
				expectKey = false
			} else {
				valueDone(j + 1)
			}
			i = j
		case '{', '[':
			if len(stack) == MaxDepth {
				return nil, i
			}
			push(c == '{')
			expectKey = c == '{'
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			valueDone(i + 1)
		case ',':
			if len(stack) > 0 && stack[len(stack)-1].object {
				expectKey = true
			}
		case ' ', '\t', '\n', '\r', ':':
		default: // a number, true, false or null
			j := i
			for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != ']' && b[j] != '}' {
				j++
			}
			valueDone(j)
			i = j - 1
		}
	}
	// The earlier member is blanked with the comma that follows it (a
	// later member of the same name always follows).
	for k := range out {
		r := &out[k]
		j := r.blankTo
		for j < len(b) && b[j] != ',' {
			j++
		}
		r.blankTo = j + 1
	}
	return out, -1
}

type scanMember struct {
	key        []byte
	start, end int // key quote .. end of value
}
type scanFrame struct {
	object  bool
	index   int    // next element index (arrays)
	key     []byte // key of the member being read (objects), unescaped
	keyOff  int
	members []scanMember
	byKey   map[string]int // index in members, once there are many
	spare   map[string]int // an empty map to use as byKey
	// this container's place in its parent: a key, else an index
	elemIsKey bool
	elemKey   []byte
	elemIndex int
}

// scanStacks keep the frames (and their members' storage) of finished
// scans: most of a scan's allocations otherwise.
var scanStacks = sync.Pool{New: func() any { return new([]scanFrame) }}

// view is a string sharing k's bytes, for map keys: b is never written
// while it is scanned.
func view(k []byte) string { return unsafe.String(unsafe.SliceData(k), len(k)) }

// blank overwrites [from, to) with spaces, keeping line breaks so that
// every later offset, line and column stays where it was.
func blank(b []byte, from, to int) {
	for i := from; i < to && i < len(b); i++ {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
}
