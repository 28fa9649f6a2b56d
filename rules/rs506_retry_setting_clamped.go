package rules

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
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
expression: node settings are not evaluated). One finding per workflow, however many of its nodes ask for
such settings (one hand or one program wrote them, and one repair mends them all): at the first node whose
wait asked is a minute or more, else at the first, naming the others (nodes that ask the same together, the
first three and a count), each a related place. A note: the nodes still retry, within n8n's bounds, and the
load they make is what the other rules count (they read the clamped values). A warning when the wait asked,
on any of them, is a minute or more: that wait was meant to outlast something (an outage, a rate-limit
window, a job that is not done yet) and n8n gives up long before, so the recovery the file describes does
not exist.`,
	Fix:       "Write the retry settings n8n runs (at most 5 tries, at most 5000 ms apart); for a longer wait, use a Wait node in a loop or an error workflow that retries later",
	FixSafety: analyze.Safe,
	FixDoc: `Writes the values n8n runs over the ones it cuts: maxTries 5 for more, 2 for 1, the count n8n makes of 0;
waitBetweenTries 5000 for more, on every node the finding names. n8n runs the nodes exactly as before; the file
then says what runs. A longer
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
		// One finding per workflow: the nodes' settings are one hand (or
		// one program) writing retries n8n cuts, mended by one edit per
		// node. The first node whose wait asked is a minute or more
		// speaks (the warning), else the first; the message names the
		// others, grouped by what they ask, and each is a related place.
		var cs []clamped
		lead := -1
		for _, n := range w.Nodes {
			if n.Disabled || !g.Reachable(n) {
				continue
			}
			c, ok := analyze.ClampedRetry(g, n)
			if !ok {
				continue
			}
			if lead < 0 && c.WaitClamped && c.AskedWaitMS >= 60_000 {
				lead = len(cs)
			}
			cs = append(cs, clamped{n, askedRetry(c), triesApart(float64(c.Tries), float64(c.WaitMS))})
		}
		if len(cs) == 0 {
			return
		}
		sev := analyze.Warning
		if lead < 0 {
			lead, sev = 0, analyze.Note
		}
		cs[0], cs[lead] = cs[lead], cs[0]
		slices.SortStableFunc(cs[1:], func(a, b clamped) int { return cmp.Compare(a.n.Index, b.n.Index) })
		d := analyze.Diagnostic{
			Node: cs[0].n, Pos: cs[0].n.Pos, Severity: sev, OwnFailure: true,
			Message: clampedMessage(cs),
			Repair: func(r analyze.Repairer) (*analyze.Repair, error) {
				return retriesAsRun(r, w, cs)
			},
		}
		for _, c := range cs[1:] {
			d.Related = append(d.Related, analyze.Related{File: pass.File.Source.Name, Pos: c.n.Pos, Source: pass.File.Source,
				Message: fmt.Sprintf("node %q asks for %s; n8n makes %s", c.n.Name, c.asked, c.made)})
		}
		pass.Report(d)
	},
}

// clamped is a node whose retry settings n8n cuts: what they ask, what
// n8n makes.
type clamped struct {
	n           *n8nschema.Node
	asked, made string
}

// clampedMessage says what the nodes ask and what n8n makes, the lead's
// first: nodes that ask the same are named together (the first three and
// a count), and past three such groups (four when there are four) the
// rest are counted.
func clampedMessage(cs []clamped) string {
	type group struct {
		asked, made string
		names       []string
	}
	var gs []*group
	at := map[[2]string]*group{}
	for _, c := range cs {
		k := [2]string{c.asked, c.made}
		if at[k] == nil {
			at[k] = &group{asked: c.asked, made: c.made}
			gs = append(gs, at[k])
		}
		at[k].names = append(at[k].names, strconv.Quote(c.n.Name))
	}
	limit := 3
	if len(gs) == limit+1 {
		limit++ // the last group said is shorter than its count
	}
	var parts []string
	for i, g := range gs {
		if i == limit {
			rest := 0
			for _, g := range gs[limit:] {
				rest += len(g.names)
			}
			parts = append(parts, fmt.Sprintf("%d more %s for other settings n8n cuts", rest, plural(rest, "node asks", "nodes ask")))
			break
		}
		if len(g.names) == 1 {
			parts = append(parts, fmt.Sprintf("node %s asks for %s; n8n makes %s", g.names[0], g.asked, g.made))
		} else {
			parts = append(parts, fmt.Sprintf("nodes %s ask for %s; n8n makes %s", joinNames(g.names, 3), g.asked, g.made))
		}
	}
	return strings.Join(parts, "; ")
}

// retriesAsRun is the one repair of every node a finding names: each
// node's own (Repairer.RetryAsRun), its edits and descriptions joined.
// A node the repair cannot edit is left out; none at all is the first
// node's reason.
func retriesAsRun(r analyze.Repairer, w *n8nschema.Workflow, cs []clamped) (*analyze.Repair, error) {
	var all *analyze.Repair
	var first error
	var what []string
	for _, c := range cs {
		rep, err := r.RetryAsRun(w, c.n)
		if err != nil || rep == nil {
			if first == nil {
				first = err
			}
			continue
		}
		if all == nil {
			all = &analyze.Repair{Safety: rep.Safety}
		}
		all.Edits = append(all.Edits, rep.Edits...)
		what = append(what, rep.Description)
	}
	if all == nil {
		return nil, first
	}
	all.Description = strings.Join(what, "; ")
	return all, nil
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
