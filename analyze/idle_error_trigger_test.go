package analyze

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestIdleErrorOnly pins when n8n is unlikely to start a workflow's own
// Error Trigger: its settings.errorWorkflow names another workflow (n8n
// then starts that one: n8n/dist/execution-lifecycle/
// execute-error-workflow.js L56–57), no workflow of the set names it, and
// it has a trigger of its own work; only what that Error Trigger alone
// reaches is marked.
func TestIdleErrorOnly(t *testing.T) {
	wf := func(id, errorWorkflow string, shared bool, triggers ...string) string {
		nodes := `{"name": "Alert", "type": "n8n-nodes-base.slack", "typeVersion": 2.2, "parameters": {}},
		  {"name": "Shared", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}`
		conns := `"Error Trigger": {"main": [[{"node": "Alert", "type": "main", "index": 0}]]}`
		if shared {
			conns = `"Error Trigger": {"main": [[{"node": "Alert", "type": "main", "index": 0}, {"node": "Shared", "type": "main", "index": 0}]]}`
		}
		for _, typ := range triggers {
			name := "Error Trigger"
			if typ != n8nschema.TypeErrorTrigger {
				name = "Start"
				conns += `, "Start": {"main": [[{"node": "Shared", "type": "main", "index": 0}]]}`
			}
			nodes += `, {"name": "` + name + `", "type": "` + typ + `", "typeVersion": 1, "parameters": {"path": "p"}}`
		}
		s := `{"name": "` + id + `", "nodes": [` + nodes + `], "connections": {` + conns + `}`
		if id != "" {
			s += `, "id": "` + id + `"`
		}
		return s + `, "settings": {"errorWorkflow": "` + errorWorkflow + `"}}`
	}
	hook, et := "n8n-nodes-base.webhook", n8nschema.TypeErrorTrigger
	for _, tc := range []struct {
		name string
		src  string
		idle []string // the nodes marked idle, in file order
	}{
		{"names another", wf("w1", "other", true, hook, et), []string{"Error Trigger", "Alert"}},
		{"names none", wf("w1", "", false, hook, et), nil},
		{"names itself", wf("w1", "w1", false, hook, et), nil},
		{"no id to tell", wf("", "other", false, hook, et), nil},
		{"an error workflow only", wf("w1", "other", false, et), nil},
		{"beside a person's trigger only", wf("w1", "other", false, n8nschema.TypeManualTrigger, et), nil},
		{"named by another workflow", "[" + wf("w1", "other", false, hook, et) + "," + wf("w2", "w1", false, hook) + "]",
			nil},
		{"names one by its name", "[" + wf("w1", "Alerts", false, hook, et) + "," +
			strings.Replace(wf("w2", "", false, et), `"name": "w2"`, `"name": "Alerts"`, 1) + "]",
			[]string{"Error Trigger", "Alert"}},
		{"named by a workflow outside", "[" + wf("w1", "other", false, hook, et) + "," + wf("w2", "w3", false, hook) + "]",
			[]string{"Error Trigger", "Alert"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(tc.src)))
			s := Build([]*n8nschema.File{f}, DefaultOptions())
			g := s.Graph(s.Workflows[0])
			var got []string
			for _, n := range g.Nodes {
				if ie, ok := g.idleErrorOnly(n); ok {
					got = append(got, n.Name)
					if ie.Trigger.Name != "Error Trigger" || ie.Named != "other" && ie.Named != "Alerts" || ie.ByName != (ie.Named == "Alerts") {
						t.Errorf("%s: idleError = %+v", n.Name, ie)
					}
				}
			}
			want := map[string]bool{}
			for _, n := range tc.idle {
				want[n] = true
			}
			var wantList []string
			for _, n := range g.Nodes {
				if want[n.Name] {
					wantList = append(wantList, n.Name)
				}
			}
			if diff := cmp.Diff(wantList, got); diff != "" {
				t.Errorf("idle nodes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestIdleErrorFirstTrigger: a node two idle Error Triggers reach is named
// for the first of them in file order, one only the second reaches for the
// second; each node is walked once, so many triggers over a long chain
// stay linear.
func TestIdleErrorFirstTrigger(t *testing.T) {
	src := `{"id": "w1", "name": "w1", "settings": {"errorWorkflow": "other"}, "nodes": [
	  {"name": "Start", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "parameters": {"path": "p"}},
	  {"name": "First", "type": "n8n-nodes-base.errorTrigger", "typeVersion": 1, "parameters": {}},
	  {"name": "Second", "type": "n8n-nodes-base.errorTrigger", "typeVersion": 1, "parameters": {}},
	  {"name": "Both", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
	  {"name": "Only second", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}],
	  "connections": {
	    "First": {"main": [[{"node": "Both", "type": "main", "index": 0}]]},
	    "Second": {"main": [[{"node": "Both", "type": "main", "index": 0}, {"node": "Only second", "type": "main", "index": 0}]]}}}`
	s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))}, DefaultOptions())
	g := s.Graph(s.Workflows[0])
	for node, want := range map[string]string{"Both": "First", "Only second": "Second", "Second": "Second"} {
		ie, ok := g.idleErrorOnly(s.Workflows[0].Node(node))
		if !ok || ie.Trigger.Name != want {
			t.Errorf("%s: idleErrorOnly = %+v, %v; want trigger %q", node, ie, ok, want)
		}
	}
}
