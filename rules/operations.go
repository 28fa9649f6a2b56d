package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about operations and their attempt chains, shared by the rules
// about what retries break (RS2xx–RS5xx).

// opsByNode indexes a list of operations by node, for opsIn.
type opsByNode map[*n8nschema.Node][]int

// indexOps indexes ops by node.
func indexOps(ops []*analyze.Operation) opsByNode {
	x := make(opsByNode, len(ops))
	for i, op := range ops {
		x[op.Node] = append(x[op.Node], i)
	}
	return x
}

// opsIn returns the operations of ops (indexed by x) whose node is in
// reach, in the order of ops. It reads the nodes of reach, not every
// operation: the rules ask it for each trigger, and many triggers that
// each reach a call or two stay linear.
func opsIn(ops []*analyze.Operation, x opsByNode, reach map[*n8nschema.Node]bool) []*analyze.Operation {
	var at []int
	for n, in := range reach {
		if in {
			at = append(at, x[n]...)
		}
	}
	slices.Sort(at)
	out := make([]*analyze.Operation, len(at))
	for k, i := range at {
		out[k] = ops[i]
	}
	return out
}

// liveOps returns the operations of the pass's workflow whose node runs.
func liveOps(pass *analyze.Pass) []*analyze.Operation {
	var out []*analyze.Operation
	for _, op := range pass.Set.OperationsOf(pass.Workflow) {
		if op.Live {
			out = append(out, op)
		}
	}
	return out
}

// madeWrite reports an operation that writes, to a resource it names. A
// write to a resource a template's blank names ("YOUR_SHEET_ID",
// analyze.Operation.BlankTarget) fails on every call as exported, as
// RS402 and RS403 read it (analyze.CannotCall): nothing is written, so
// nothing is repeated, and the rules read it once the owner fills it in.
func madeWrite(op *analyze.Operation) bool { return op.Write && !op.BlankTarget }

// factorOf returns the first factor of a kind in the chain.
func factorOf(op *analyze.Operation, kinds ...string) (analyze.Factor, bool) {
	for _, f := range op.Factors {
		for _, k := range kinds {
			if f.Kind == k {
				return f, true
			}
		}
	}
	return analyze.Factor{}, false
}

// unboundedBy names what makes an operation unbounded:
// `a self-trigger through "Restart"`, `an unguarded loop through "Retry"`.
func unboundedBy(op *analyze.Operation) string {
	for _, f := range op.Factors {
		if !f.Unbounded {
			continue
		}
		switch f.Kind {
		case analyze.KindSelfTrigger:
			return fmt.Sprintf("the workflow re-starts itself through %q", f.Node)
		case analyze.KindLoop:
			return fmt.Sprintf("an unguarded loop back through %q", f.Node)
		}
		return fmt.Sprintf("%s through %q", strings.ReplaceAll(f.Kind, "-", " "), f.Node)
	}
	if op.CallsUnbounded {
		if _, unb, ok := analyze.MessageToolCalls(op.Node); ok && unb {
			why := "its options.maxToolsIterations is 0, no limit"
			if op.Node.Type == n8nschema.TypeOpenAI && op.Node.TypeVersion < 1.5 {
				why = "the OpenAI node reads no limit before version 1.5"
			}
			return "it calls the model again after each round of tool calls the model asks for, with no limit on the rounds (" + why + ")"
		}
		return "its calls per item have no bound"
	}
	return "its attempts have no bound"
}

// crossExecution reports whether an operation's unbounded factor spans
// executions (a self-trigger or error-workflow cycle), which a workflow's
// executionTimeout cannot stop: every trip is a new execution.
func crossExecution(op *analyze.Operation) bool {
	for _, f := range op.Factors {
		if f.Unbounded && (f.Kind == analyze.KindSelfTrigger || f.Kind == analyze.KindErrorWorkflow) {
			return true
		}
	}
	return false
}

// boundedPart is the product of an operation's bounded factors: what one
// trip through an unbounded loop costs in attempts.
func boundedPart(op *analyze.Operation) int {
	k := 1
	for _, f := range op.Factors {
		if !f.Unbounded && f.Value > 0 {
			k *= f.Value
		}
	}
	return k
}

// restartsPerItem reports whether a call that closes a self-trigger starts
// one run per item reaching its node: an HTTP Request to the workflow's own
// webhook sends one request per item, an Execute Workflow in mode "each"
// one sub-execution per item (unless executeOnce). Each failed item then
// starts its own run, and the runs multiply on every trip: n8n 2.8.4 ran
// 1, 3, 9, 27 … executions with three failed items (docs/n8n-facts.md).
func restartsPerItem(c *analyze.Call) bool {
	if c == nil || c.Node == nil || c.Node.ExecuteOnce {
		return false
	}
	switch c.Kind {
	case analyze.CallWebhook:
		return true
	case analyze.CallExecute:
		return c.Each
	}
	return false
}

// selfTriggerCall is the call of op's workflow that closes the
// self-trigger op runs on (nil when there is none, or it is in another
// workflow of the cycle).
func selfTriggerCall(s *analyze.Set, op *analyze.Operation) *analyze.Call {
	for _, f := range op.Factors {
		if f.Kind != analyze.KindSelfTrigger || !f.Unbounded {
			continue
		}
		for _, c := range s.CallsFrom(op.Workflow) {
			if c.Cycle && c.Node != nil && c.Node.Name == f.Node {
				return c
			}
		}
	}
	return nil
}

// perItemGrowth is what a message adds when restarts go per item: per
// failed item when the restart hangs on an error path.
func perItemGrowth(s *analyze.Set, c *analyze.Call) string {
	if s.Graph(c.From).OnErrorPath(c.Node) {
		return "one restart per failed item, so the executions multiply on every trip (1, 3, 9, 27 … with 3 failed items)"
	}
	return "one restart per item, so the executions multiply on every trip (1, 3, 9, 27 … with 3 items)"
}
