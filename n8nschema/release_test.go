package n8nschema

import (
	"strings"
	"testing"
)

const releaseSrc = `{"id": "w1", "name": "Nightly", "settings": {"errorWorkflow": "e1", "executionTimeout": 60},
 "nodes": [
  {"id": "a", "name": "Hook", "type": "n8n-nodes-base.webhook", "parameters": {"path": "x"}, "position": [0, 0]},
  {"id": "b", "name": "Call", "type": "n8n-nodes-base.httpRequest", "retryOnFail": true, "maxTries": 3, "onError": "continueRegularOutput",
   "credentials": {"httpHeaderAuth": {"id": "1"}}, "notes": "long notes", "parameters": {"url": "https://api.example.com"}, "position": [200, 0]}
 ],
 "connections": {"Hook": {"main": [[{"node": "Call", "type": "main", "index": 0}]]}}}`

// TestReleaseKeepsLight: a released workflow keeps its names, ids,
// positions, settings' scalars and node count, and a light copy of each
// node asked for; what holds the bytes goes.
func TestReleaseKeepsLight(t *testing.T) {
	f := Parse(NewSource("w.json", []byte(releaseSrc)))
	w := f.Workflows[0]
	call := w.Node("Call")
	wantPos, wantNodePos := w.Pos, call.Pos
	light := w.Release([]*Node{call, nil, call})
	f.Release()

	if !w.Released() || !f.Source.Released() || f.Source.Src != nil || f.Source.inUse != nil {
		t.Fatal("not released")
	}
	if w.Name != "Nightly" || w.ID != "w1" || w.Label() != "Nightly" || w.Pos != wantPos || w.NodeCount() != 2 {
		t.Errorf("workflow = %q %q %v %d nodes, want Nightly w1 %v 2 nodes", w.Name, w.ID, w.Pos, w.NodeCount(), wantPos)
	}
	if w.workflowBody != nil {
		t.Error("nodes, connections, settings or value kept")
	}
	if len(light) != 3 || light[1] != nil || light[0] != light[2] {
		t.Fatalf("light nodes = %v: want one copy per node, in order, nil for nil", light)
	}
	n := light[0]
	if n == call || n.Name != "Call" || n.Type != TypeHTTPRequest || n.Pos != wantNodePos || !n.RetryOnFail ||
		n.OnError != "continueRegularOutput" || !n.ContinuesOnFail() {
		t.Errorf("light node = %+v", n)
	}
	if n.nodeBody != nil {
		t.Error("light node keeps its body (notes, values, parameters)")
	}
}

// TestReleasedPanics: what needs the bytes or the nodes panics once they
// are released, so that a report that forgot to capture something fails
// loudly instead of printing an empty line.
func TestReleasedPanics(t *testing.T) {
	var lightCall *Node
	for name, read := range map[string]func(f *File){
		"PosAt":    func(f *File) { f.Source.PosAt(3, "") },
		"Line":     func(f *File) { f.Source.Line(1) },
		"LineSpan": func(f *File) { f.Source.LineSpan(1) },
		"Node":     func(f *File) { f.Workflows[0].Node("Call") },
		"Param":    func(f *File) { lightCall.Param("url") },
		"Field":    func(f *File) { lightCall.Field("notes") },
	} {
		t.Run(name, func(t *testing.T) {
			f := Parse(NewSource("w.json", []byte(releaseSrc)))
			lightCall = f.Workflows[0].Node("Call")
			read(f) // fine before
			lightCall = f.Workflows[0].Release([]*Node{lightCall})[0]
			f.Release()
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "released") {
					t.Errorf("%s after Release: recovered %v, want a panic saying so", name, r)
				}
			}()
			read(f)
		})
	}
}
