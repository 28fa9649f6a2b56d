package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// generatedSet is the analysis set of one generated workflow: its nodes
// and its connections' members as JSON text, and any more top-level
// members (`"meta":{…}`).
func generatedSet(id string, nodes, conns []string, members ...string) *analyze.Set {
	src := fmt.Sprintf(`{"id":%q,"name":%q,"nodes":[%s],"connections":{%s}`, id, id, strings.Join(nodes, ","), strings.Join(conns, ","))
	for _, m := range members {
		src += "," + m
	}
	src += "}"
	return analyze.Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource(id+".json", []byte(src)))}, analyze.DefaultOptions())
}

// linearIn fails t when large, four times small's input, takes more than
// 6× small's CPU time (cputime.Scales: measured again on an unlucky pair).
func linearIn(t *testing.T, what string, k int, small, large func()) {
	t.Helper()
	st, lt := cputime.Scales(3, 3, 6, small, large)
	t.Logf("%s, %d: %v; %d: %v", what, k, st, 4*k, lt)
	if lt > 6*st {
		t.Errorf("%s: %d take %v, %d take %v: more than 6×", what, k, st, 4*k, lt)
	}
}
