package analyze

import (
	"math"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// n8n's bounds on a node's retry settings: wherever it retries a node it
// runs min(5, max(2, maxTries)) tries min(5000, max(0, waitBetweenTries))
// ms apart, after its default for an unset value (the main loop's
// `maxTries || 3` and `waitBetweenTries || 1000`, a root's `?? 3` and
// `?? 1000`: MainAttempts, ToolAttempts, RetryWaitMS) (n8n-core
// dist/execution-engine/workflow-execute.js
// getRetryParams L931-940, the main loop; node-execution-context/utils/
// get-input-connection-data.js makeHandleToolInvocation L152-159, a root's
// tool call; @n8n/n8n-nodes-langchain dist/nodes/tools/ToolWorkflow/v2/
// utils/WorkflowToolService.js L65-72), and the editor's fields stop there
// (n8n-editor-ui dist/assets/ParameterInputList-*.js, the node settings
// maxTries typeOptions {minValue: 2, maxValue: 5} and waitBetweenTries
// {minValue: 0, maxValue: 5e3}).
const (
	MinTries  = 2
	MaxTries  = 5
	MaxWaitMS = 5000
)

// RetryClamp is what a node's retry settings ask and what n8n runs of
// them, for a node whose retry n8n runs (retryOnFail is true and what
// runs the node repeats it: NodeAttempts).
type RetryClamp struct {
	// AskedTries and AskedWaitMS are the file's numbers (a number, or a
	// string holding one, which n8n's Math.min/Math.max coerce alike);
	// HasTries and HasWait say whether the file holds one.
	AskedTries, AskedWaitMS float64
	HasTries, HasWait       bool
	// Tries and WaitMS are what n8n runs (NodeAttempts, NodeRetryWaitMS).
	Tries, WaitMS int
	// TriesClamped: maxTries is above 5 or below 2, and n8n runs another
	// count; WaitClamped: waitBetweenTries is above 5000 ms, and n8n waits
	// 5000 ms.
	TriesClamped, WaitClamped bool
}

// ClampedRetry reports the retry settings of n that n8n does not run as
// the file writes them: maxTries above 5 or below 2 (0 included, which
// the main loop reads as unset and runs 3 tries of, a root's tool call 2),
// waitBetweenTries above 5000 ms. ok is false when neither is, or when
// the node's retry runs nothing (retryOnFail is not true, which n8n
// compares with ===, or what runs the node never repeats it: a sub-node
// its root does not retry, a node that hands its error on beside json).
// A value n8n's coercion makes NaN (an expression, a word) is left out:
// neither bound applies to it.
func ClampedRetry(g *Graph, n *n8nschema.Node) (c RetryClamp, ok bool) {
	if !n.RetryOnFail {
		return c, false
	}
	tries, kind := NodeAttempts(g, n)
	if kind == "" || tries < MinTries {
		return c, false
	}
	c.Tries, c.WaitMS = tries, NodeRetryWaitMS(g, n)
	c.AskedTries, c.HasTries = jsNumber(n.MaxTries())
	c.AskedWaitMS, c.HasWait = jsNumber(n.WaitBetweenTries())
	c.TriesClamped = c.HasTries && (c.AskedTries > MaxTries || c.AskedTries < MinTries) && float64(c.Tries) != c.AskedTries
	c.WaitClamped = c.HasWait && c.AskedWaitMS > MaxWaitMS && c.WaitMS == MaxWaitMS
	return c, c.TriesClamped || c.WaitClamped
}

// jsNumber is a setting as n8n's Math.min/Math.max coerce it, when that
// is a number: a JSON number, or a string holding a plain decimal number
// (Number(" 6 ") is 6). A string Go reads and JavaScript does not ("inf",
// "nan") is left out.
func jsNumber(v n8nschema.Value) (float64, bool) {
	f, ok := v.Num()
	if !ok || math.IsNaN(f) {
		return 0, false
	}
	if v.Kind() == n8nschema.String && math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}
