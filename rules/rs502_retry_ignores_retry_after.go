package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs502 = &analyze.Rule{
	ID:    "RS502",
	Name:  "retry-ignores-retry-after",
	Title: "node retries hit a rate-limited service without Retry-After",
	Doc: `Rate-limited APIs (OpenAI, Anthropic, Slack, Airtable, Notion, HubSpot, GitHub, Google Sheets, Shopify,
Stripe, ...) answer 429 when a caller goes over its quota, and say when to come back in their own way: a
Retry-After header (OpenAI, Anthropic, Slack, Notion, Microsoft Graph, Shopify, Discord), a reset-time header
(GitHub, X), the delay in the error body (Gemini's RetryInfo retryDelay, Telegram's retry_after), a fixed
penalty (Airtable refuses every request for 30 s), or nothing but a request to back off exponentially while a
per-minute quota refills (Google Sheets, Google Drive, Stripe). n8n's node retry reads none of it: it waits
its fixed waitBetweenTries (1 s by default, 5 s at most) and tries again
(packages/core/src/execution-engine/workflow-execute.ts). Whether that lands in the window that refused the
try before depends on the span the service counts its limit over, from its docs: a minute for OpenAI, Gemini,
Groq, Google Sheets, Google Drive and Firecrawl; 60 seconds per connection for Notion, whose Retry-After is up
to a minute; Airtable's 30 s of refusals; X's 15 minutes. There a node with 5 tries spends all of them inside
the same window and fails anyway, having added to the load that caused the 429. Stripe counts per second and
Shopify's bucket leaks 2 requests a second: a wait of 1 s or more reaches the next window, and the rule is
silent. For a service whose docs give no one span (Anthropic refills continuously, Telegram publishes no
limits, Slack's go by method) it reports, and says the window is not known. The message says what
the service's 429 carries. A service that counts the requests in flight at once instead of a window
(ElevenLabs: 2 on its Free plan up to 15 on Business, help.elevenlabs.io "API - Error Code 429") refuses a try
again only while as many requests are still in flight: the node's items, which HTTP Request sends together
(HttpRequestV3.node.js), or its runs at once. When the node can never have more in flight than the smallest
plan allows (the workflow's runs at once, one for a run a person starts in the editor or a workflow with no
trigger, times the items one run
sends together, --items, one for a node that runs once or one item after another), the rule is silent: its
429 is then the service's busy answer (system_busy), which ElevenLabs says a plain retry clears.
Slack's retry loop and LangChain's (for embeddings) honour Retry-After; the node retry around them does not,
and a chat model under a chain or agent does not retry at all: n8n stops LangChain's retries at its first
failure, 429 included. An HTTP Request with Never Error and Full Response
(options.response.response) hands a 429 on as an item ({body, headers, statusCode}), which ends no try: its
retry fires only on a request with no answer, and the rule is silent (nodes-base HttpRequestV3.node.js,
@n8n/backend-network http/legacy-request.js). Without Full Response the item is the answer's body, and n8n
(2.8.4 and 2.41.1) retries a node whose first item has an "error" field, as OpenAI's and Google's error bodies do.`,
	Fix: "Space the calls below the service's rate limit (batching with an interval, a Wait in the loop) instead of relying on node retries, or retry in a Code node that honours Retry-After",
	FixDoc: `None: no node in n8n 2.8.4 that this rule reports has an option that honours Retry-After (checked against
the nodes' properties in n8n-nodes-base and n8n-nodes-langchain). HTTP Request's batching (Items per Batch, Batch
Interval) and pagination's Interval Between Requests only pace requests at a fixed rate, and Slack's, Telegram's
and Discord's Limit Wait Time is for send-and-wait replies. Model sub-nodes are retried only by their chain
or agent, which this rule leaves to RS101 and RS104; their own retryOnFail n8n ignores.`,
	Severity:   analyze.Note,
	Confidence: analyze.Medium,
	Tags:       []string{"retries", "rate-limits"},
	Run: func(pass *analyze.Pass) {
		for op := range eachLiveOp(pass) {
			n := op.Node
			k := op.OwnRetries()
			// With Never Error and Full Response a 429 is an item: no try ends on it.
			if k < 2 || n8nschema.AnswersStatusAsItem(n) {
				continue
			}
			rl, ok := n8nschema.RateLimitOf(n.Type, analyze.URLHost(n))
			if !ok {
				continue
			}
			wait := analyze.RetryWaitMS(n)
			var why string
			switch {
			case rl.WindowMS > 0 && wait >= rl.WindowMS:
				continue // the next try comes after the window that refused the last
			case rl.InFlight:
				most, items := inFlightAtMost(pass, op)
				if most > 0 && most <= rl.InFlightFloor {
					continue // within every plan's concurrency: its 429 is the busy one, which a plain retry clears
				}
				why = ": it counts the requests in flight, not a window, so a try meets the limit again while the same call in the workflow's other runs at once is still in flight"
				if items {
					why = ": it counts the requests in flight, not a window, so a try meets the limit again while the node's other items, which each try re-sends together, are still in flight"
				}
			case rl.WindowMS == 0:
				why = "; the window it counts its limit over is not known, so the tries may land in the one that refused them"
			case rl.Window != "":
				why = "; it counts its limit " + rl.Window + ": the tries land in the same rate-limit window"
			default:
				why = ": the tries land in the same rate-limit window"
			}
			pass.Report(analyze.Diagnostic{
				Node: n, Pos: n.Pos,
				Message: fmt.Sprintf("node %q tries %s %d times, a fixed %d ms apart whatever the answer; %s answers %s%s",
					n.Name, rl.Service, k, wait, rl.Service, rl.Answer, why),
				Confidence: rl.Conf,
				Chain:      op.Factors,
			})
		}
	},
}

// inFlightAtMost is the most requests op's node can have in flight at once
// (0 when not known), and whether its items send several of them per run:
// the runs of the workflow at once (one for a run a person starts in the
// editor and watches, analyze.Watched, or of a workflow with no trigger,
// which only the editor runs; analyze.RunsAtOnce otherwise, 0
// when the instance's concurrency decides, as for a service's webhook,
// and one more when a run resumed by a person's answer calls op's
// dependency, analyze.ResumedCalls)
// times the requests one run sends together: its items (--items), all
// started before any answer is read (HttpRequestV3.node.js L533-583), or
// one for a node that runs once (executeOnce) or runs its items one
// after another and throws at the first that fails.
func inFlightAtMost(pass *analyze.Pass, op *analyze.Operation) (most int, items bool) {
	perRun := max(pass.Options.Items, 1)
	if op.Node.ExecuteOnce || op.FirstFailureEndsTry {
		perRun = 1
	}
	runs := 1
	if !watched(pass, op.Node) && !untriggered(pass) {
		runs, _ = analyze.RunsAtOnce(pass.Set, pass.Workflow)
		if runs > 0 && op.Spec != nil && analyze.ResumedCalls(pass.Set, pass.Workflow)[analyze.DependencyIdentity(op)] {
			runs++ // a run a person's answer resumes calls it too
		}
	}
	return runs * perRun, perRun > 1
}
