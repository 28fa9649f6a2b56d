package analyze

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestManualOnly pins who starts a workflow without a person: its own
// trigger (not a manual one, not archived), or a caller that does; a
// workflow waiting for a caller with none in the set is taken to have
// callers outside it; an error workflow named only by a manual workflow
// never runs (n8n runs none for a manual execution).
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
		"]"
	f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
	s := Build([]*n8nschema.File{f}, DefaultOptions())
	var got []string
	for w := range ManualOnly(s) {
		got = append(got, w.ID)
	}
	slices.Sort(got)
	want := []string{"archived", "disabled", "manual", "manualCaller", "none", "onError", "subOfManual"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ManualOnly (-want +got):\n%s", diff)
	}
}
