package n8nschema

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// keyChain is every member of one name in one object: the copies
// JSON.parse drops and the last one, which it keeps.
type keyChain struct {
	key, path string // the key, and the path of the kept member
	firstOff  int    // offset of the first copy's key
	keptOff   int    // offset of the kept copy's key
	dropped   int    // how many copies are dropped
	// lostOff is the key of the first dropped copy that holds something
	// the kept one does not (a value, an edge), or -1; lostPath is where
	// in that copy, below the key ("" for the value itself).
	lostOff  int
	lostPath string
	// unreadPath is where a dropped copy first holds something the kept
	// one does not that n8n never reads, and unreadWhy why (readByN8n);
	// unreadWhy is "" when there is none.
	unreadPath, unreadWhy string
}

// keyChains groups the repeats of one key in one object (sorted by
// offset: each repeat after the first names the previous repeat's later
// member as its earlier one) and says for each chain whether a dropped
// copy held something the kept one lacks that n8n reads (reads, given
// the path of a scalar as its keys, says so). body is the unblanked text.
func keyChains(reps []repeatedKey, body []byte, reads func(at []string) (bool, string)) []keyChain {
	var chains []keyChain
	var members [][]int   // reps of each chain
	open := map[int]int{} // later key offset → its chain
	for i, r := range reps {
		c, ok := open[r.firstOff]
		if ok {
			delete(open, r.firstOff)
		} else {
			c = len(chains)
			chains = append(chains, keyChain{key: r.key, firstOff: r.firstOff})
			members = append(members, nil)
		}
		open[r.off] = c
		ch := &chains[c]
		ch.path, ch.keptOff = r.path, r.off
		ch.dropped++
		members[c] = append(members[c], i)
	}
	for c := range chains {
		ch := &chains[c]
		ch.lostOff = -1
		last := reps[members[c][len(members[c])-1]]
		kept, ok := decodeValue(body[last.keptVal:])
		if !ok {
			continue
		}
		for _, i := range members[c] {
			r := reps[i]
			drop, ok := decodeValue(body[r.dropVal:r.blankTo])
			if !ok {
				continue
			}
			l := loss{reads: reads, at: splitPath(r.path)}
			if where, lost := l.in(kept, drop, ""); lost {
				ch.lostOff, ch.lostPath = r.firstOff, where
				break
			}
			if ch.unreadWhy == "" {
				ch.unreadPath, ch.unreadWhy = l.unreadPath, l.unreadWhy
			}
		}
	}
	return chains
}

// decodeValue reads the JSON value at the start of b as JSON.parse does
// (the last member of a repeated name wins), numbers kept as written.
func decodeValue(b []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	return v, d.Decode(&v) == nil
}

// loss finds what a dropped copy holds that the kept one does not and
// n8n reads. at is the path of the value being compared, as keys.
type loss struct {
	reads func(at []string) (bool, string)
	at    []string
	// unreadPath and unreadWhy: the first difference n8n does not read.
	unreadPath, unreadWhy string
}

// in reports whether dropped holds something kept does not: a scalar
// that kept lacks or has otherwise at the same place (object members by
// name, array elements by index, as connection slots and parameter lists
// are read), where n8n reads it. An empty object, array, string or null
// holds nothing, so a copy made only of those loses nothing. where is
// the path of the first thing lost, below path.
func (l *loss) in(kept, dropped any, path string) (where string, lost bool) {
	switch d := dropped.(type) {
	case nil:
		return "", false
	case string:
		if d == "" {
			return "", false
		}
	case map[string]any:
		k, same := kept.(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(d)) {
			l.at = append(l.at, name)
			w, lost := l.in(k[name], d[name], join(path, escapeKey(name)))
			l.at = l.at[:len(l.at)-1]
			if lost {
				return within(same, path, w), true
			}
		}
		return "", false
	case []any:
		k, same := kept.([]any)
		for i, e := range d {
			var ke any
			if i < len(k) {
				ke = k[i]
			}
			l.at = append(l.at, strconv.Itoa(i))
			w, lost := l.in(ke, e, join(path, strconv.Itoa(i)))
			l.at = l.at[:len(l.at)-1]
			if lost {
				return within(same, path, w), true
			}
		}
		return "", false
	}
	if kept == dropped { // json.Number, bool and string compare by value
		return "", false
	}
	if l.reads != nil {
		if read, why := l.reads(l.at); !read {
			if l.unreadWhy == "" {
				l.unreadPath, l.unreadWhy = path, why
			}
			return "", false
		}
	}
	return path, true
}

// within is where a loss below a container is named: inside it when the
// kept copy has the same kind of container there, else the container
// itself (the whole object or list is what is lost).
func within(same bool, path, inner string) string {
	if same {
		return inner
	}
	return path
}

func join(path, elem string) string {
	if path == "" {
		return elem
	}
	return path + "." + elem
}

// splitPath is the keys of a dotted path, escapes (escapeKey) undone.
func splitPath(path string) []string {
	if path == "" {
		return nil
	}
	var out []string
	var b []byte
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case c == '\\' && i+1 < len(path):
			i++
			b = append(b, path[i])
		case c == '.':
			out = append(out, string(b))
			b = b[:0]
		default:
			b = append(b, c)
		}
	}
	return append(out, string(b))
}

// ShownPath writes a dotted path (escapeKey) for a message: a key that
// holds a character the path escapes is shown in brackets, as JavaScript
// reads it (columns.value['user.id']), not with the escape's backslash.
func ShownPath(path string) string {
	if !strings.Contains(path, `\`) {
		return path
	}
	var b strings.Builder
	for i, k := range splitPath(path) {
		if strings.IndexFunc(k, func(r rune) bool { return r < 256 && pathSpecial[r] }) < 0 {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
			continue
		}
		b.WriteString("['" + strings.ReplaceAll(strings.ReplaceAll(k, `\`, `\\`), "'", `\'`) + "']")
	}
	return b.String()
}
