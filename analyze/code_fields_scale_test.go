package analyze

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// spreadCode is a Code node that binds d to a long value that is no read
// of an item (foo + x + x …, 8k terms) and spreads it 8k times into the
// object it returns, after spreading the input's body.
func spreadCode(t *testing.T, k int) *n8nschema.Node {
	t.Helper()
	code := "const body = $json.body;\nconst d = foo" + strings.Repeat(" + x", 8*k) + ";\nreturn [{json: {...body, " + strings.Repeat("...d, ", 8*k) + "}}];"
	js, _ := json.Marshal(code)
	src := `{"name":"code","nodes":[{"name":"Code","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":` + string(js) + `}}],"connections":{}}`
	f := n8nschema.Parse(n8nschema.NewSource("code.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parsed %d workflows", len(f.Workflows))
	}
	return f.Workflows[0].Nodes[0]
}

// TestCodeReadsLinearInSpreads: a long bound value spread k times is read
// in time linear in the code: codeRefRE is anchored at the value's start
// (an unanchored search scanned the whole value for a read further on),
// and ref's answer for each bound name is kept, not found again for
// each spread (8,000 spreads took 98 ms, ×3.3 per doubling).
func TestCodeReadsLinearInSpreads(t *testing.T) {
	const k = 500
	small, large := spreadCode(t, k), spreadCode(t, 4*k)
	read := func(n *n8nschema.Node) func() {
		return func() {
			exprs, _ := codeReads(n, []string{"email"})
			if len(exprs) != 1 || exprs[0] != `{{ $json.body["email"] }}` {
				t.Fatalf("codeReads: %q", exprs)
			}
		}
	}
	st, lt := cputime.Scales(3, 3, 6, read(small), read(large))
	t.Logf("%d spreads: %v; %d spreads: %v", 8*k, st, 32*k, lt)
	if lt > 6*st {
		t.Errorf("%d spreads take %v, %d take %v: more than 6×", 8*k, st, 32*k, lt)
	}
}
