package rules

import (
	"fmt"
	"math"
	"strconv"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs506 = &analyze.Rule{
	ID:    "RS506",
	Name:  "retry-setting-clamped",
	Title: "node retry settings n8n cuts to its bounds",
	Doc: `n8n runs a node's Retry On Fail within fixed bounds, whatever the file says: at most 5 tries and at
least 2, at most 5,000 ms between them, as min(5, max(2, maxTries || 3)) and min(5000, max(0, waitBetweenTries
|| 1000)) (a tool its agent retries: ?? for ||) (n8n-core dist/execution-engine/workflow-execute.js getRetryParams for the main loop; node-execution-context/utils/
get-input-connection-data.js makeHandleToolInvocation for a tool its agent retries; @n8n/n8n-nodes-langchain
dist/nodes/tools/ToolWorkflow/v2/utils/WorkflowToolService.js). The editor's fields stop at the same bounds
(n8n-editor-ui, the node settings' maxTries typeOptions {minValue: 2, maxValue: 5} and waitBetweenTries
{maxValue: 5000}), so only JSON written by hand or by a program (an AI agent writing n8n workflows) holds more,
and n8n then does something else than the file says, with no word. A maxTries of 6 with a waitBetweenTries of
1,800,000 reads as retries spread over 2.5 hours, to outlast an outage or an asynchronous job's "not ready";
n8n makes 5 tries 5 s apart and fails the node within about 20 s. A maxTries of 1 reads as no retry; n8n
tries twice. A maxTries of 0 n8n's main loop reads as unset (maxTries || 3): 3 tries; the string "0" is not
unset to JavaScript, so it makes 2. The rule reports a node whose retryOnFail
is true (n8n compares it with ===: the string "true" is off) when maxTries is above 5 or below 2, or
waitBetweenTries is above 5,000 ms; a string holding a number counts as that number, as n8n's Math.min and
Math.max coerce it. It is silent when retryOnFail is off (the settings do nothing), when the node is disabled
or no trigger reaches it, when what runs the node never repeats it (a sub-node its root does not retry, a node
that continues on fail and hands its error on beside json), and for values n8n's coercion turns into NaN (an
expression: node settings are not evaluated). A note: the node still retries, within n8n's bounds, and the
load it makes is what the other rules count (they read the clamped values). A warning when the wait asked is
a minute or more: that wait was meant to outlast something (an outage, a rate-limit window, a job that is not
done yet) and n8n gives up long before, so the recovery the file describes does not exist.`,
	Fix:       "Write the retry settings n8n runs (at most 5 tries, at most 5000 ms apart); for a longer wait, use a Wait node in a loop or an error workflow that retries later",
	FixSafety: analyze.Safe,
	FixDoc: `Writes the values n8n runs over the ones it cuts: maxTries 5 for more, 2 for 1, the count n8n makes of 0;
waitBetweenTries 5000 for more. n8n runs the node exactly as before; the file then says what runs. A longer
recovery (a Wait node, an error workflow) is a design the owner must choose.`,
	Severity:   analyze.Note,
	Confidence: analyze.High,
	Tags:       []string{"retries"},
	Run: func(pass *analyze.Pass) {
		if pass.Workflow == nil {
			return
		}
		w := pass.Workflow
		g := pass.Set.Graph(w)
		for _, n := range w.Nodes {
			if n.Disabled || !g.Reachable(n) {
				continue
			}
			c, ok := analyze.ClampedRetry(g, n)
			if !ok {
				continue
			}
			sev := analyze.Note
			if c.WaitClamped && c.AskedWaitMS >= 60_000 {
				sev = analyze.Warning
			}
			pass.Report(analyze.Diagnostic{
				Node: n, Pos: n.Pos, Severity: sev, OwnFailure: true,
				Message: fmt.Sprintf("node %q asks for %s; n8n makes %s", n.Name, askedRetry(c), triesApart(float64(c.Tries), float64(c.WaitMS))),
				Repair:  func(r analyze.Repairer) (*analyze.Repair, error) { return r.RetryAsRun(w, n) },
			})
		}
	},
}

// askedRetry is what a node's clamped retry settings ask: "6 tries 30 min
// apart", "1 try".
func askedRetry(c analyze.RetryClamp) string {
	tries := float64(c.Tries)
	if c.TriesClamped {
		tries = c.AskedTries
	}
	wait := float64(c.WaitMS)
	if c.WaitClamped {
		wait = c.AskedWaitMS
	}
	return triesApart(tries, wait)
}

// triesApart is "5 tries 5 s apart (20 s of waits)", "1 try".
func triesApart(tries, waitMS float64) string {
	count := strconv.FormatFloat(tries, 'f', -1, 64)
	if tries >= 1e6 {
		count = strconv.FormatFloat(tries, 'g', 4, 64) // not a run of digits
	}
	if tries == 1 {
		return "1 try"
	}
	if tries < 1 {
		return count + " tries"
	}
	if waitMS <= 0 {
		return count + " tries with no wait between them"
	}
	waits := (math.Ceil(tries) - 1) * waitMS
	if math.IsInf(waits, 0) || waits > 1e15 {
		return fmt.Sprintf("%s tries %s apart", count, waitText(waitMS))
	}
	return fmt.Sprintf("%s tries %s apart (%s of waits)", count, waitText(waitMS), waitText(waits))
}

// waitText writes milliseconds as "500 ms", "5 s", "30 min", "2 h 30 min".
func waitText(ms float64) string {
	switch {
	case math.IsInf(ms, 0) || ms > 1e15: // past 30,000 years: the number as written
		return strconv.FormatFloat(ms, 'g', 4, 64) + " ms"
	case ms < 1000:
		return fmt.Sprintf("%d ms", int(math.Round(ms)))
	case ms >= 3_600_000:
		h, m := int(ms/3_600_000), int(math.Mod(ms, 3_600_000)/60_000)
		if m > 0 {
			return fmt.Sprintf("%d h %d min", h, m)
		}
		return fmt.Sprintf("%d h", h)
	}
	return analyze.Duration(int(math.Min(ms, 3_600_000)))
}
