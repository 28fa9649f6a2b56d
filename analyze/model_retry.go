package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A retry layer decided by the model: when a tool call fails, the agent
// may hand the error to the model as the tool's answer, and the model may
// call the tool again, up to the agent's iterations. Around a write with
// no idempotency key, a call that timed out on the client may have
// committed, and the model's second call writes again.

// KindModelRetry is the chain layer of a model calling a tool again.
const KindModelRetry = "model-retry"

// errorToModel are the tools that catch their own failure and answer the
// model with it ("There was an error: …"): the LangChain HTTP Request
// tool (nodes/tools/ToolHttpRequest/utils.ts), the Code tool
// (nodes/tools/ToolCode/ToolCode.node.ts) and the Call Workflow tool v1
// (nodes/tools/ToolWorkflow/v1/ToolWorkflowV1.node.ts).
func errorToModel(n *n8nschema.Node) bool {
	switch n.Type {
	case n8nschema.TypeToolHTTPRequest, n8nschema.TypeToolCode:
		return true
	case n8nschema.TypeToolWorkflow:
		return n.TypeVersion < 2
	}
	return false
}

// ModelRecalls returns the agent that may call tool n again after it
// fails, and how many calls its iterations allow: an Agent v3 or later
// hands every tool's error back to the model as the tool's result
// (utils/agent-execution/buildSteps.ts); older agents only the errors of
// the tools that answer with them (errorToModel), since a thrown tool
// error ends their run. It returns nil for a node that is no tool of an
// agent, or an agent allowed one iteration.
func ModelRecalls(g *Graph, n *n8nschema.Node) (*n8nschema.Node, int) {
	if !g.IsSubNode(n) {
		return nil, 0
	}
	r := g.Root(n)
	if r == nil || !n8nschema.IsAgent(r.Type) || r.Disabled {
		return nil, 0
	}
	isTool := false
	for _, e := range g.Out(n) {
		if e.Type == ConnTool && e.To == r {
			isTool = true
		}
	}
	if !isTool || !(r.TypeVersion >= 3 && strings.HasPrefix(r.Type, n8nschema.TypeAgent) || errorToModel(n)) {
		return nil, 0
	}
	k := AgentIterations(r)
	if k < 2 {
		return nil, 0
	}
	return r, k
}
