package n8nschema

import "testing"

// A node with no typeVersion runs at its type's default version
// (VersionedNodeType.getNodeType); one with a typeVersion keeps it; an
// unknown type keeps 0.
func TestMissingTypeVersionIsTheDefault(t *testing.T) {
	src := `{"nodes": [
  {"name": "Loop", "type": "n8n-nodes-base.splitInBatches", "parameters": {}},
  {"name": "Loop v2", "type": "n8n-nodes-base.splitInBatches", "typeVersion": 2, "parameters": {}},
  {"name": "Kafka", "type": "n8n-nodes-base.kafka", "parameters": {}},
  {"name": "Null", "type": "n8n-nodes-base.splitInBatches", "typeVersion": null, "parameters": {}},
  {"name": "Custom", "type": "n8n-nodes-acme.thing", "parameters": {}}
], "connections": {}}`
	f := Parse(NewSource("test.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("got %d workflows", len(f.Workflows))
	}
	want := []struct {
		version float64
		set     bool
	}{{3, false}, {2, true}, {1, false}, {3, true}, {0, false}}
	for i, n := range f.Workflows[0].Nodes {
		if n.TypeVersion != want[i].version || n.TypeVersionSet != want[i].set {
			t.Errorf("%s: TypeVersion %v (set %v), want %v (set %v)", n.Name, n.TypeVersion, n.TypeVersionSet, want[i].version, want[i].set)
		}
	}
	if v, ok := DefaultVersion("n8n-nodes-base.kafka"); v != 1 || !ok {
		t.Errorf("DefaultVersion(kafka) = %v, %v; want 1, true (its defaultVersion, not the newest 2)", v, ok)
	}
	if v, ok := DefaultVersion("n8n-nodes-acme.thing"); v != 0 || ok {
		t.Errorf("DefaultVersion(unknown) = %v, %v; want 0, false", v, ok)
	}
}
