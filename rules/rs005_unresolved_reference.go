package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs005 = &analyze.Rule{
	ID:    "RS005",
	Name:  "unresolved-reference",
	Title: "a called workflow is not in the analysis set",
	Doc: `stormcheck follows calls between workflows (Execute Workflow, Call Workflow Tool, settings.errorWorkflow,
HTTP requests to a webhook of the instance) to multiply retries across them and to find
workflows that re-start themselves. When the target is not among the files given in one run, or its id is
an expression evaluated at run time, the edge cannot be followed. The finding says what was assumed in its
place, usually that the callee makes no external calls and never calls back, so the attempt counts of this
run are a lower bound. Audit the workflows together (one folder, or --n8n-url) to close the gap. A call by an
id no workflow of the set has, from a list that cached the callee's name (cachedResultName), reaches the
one workflow of the set with that name when it has no id (a template or copy that lost the id the instance
gave it); n8n does not keep workflow names unique, so a name two workflows bear names neither. When no
workflow of the set bears the name either, but an export with neither id nor name (the editor's copy of a
canvas) carries it in its file name, as the whole name or an end after a punctuation mark, in any case
("Agente Unificado__KB SEARCH.json" for "KB SEARCH"), the finding names that file and the calls its run makes,
and says that they are not counted: the call is not tied to it, since n8n looks a callee up by id only
(packages/nodes-base/nodes/ExecuteWorkflow/ExecuteWorkflow/GenericFunctions.ts getWorkflowInfo) and never names
a workflow after its file (packages/cli/src/commands/import/workflow.ts keeps the JSON as it is, and the
workflow's name column is NOT NULL), and a wrong tie would multiply the file's attempts into the caller. A sub-workflow
given as JSON in the calling node (source "parameter": n8n parses workflowJson and runs it from its
Execute Workflow Trigger, packages/nodes-base/nodes/ExecuteWorkflow/ExecuteWorkflow/GenericFunctions.ts
getWorkflowInfo, packages/cli/src/workflow-execute-additional-data.ts) is read: when the nodes its start
reaches make no external call and call no workflow, nothing is reported; otherwise the finding names those
calls, which are not yet counted in the caller's attempts and spend. A missing
workflow is reported once, at its first reference, with the other references as related places. The n8n node
(activate, update, get a workflow through n8n's public API) starts no execution, so its target is not
followed and not reported, and neither is a call from a node no run reaches (an Execute Workflow node
with no incoming connection, a tool whose agent has no input, a node after one that fails on every run): n8n runs only the nodes an execution reaches
from its start node, and a tool only when its agent runs and asks for it
(packages/core/src/execution-engine/workflow-execute.ts, get-input-connection-data.ts), so what such a callee
does changes no figure. A settings.errorWorkflow that names a missing workflow is reported wherever it stands,
except in a workflow only a person starts (every enabled trigger a Manual Trigger, and no workflow of the set
calls it): n8n runs no error workflow for a manual execution
(packages/cli/src/execution-lifecycle/execution-lifecycle-hooks.ts, dispatchesErrorWorkflow), so that setting is
never followed. A settings.errorWorkflow that holds a name instead of an id (the name of a workflow of the set,
or a value with a space, which no id n8n gives has) is said to be one: n8n looks the error workflow up by id only
(packages/cli/src/workflows/workflow-execution.service.ts loadErrorWorkflowData) and only logs that it found
none, and with the setting non-empty it does not run the workflow's own Error Trigger either
(execution-lifecycle/execute-error-workflow.ts), so no error workflow runs and the named workflow is never
started by it; its calls count in no figure of this workflow, and RS402 reads the workflow as having no error
workflow.`,
	Fix:        "Audit the called workflow in the same run (pass its file or the whole export folder), or call it by a literal id",
	FixDoc:     "None: the reference points outside the files given; audit the whole export instead.",
	Severity:   analyze.Note,
	Confidence: analyze.High,
	Stored:     true,
	Tags:       []string{"call-graph"},
	FoldMore: func(_ string, n int) string {
		return fmt.Sprintf("; referenced from %d more %s", n, plural(n, "place", "places"))
	},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		for _, c := range pass.Set.CallsFrom(pass.Workflow) {
			if c.To != nil || c.Kind == analyze.CallN8nAPI {
				continue // the n8n node changes a workflow through the API: it starts no execution to follow
			}
			if c.Inline != nil && c.Assumed == "" {
				continue // its workflow JSON was read and makes no external call: the figures are exact
			}
			if c.Node != nil && !g.Reachable(c.Node) {
				continue // never runs: what the callee does changes no figure
			}
			d := analyze.Diagnostic{Node: c.Node, Pos: c.Pos, Detail: c.Kind.String() + "\x00" + c.Ref}
			if c.Missing != "" {
				d.FoldKey = "workflow\x00" + c.Missing
				if c.Kind == analyze.CallWebhook {
					d.FoldKey = "webhook\x00" + c.Missing // a path, not an id
				}
			}
			if c.Node == nil && analyze.StartedOnlyByHand(pass.Set, pass.Workflow) {
				continue // n8n runs no error workflow for a manual execution
			}
			switch {
			case c.Node == nil && c.Named != nil:
				id := "it has no id in its export"
				if c.Named.ID != "" {
					id = fmt.Sprintf("its id is %q", c.Named.ID)
				}
				d.Message = fmt.Sprintf("settings.errorWorkflow %q is the name of a workflow of the set (%s), not an id: %s; the workflow so named never runs for this one's failures",
					c.Ref, id, c.Assumed)
			case c.Node == nil && c.ByName:
				d.Message = fmt.Sprintf("settings.errorWorkflow %q is a name, not an id: %s", c.Ref, c.Assumed)
			case c.Node == nil:
				d.Message = fmt.Sprintf("settings.errorWorkflow %q is not in the analysis set; %s", c.Ref, c.Assumed)
			default:
				d.Message = fmt.Sprintf("node %q: %s%s", c.Node.Name, c.Assumed, unnamedCalleeCalls(pass.Set, c))
			}
			pass.Report(d)
		}
	},
}

// unnamedCalleeCalls says what the one workflow a call's cached name may
// name (Call.Unnamed) calls when another workflow starts it: those calls
// are in no figure of the caller.
func unnamedCalleeCalls(s *analyze.Set, c *analyze.Call) string {
	if len(c.Unnamed) != 1 {
		return ""
	}
	ops := s.SubworkflowOps(c.Unnamed[0])
	if len(ops) == 0 {
		return ""
	}
	var parts []string
	for i, op := range ops {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(ops)-3))
			break
		}
		if op.Dependency == "" {
			parts = append(parts, fmt.Sprintf("%q", op.Node.Name))
		} else {
			parts = append(parts, fmt.Sprintf("%q (%s)", op.Node.Name, op.Dependency))
		}
	}
	return "; if it is that workflow, its run calls " + strings.Join(parts, ", ") + ", which this workflow's attempts and spend do not count"
}
