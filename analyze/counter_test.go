package analyze

import (
	"encoding/json"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestCounterBump: an update whose every changed field is its own value
// plus a constant keeps count; any other change is data.
func TestCounterBump(t *testing.T) {
	pg := func(q string) string {
		b, _ := json.Marshal(q)
		return `{"name":"a","type":"n8n-nodes-base.postgres","typeVersion":2.5,"parameters":{"operation":"executeQuery","query":` + string(b) + `}}`
	}
	upd := func(cols string) string {
		return `{"name":"a","type":"n8n-nodes-base.postgres","typeVersion":2.5,"parameters":{"operation":"update","table":"examples","columns":{"mappingMode":"defineBelow","matchingColumns":["id"],"value":` + cols + `}}}`
	}
	for _, c := range []struct {
		name, node string
		want       bool
	}{
		{"sql counter", pg("UPDATE learning_examples SET times_referenced = times_referenced + 1 WHERE id = ANY('{{ $json.ids }}')"), true},
		{"sql two counters", pg(`UPDATE "posts" SET "views" = COALESCE("views", 0) + 1, hits = hits + 2 WHERE id = {{ $json.id }};`), true},
		{"sql counter and a field", pg("UPDATE posts SET views = views + 1, title = '{{ $json.title }}' WHERE id = 1"), false},
		{"sql another column", pg("UPDATE accounts SET balance = credit + 100 WHERE id = 1"), false},
		{"sql counter then an insert", pg("UPDATE posts SET views = views + 1 WHERE id = 1; INSERT INTO audit VALUES (1)"), false},
		{"sql insert", pg("INSERT INTO posts (views) VALUES (1)"), false},
		{"update node counter", upd(`{"id":"={{ $json.id }}","views":"={{ $json.views + 1 }}"}`), true},
		{"update node counter from a named node", upd(`{"id":"={{ $json.id }}","uses":"={{ ($('Find').item.json.uses || 0) + 1 }}"}`), true},
		{"update node other field", upd(`{"id":"={{ $json.id }}","views":"={{ $json.views + 1 }}","status":"done"}`), false},
		{"update node counter from another field", upd(`{"id":"={{ $json.id }}","views":"={{ $json.likes + 1 }}"}`), false},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("%s: bad test node", c.name)
		}
		if got := CounterBump(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: CounterBump = %v, want %v", c.name, got, c.want)
		}
	}
}
