package n8nschema

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
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
}

// keyChains groups the repeats of one key in one object (sorted by
// offset: each repeat after the first names the previous repeat's later
// member as its earlier one) and says for each chain whether a dropped
// copy held something the kept one lacks. body is the unblanked text.
func keyChains(reps []repeatedKey, body []byte) []keyChain {
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
			if where, lost := lostIn(kept, drop, ""); lost {
				ch.lostOff, ch.lostPath = r.firstOff, where
				break
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

// lostIn reports whether dropped holds something kept does not: a
// scalar that kept lacks or has otherwise at the same place (object
// members by name, array elements by index, as connection slots and
// parameter lists are read). An empty object, array, string or null
// holds nothing, so a copy made only of those loses nothing. where is
// the path of the first thing lost, below path.
func lostIn(kept, dropped any, path string) (where string, lost bool) {
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
			if w, l := lostIn(k[name], d[name], join(path, escapeKey(name))); l {
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
			if w, l := lostIn(ke, e, join(path, strconv.Itoa(i))); l {
				return within(same, path, w), true
			}
		}
		return "", false
	}
	if kept == dropped { // json.Number, bool and string compare by value
		return "", false
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
