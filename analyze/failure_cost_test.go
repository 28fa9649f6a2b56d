package analyze

import (
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// An input's index is the export's: a connection into input 4,000,000,000
// of a node whose inputs n8n does not know must not make FailureLossOf
// count up to it (it took 19 s at 4e9 and never ended at 1e15).
func TestFailureLossHugeInputIndex(t *testing.T) {
	s := buildJSON(t, `{"name":"w","nodes":[
	{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"p","httpMethod":"POST"}},
	{"name":"Community","type":"n8n-nodes-acme.thing","typeVersion":1,"position":[200,0],"parameters":{}},
	{"name":"Log","type":"n8n-nodes-base.code","typeVersion":2,"position":[400,0],"parameters":{"jsCode":"return items"}}],
	"connections":{"Hook":{"main":[[{"node":"Community","type":"main","index":1000000000000000}]]},
	"Community":{"main":[[{"node":"Log","type":"main","index":0}]]}},
	"settings":{"executionOrder":"v1"}}`)
	w := s.Workflows[0]
	starts := map[*n8nschema.Node]bool{}
	for _, n := range w.Nodes {
		if n.Name == "Hook" {
			starts[n] = true
		}
	}
	budget := 1 << 20
	done := make(chan struct{})
	go func() {
		for _, n := range w.Nodes {
			s.FailureLossOf(w, n, starts, &budget)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("FailureLossOf did not end within 10 s on a connection into input 1e15")
	}
}

// A test's words come from the export: an operation name that is no plain
// word is quoted, so that no line break or control byte reaches a message.
func TestOpTextQuotes(t *testing.T) {
	for op, want := range map[string]string{"gt": "gt", "notEquals": "notEquals", "gt\n::error::x": `"gt\n::error::x"`, "": ""} {
		if got := opText(op); got != want {
			t.Errorf("opText(%q) = %q, want %q", op, got, want)
		}
	}
}
