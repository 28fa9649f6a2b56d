package analyze

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Inline is what stormcheck read of a sub-workflow given as JSON in the
// calling node (source "parameter"): Execute Workflow and the Call n8n
// Workflow Tool parse the string parameter workflowJson and run it like a
// stored workflow, from its Execute Workflow Trigger or else a Manual
// Trigger (nodes-base ExecuteWorkflow/GenericFunctions.js getWorkflowInfo
// L37–40 jsonParse; langchain ToolWorkflow/v1/ToolWorkflowV1.node.js L78
// and v2/utils/WorkflowToolService.js L240–243 JSON.parse; cli
// workflow-execute-additional-data.js fetchWorkflowData L120–128 and L76
// findSubworkflowStart).
type Inline struct {
	// Ops are the external calls its run makes (live operations of the
	// inline workflow analysed alone), in node order.
	Ops []*Operation
	// Calls are its own calls of other workflows, which are not followed.
	Calls int
}

// readInline parses the workflowJson a calling node holds and analyses it
// alone. Nil when it is not a string of one workflow (an expression, an
// object, invalid JSON: what n8n does then is not read here), and inside
// an inline workflow: one level is read, so the work stays linear.
func readInline(s *Set, c *Call, v n8nschema.Value) *Inline {
	if s.inline || v.Kind() != n8nschema.String || v.IsExpr() || strings.TrimSpace(v.Str()) == "" {
		return nil
	}
	f := n8nschema.Parse(n8nschema.NewSource(c.From.Source.Name+"#"+c.Node.Name, []byte(v.Str())))
	if len(f.Problems) > 0 || len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) == 0 {
		return nil
	}
	sub := build(&Set{Files: []*n8nschema.File{f}, Options: s.Options, inline: true})
	w := f.Workflows[0]
	start := subworkflowStart(w)
	if len(start) == 0 {
		return nil // n8n throws "Missing node to start execution": not read here
	}
	// Only what its start reaches runs: another trigger of it never fires.
	reach := ReachFrom(sub.Graph(w), start...)
	in := &Inline{}
	for _, op := range sub.OperationsOf(w) {
		if op.Live && reach.Has(op.Node) {
			in.Ops = append(in.Ops, op)
		}
	}
	for _, cc := range sub.CallsFrom(w) {
		if cc.Node != nil && reach.Has(cc.Node) && cc.Kind != CallN8nAPI && cc.Kind != CallOwnWrite {
			in.Calls++
		}
	}
	return in
}

// inlineAssumed is what RS005 says of an inline sub-workflow that makes
// external calls: which, and that they are not counted in the caller's
// figures. Empty when it makes none: the caller's figures are exact.
func (in *Inline) assumed() string {
	if len(in.Ops) == 0 && in.Calls == 0 {
		return ""
	}
	var parts []string
	for i, op := range in.Ops {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(in.Ops)-3))
			break
		}
		if op.Dependency == "" {
			parts = append(parts, fmt.Sprintf("%q", op.Node.Name))
		} else {
			parts = append(parts, fmt.Sprintf("%q (%s)", op.Node.Name, op.Dependency))
		}
	}
	switch {
	case in.Calls == 1:
		parts = append(parts, "1 other workflow")
	case in.Calls > 1:
		parts = append(parts, fmt.Sprintf("%d other workflows", in.Calls))
	}
	return "the workflow JSON it runs (source \"parameter\") calls " + strings.Join(parts, ", ") +
		"; stormcheck reads it but does not count these calls in this workflow's attempts or spend, so those figures are a lower bound"
}
