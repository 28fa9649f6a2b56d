package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs206 = &analyze.Rule{
	ID:    "RS206",
	Name:  "join-repeats-write",
	Title: "a node fed by parallel branches on one input repeats a write",
	Doc: `n8n waits for a node's inputs only when the node has more than one: a node whose main connections all
enter its input 0 is put on the stack each time a parent passes it items (n8n-core
execution-engine/workflow-execute.js addNodeToBeExecuted, numberOfInputs). So when parallel branches (nodes fed from
the same output of one node, such as three queries started by one schedule) join on one input of a node, that node
runs once per branch, and everything after it too: three times per execution for three branches, under the v1 and
the legacy execution order alike. When each run handles its own branch's items (the node maps $json), the runs are
different items and nothing repeats. When the runs build the same output (the node reads the branches by name,
$('A').first() or $('B').all(), reads only nodes before the join, or ignores its input: a Code node with no
$input, an HTTP Request or a message with no field of the item), each run sends the same message or creates the
same record again. The rule reports such a write, and when it sits behind one exclusive output after the join
(the first If, Filter or Switch on the way, the join itself included, that leads to it by one output only, or an error
output) it names that output: the write repeats only in the executions whose items take it (an If that tests the
id an insert returns sends every stored row down its true output, so a write on its false output repeats only when
inserts come back without one). Branches that fork at different nodes add up too when one fork
lies on a branch of the other (a lookup's output fanned out again beside a second lookup of the same schedule). The
exclusive outputs of one node (an If's true and false, a Switch's rules, an error output) split the items and are
not parallel, except a Switch's rules with "Send data to all matching outputs" (options.allMatchingOutputs): it
sends an item down every rule it passes (n8n-nodes-base/dist/nodes/Switch/V3/SwitchV3.node.js, the option at
L316-322, the loop over the rules at L418-422), so its outputs run side by side. Neither are the branches of two triggers,
which never run in one execution; a node with two inputs (a Merge) waits for both and runs once. Under the v1 order
a node that reads two of the branches by name in an expression ($('A').first() and $('B').first()) first runs right
after one branch, and reading the other throws "Node 'B' hasn't been executed": the execution stops, nothing repeats,
and the rule leaves it out; so it does a Code node that reads a lower branch at its top level, outside any try
(RS010 reports it). Severity follows
what the duplicate costs (analyze/consequence.go): an error for a charge, an order or a message to a customer, a
warning for a second record or a write whose endpoint says nothing, a note for an alert to the team, a log line or
a report; a note too when only a manual run reaches it.`,
	Fix:        "Join the branches in a Merge node with one input per branch (it waits for all of them and runs once), or chain them one after another",
	FixDoc:     "None: the Merge node's inputs and mode depend on what the branches return, which only the owner knows.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"writes"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		for op := range eachLiveOp(pass) {
			if !madeWrite(op) || g.IsSubNode(op.Node) {
				continue
			}
			rr, ok := g.RepeatedRuns(op.Node)
			if !ok {
				continue
			}
			eff := analyze.ConsequenceIn(g, op.Node)
			sev, dup := duplicateSeverity(eff, true) // every run repeats it
			if !dup {
				continue // re-applies the same state
			}
			names := make([]string, len(rr.Branches))
			for k, b := range rr.Branches {
				names[k] = fmt.Sprintf("%q", b.Name)
			}
			same := fmt.Sprintf("node %q builds its output without its own input items", rr.Same.Name)
			if rr.Same == op.Node {
				same = "it builds what it writes without its own input items"
			}
			where, per := "", "per execution"
			if rr.Gate != nil {
				// Behind one exclusive output: only the runs whose
				// items take it repeat the write.
				where = fmt.Sprintf(", on the %s of %q,", gateOutput(rr.Gate, rr.GateEdge), rr.Gate.Name)
				per = "in an execution whose items take that output"
			}
			msg := fmt.Sprintf("node %q has one input, fed by parallel branches (%s), and n8n runs it, and everything after it, once per branch: write %q (%s)%s runs %d times %s; %s, so every run after the first is %s",
				rr.Join.Name, strings.Join(names, ", "), op.Node.Name, eff.Op, where, rr.Runs, per, same, eff.Duplicate)
			if watched(pass, op.Node) {
				sev = analyze.Note
				msg += " (" + byHandWhy(g, op.Node) + ")"
			}
			pass.Report(analyze.Diagnostic{Node: op.Node, Pos: op.Node.Pos, Severity: sev, Message: msg, Chain: op.Factors})
		}
	},
}

// gateOutput names the output of an If, Filter or Switch, or the error
// output, that edge e leaves gate by.
func gateOutput(gate *n8nschema.Node, e *analyze.Edge) string {
	switch {
	case e.Error:
		return "error output"
	case gate.Type == n8nschema.TypeIf && e.Output == 0:
		return "true output"
	case gate.Type == n8nschema.TypeIf && e.Output == 1:
		return "false output"
	case gate.Type == n8nschema.TypeFilter && e.Output == 0:
		return "kept output"
	case gate.Type == n8nschema.TypeFilter && e.Output == 1:
		return "discarded output"
	}
	return fmt.Sprintf("output %d", e.Output)
}
