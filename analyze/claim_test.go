package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestStatusTest: an If with one condition on the status code names the
// output a successful claim takes; a test that does not tell a success
// from a refusal names none.
func TestStatusTest(t *testing.T) {
	for _, c := range []struct {
		cond  string
		out   int
		reads bool
	}{
		{`"leftValue":"={{ $json.statusCode }}","rightValue":400,"operator":{"type":"number","operation":"lt"}`, 0, true},
		{`"leftValue":"={{ $json.statusCode }}","rightValue":"300","operator":{"type":"number","operation":"lt"}`, 0, true},
		{`"leftValue":"={{ $json.statusCode }}","rightValue":409,"operator":{"type":"number","operation":"equals"}`, 1, true},
		{`"leftValue":"={{ $json.statusCode }}","rightValue":400,"operator":{"type":"number","operation":"gte"}`, 1, true},
		{`"leftValue":"={{ $json.statusCode }}","rightValue":201,"operator":{"type":"number","operation":"equals"}`, 0, true},
		{`"leftValue":"={{ $json.statusCode }}","rightValue":409,"operator":{"type":"number","operation":"notEquals"}`, 0, true},
		{`"leftValue":"={{ $json.statusCode }}","rightValue":500,"operator":{"type":"number","operation":"lt"}`, 0, false}, // 409 < 500 too
		{`"leftValue":"={{ $json.statusCode }}","rightValue":404,"operator":{"type":"number","operation":"equals"}`, 0, false},
		{`"leftValue":"={{ $json.status }}","rightValue":400,"operator":{"type":"number","operation":"lt"}`, 0, false},
	} {
		src := `{"nodes":[{"name":"If","type":"n8n-nodes-base.if","typeVersion":2.2,"parameters":{"conditions":{"conditions":[{` + c.cond + `}],"combinator":"and"}}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		out, ok := statusTest(f.Workflows[0].Nodes[0])
		if ok != c.reads || ok && out != c.out {
			t.Errorf("%s: output %d %v, want %d %v", c.cond, out, ok, c.out, c.reads)
		}
	}
}

// TestCombines: a Merge that joins its inputs' fields passes the claim's
// statusCode on; one that appends or chooses a branch does not.
func TestCombines(t *testing.T) {
	for _, c := range []struct {
		params string
		want   bool
	}{
		{`{"mode":"combine","combineBy":"combineByPosition"}`, true},
		{`{"mode":"combine"}`, true},
		{`{"mode":"mergeByIndex"}`, true},
		{`{"mode":"append"}`, false},
		{`{"mode":"chooseBranch"}`, false},
		{`{}`, false}, // append is the default
	} {
		src := `{"nodes":[{"name":"M","type":"n8n-nodes-base.merge","typeVersion":3,"parameters":` + c.params + `}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if got := combines(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: combines %v, want %v", c.params, got, c.want)
		}
	}
}
