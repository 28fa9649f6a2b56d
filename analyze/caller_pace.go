package analyze

import (
	"slices"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A sub-workflow has no pace of its own: whatever runs the node that calls
// it drives it. One that only a chat bot's or a form's run calls comes one
// person at a time, as its caller does.

// maxCallerDepth bounds how far back through callers that are themselves
// sub-workflows the paces are followed; each workflow is read once.
const maxCallerDepth = 4

// PacesWithCallers is Paces for workflow w of set s, where each Execute
// Workflow Trigger that workflows of the set call (an Execute Workflow
// node, a workflow tool) takes the paces that reach the calling nodes,
// read the same way back through callers that are sub-workflows too. An
// entry no workflow of the set calls keeps only its own internal pace: its
// callers are not known.
func PacesWithCallers(s *Set, w *n8nschema.Workflow) map[*n8nschema.Node]uint8 {
	return pacesWithCallers(s, w, map[*n8nschema.Workflow]map[*n8nschema.Node]uint8{}, 0)
}

// pacesWithCallers reads each workflow once (memo): a workflow met again,
// or on a cycle of calls, gives what is known of it so far.
func pacesWithCallers(s *Set, w *n8nschema.Workflow, memo map[*n8nschema.Workflow]map[*n8nschema.Node]uint8, depth int) map[*n8nschema.Node]uint8 {
	if p, ok := memo[w]; ok {
		return p
	}
	g := s.Graph(w)
	out := Paces(g)
	memo[w] = out
	if depth >= maxCallerDepth {
		return out
	}
	entry := map[*n8nschema.Node]uint8{}
	for _, c := range s.CallsTo(w) {
		if c.From == w || c.Node == nil || (c.Kind != CallExecute && c.Kind != CallTool) {
			continue
		}
		bits := pacesWithCallers(s, c.From, memo, depth+1)[c.Node]
		for _, e := range c.Entry {
			if e.Type == n8nschema.TypeExecuteWorkflowTrigger {
				entry[e] |= bits
			}
		}
	}
	for e, bits := range entry {
		if bits&^(1<<PaceInternal) == 0 {
			continue
		}
		for _, n := range ReachFrom(g, e).Nodes() {
			out[n] |= bits
		}
	}
	return out
}

// WebhookCallerPaces returns the paces that reach the nodes of other
// workflows of the set calling webhook t of w by an HTTP request (each
// read back through callers that are sub-workflows), and whether any
// does. A webhook that workflows of the set call runs when they call it:
// one that only a chat's or a form's run calls comes one person at a time.
func WebhookCallerPaces(s *Set, w *n8nschema.Workflow, t *n8nschema.Node) (uint8, bool) {
	var bits uint8
	called := false
	memo := map[*n8nschema.Workflow]map[*n8nschema.Node]uint8{}
	for _, c := range s.CallsTo(w) {
		if c.From == w || !c.requests(t) {
			continue
		}
		called = true
		bits |= pacesWithCallers(s, c.From, memo, 1)[c.Node]
	}
	return bits, called
}

// requests reports a call that a node makes by an HTTP request to webhook
// t (WebhookCallerPaces, CalledOnSchedule): t's runs come when it calls.
func (c *Call) requests(t *n8nschema.Node) bool {
	return c.Kind == CallWebhook && c.Node != nil && slices.Contains(c.Entry, t)
}
