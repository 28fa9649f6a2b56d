package n8nschema

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// membersIn is the reference for StringMembersIn: the whole walk's
// members whose string text meets [from, to) (from < to).
func membersIn(all []StringMember, from, to int, keep func(string) bool) []StringMember {
	var out []StringMember
	for _, m := range all {
		if m.Offset < to && m.Offset+m.RawLen > from && (keep == nil || keep(m.Key)) {
			out = append(out, m)
		}
	}
	return out
}

func checkMembersIn(t *testing.T, where string, v Value, all []StringMember, from, to int, keep func(string) bool) {
	t.Helper()
	var got []StringMember
	v.StringMembersIn(from, to, keep, func(m StringMember) { got = append(got, m) })
	if from >= to {
		if len(got) != 0 {
			t.Fatalf("%s: StringMembersIn(%d, %d) = %v, want none", where, from, to, got)
		}
		return
	}
	if want := membersIn(all, from, to, keep); !slices.Equal(got, want) {
		t.Fatalf("%s: StringMembersIn(%d, %d) = %v\nwant %v", where, from, to, got, want)
	}
}

// TestStringMembersInFixture: a range that cuts a container, starts
// between two, holds a key only, and a "value" whose "name" lies outside.
func TestStringMembersInFixture(t *testing.T) {
	src := `{"nodes": [{"name": "A", "parameters": {"h": [{"value": "sec", "name": "X-Api-Key"}, "elem"],
	  "n": {"x": {"value": "v"}, "value": "w", "name": "token"}}}, {"name": "B"}], "connections": {}, "k": "z"}`
	f := Parse(NewSource("m.json", []byte(src)))
	v := f.Workflows[0].Value
	var all []StringMember
	v.StringMembersOf(nil, func(m StringMember) { all = append(all, m) })
	keepValue := func(k string) bool { return k == "value" }
	checkMembersIn(t, "fixture", v, all, 30, 30, nil)
	checkMembersIn(t, "fixture", v, all, 30, 20, nil)
	for from := -2; from <= len(src)+2; from++ {
		for to := from + 1; to <= len(src)+2; to++ {
			checkMembersIn(t, "fixture", v, all, from, to, nil)
			checkMembersIn(t, "fixture", v, all, from, to, keepValue)
		}
	}
	// The "value" "w" alone in range still has its object's name.
	w := indexOf(src, `"w"`)
	var got []string
	v.StringMembersIn(w, w+3, nil, func(m StringMember) { got = append(got, fmt.Sprintf("%s=%s name=%q", m.Key, m.Str, m.Name)) })
	if len(got) != 1 || got[0] != `value=w name="token"` {
		t.Fatalf("value alone in range: %q", got)
	}
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// TestStringMembersInCorpus compares StringMembersIn with the whole walk
// on every workflow of n8n-real, for each 5th line's range, ranges across
// the workflow's edges and random windows of 1 to 400 bytes.
func TestStringMembersInCorpus(t *testing.T) {
	rng := rand.New(rand.NewSource(34))
	keepValue := func(k string) bool { return k == "value" || k == "password" }
	n := 0
	eachCorpusFile(t, "n8n-real", func(p string, src []byte) {
		f := Parse(NewSource(p, src))
		for wi, w := range f.Workflows {
			v := w.Value
			var all []StringMember
			v.StringMembersOf(nil, func(m StringMember) { all = append(all, m) })
			start, end := v.Span()
			where := fmt.Sprintf("%s workflow %d", p, wi)
			check := func(from, to int) {
				// The reference from the members that may meet the range.
				k := sort.Search(len(all), func(k int) bool { return all[k].Offset+all[k].RawLen > from })
				j := k
				for j < len(all) && all[j].Offset < to {
					j++
				}
				checkMembersIn(t, where, v, all[k:j], from, to, nil)
				checkMembersIn(t, where, v, all[k:j], from, to, keepValue)
				n++
			}
			check(start-10, start+1)
			check(end-1, end+10)
			check(start, end)
			for l := f.Source.PosAt(start, "").Line; l <= f.Source.PosAt(max(end-1, start), "").Line; l += 5 {
				ls, le := f.Source.LineSpan(l)
				check(ls, le)
			}
			for range 100 {
				from := start + rng.Intn(max(end-start, 1))
				check(from, from+1+rng.Intn(400))
			}
		}
	})
	if n == 0 {
		t.Fatal("no range checked")
	}
}
