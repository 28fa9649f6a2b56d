package analyze

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestManualOnly pins who starts a workflow without a person: its own
// trigger (not a manual one, not archived), or a caller that does; a
// sub-workflow no call of the set resolves to runs when a person starts
// it, unless a running workflow makes a call the set cannot resolve that
// may be to it (a computed target; an id the set lacks while it has none,
// under its name or none, from its instance); an error workflow no
// workflow of the set names is taken to be named outside it; an error
// workflow named only by a manual workflow never runs (n8n runs none for
// a manual execution).
func TestManualOnly(t *testing.T) {
	trig := func(typ string) string {
		return `{"name": "T", "type": "` + typ + `", "typeVersion": 1, "parameters": {}}`
	}
	call := func(id string) string {
		return `{"name": "Call", "type": "n8n-nodes-base.executeWorkflow", "typeVersion": 1.2,
		  "parameters": {"workflowId": {"__rl": true, "value": "` + id + `", "mode": "id"}}}`
	}
	wf := func(id, extra string, nodes ...string) string {
		s := `{"id": "` + id + `", "name": "` + id + `", "connections": {}` + extra + `, "nodes": [`
		for i, n := range nodes {
			if i > 0 {
				s += ","
			}
			s += n
		}
		return s + `]}`
	}
	src := "[" + wf("manual", "", trig(n8nschema.TypeManualTrigger)) +
		"," + wf("none", "") +
		"," + wf("schedule", "", trig(n8nschema.TypeScheduleTrigger)) +
		"," + wf("archived", `, "isArchived": true`, trig(n8nschema.TypeScheduleTrigger)) +
		"," + wf("disabled", "", `{"name": "T", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "disabled": true, "parameters": {"path": "x"}}`) +
		"," + wf("callsSub", "", trig(n8nschema.TypeScheduleTrigger), call("sub")) +
		"," + wf("sub", "", trig(n8nschema.TypeManualTrigger)) +
		"," + wf("manualCaller", `, "settings": {"errorWorkflow": "onError"}`, trig(n8nschema.TypeManualTrigger), call("subOfManual")) +
		"," + wf("subOfManual", "", trig(n8nschema.TypeExecuteWorkflowTrigger)) +
		"," + wf("onError", "", trig(n8nschema.TypeErrorTrigger)) +
		"," + wf("orphanSub", "", trig(n8nschema.TypeExecuteWorkflowTrigger)) +
		"," + wf("orphanError", "", trig(n8nschema.TypeErrorTrigger)) +
		"]"
	f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
	s := Build([]*n8nschema.File{f}, DefaultOptions())
	var got []string
	for w := range ManualOnly(s) {
		got = append(got, w.ID)
	}
	slices.Sort(got)
	want := []string{"archived", "disabled", "manual", "manualCaller", "none", "onError", "orphanSub", "subOfManual"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ManualOnly (-want +got):\n%s", diff)
	}

	// Calls from a schedule of instance "a": one the set cannot resolve
	// may start any orphan of that instance or of none (StartedByHand,
	// across the set); one it resolves (to Kept) or that runs a workflow
	// written in the node starts none of the others.
	sub := func(name, id, inst string) string {
		return `{"name": "` + name + `", "id": "` + id + `", "meta": {"instanceId": "` + inst + `"}, "connections": {}, "nodes": [` + trig(n8nschema.TypeExecuteWorkflowTrigger) + `]}`
	}
	caller := func(ref string) string {
		return `{"name": "Caller", "id": "caller", "meta": {"instanceId": "a"}, "connections": {}, "nodes": [` + trig(n8nschema.TypeScheduleTrigger) + `,
		  {"name": "Call", "type": "n8n-nodes-base.executeWorkflow", "typeVersion": 1.2, "parameters": {"workflowId": ` + ref + `}}]}`
	}
	for _, c := range []struct {
		ref    string
		manual []string // of the subs: Lost, Child, Other, Kept, Far
	}{
		{`{"__rl": true, "value": "={{ $json.flow }}", "mode": "id"}`, []string{"Far"}},
		{`{"__rl": true, "value": "x1", "mode": "list", "cachedResultName": "Nobody"}`, []string{"Far"}},
		{`{"__rl": true, "value": "k1", "mode": "id"}`, []string{"Child", "Far", "Lost", "Other"}},
		{`{"__rl": true, "value": "k1", "mode": "id"}, "source": "parameter"`, []string{"Child", "Far", "Kept", "Lost", "Other"}},
	} {
		// Lost calls Child: Child runs when Lost does.
		lost := strings.Replace(sub("Lost", "", "a"), `]}`, `,`+call("child1")+`]}`, 1)
		src := "[" + caller(c.ref) + "," + lost + "," + sub("Child", "child1", "a") + "," + sub("Other", "", "") + "," + sub("Kept", "k1", "a") + "," + sub("Far", "", "b") + "]"
		s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))}, DefaultOptions())
		wfs := Summarize(s)
		var got []string
		for i, manual := range StartedByHand(wfs) {
			if manual {
				got = append(got, wfs[i].Name)
			}
		}
		slices.Sort(got)
		if diff := cmp.Diff(c.manual, got); diff != "" {
			t.Errorf("ManualOnly with a call to %s (-want +got):\n%s", c.ref, diff)
		}
	}
}

// TestTestChatOnly pins which Chat Triggers only the editor's test chat
// runs: not public (the default) and not offered in the Chat hub; a value
// set by an expression is not read.
func TestTestChatOnly(t *testing.T) {
	for params, want := range map[string]bool{
		`{}`:                         true,
		`{"public": false}`:          true,
		`{"public": null}`:           true,
		`{"public": true}`:           false,
		`{"public": "={{ true }}"}`:  false,
		`{"availableInChat": true}`:  false,
		`{"availableInChat": false}`: true,
	} {
		src := `{"name": "w", "connections": {}, "nodes": [{"name": "Chat", "type": "` + n8nschema.TypeChatTrigger +
			`", "typeVersion": 1.1, "parameters": ` + params + `}]}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		n := f.Workflows[0].Nodes[0]
		if got := TestChatOnly(n); got != want {
			t.Errorf("TestChatOnly(%s) = %v, want %v", params, got, want)
		}
		if got := ByHand(n); got != want {
			t.Errorf("ByHand(%s) = %v, want %v", params, got, want)
		}
	}
}
