package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

// idNodes is a workflow of k No Op nodes with names of their own and the
// ids ids give (an empty id leaves the member out).
func idNodes(ids []string) *analyze.Set {
	var nodes []string
	for i, id := range ids {
		idm := ""
		if id != "" {
			idm = fmt.Sprintf(`"id":%q,`, id)
		}
		nodes = append(nodes, fmt.Sprintf(`{%s"name":"N %d","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[%d,0],"parameters":{}}`, idm, i, 200*i))
	}
	return generatedSet("ids", nodes, nil)
}

// TestSharedIDPrefilter: reportSharedIDs first sorts digests of the
// ids (mayShareID, idKey) and builds its map only when two are equal. A
// shared id is found at either end of the nodes array, with fewer nodes
// than the digests' buffer holds and more, whatever the id's length; ids
// whose digests are equal but that differ (the same length, head and
// tail) and empty ids are never shared.
func TestSharedIDPrefilter(t *testing.T) {
	forms := map[string]func(i int) string{
		"uuid":  func(i int) string { return fmt.Sprintf("5b1f6a3e-0000-4000-8000-%012d", i) },
		"short": func(i int) string { return fmt.Sprint(i) },
		"eight": func(i int) string { return fmt.Sprintf("%08d", i) },
		"nine":  func(i int) string { return fmt.Sprintf("%09d", i) },
		// One head, one tail, one length: every digest the same.
		"middle": func(i int) string { return fmt.Sprintf("aaaaaaaa-%06d-zzzzzzzz", i) },
	}
	for name, form := range forms {
		for _, k := range []int{2, 3, 31, 64, 65, 130} {
			for _, pair := range [][2]int{{0, k - 1}, {k - 2, k - 1}, {0, 1}, {-1, -1}} {
				ids := make([]string, k)
				for i := range ids {
					ids[i] = form(i)
				}
				if pair[0] >= 0 {
					ids[pair[1]] = ids[pair[0]]
				} else {
					ids[0], ids[k-1] = "", "" // two nodes with no id share nothing
				}
				var got []string
				for _, f := range analyze.Run(idNodes(ids), []*analyze.Rule{rs004}) {
					got = append(got, f.Message)
				}
				shared := len(got) == 1 && strings.Contains(got[0], "share the node id")
				if want := pair[0] >= 0; shared != want || !want && len(got) != 0 {
					t.Errorf("%s ids, %d nodes, id shared by %v: findings %q", name, k, pair, got)
				}
			}
		}
	}
	if idKey("aaaaaaaa-000001-zzzzzzzz") != idKey("aaaaaaaa-000002-zzzzzzzz") || idKey("12") == idKey("21") || idKey("1") == idKey("01") {
		t.Error("idKey: the digests the test leans on changed")
	}
}
