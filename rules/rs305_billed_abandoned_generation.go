package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
)

// tokensPerSecond is the generation speed assumed for the deadline
// arithmetic: a loaded provider streams a few dozen tokens a second.
const tokensPerSecond = 50

// generousTimeoutMS is a timeout that leaves room for 6,000 output tokens
// at 50 a second: with no cap, only a generation run to the ceiling is cut.
const generousTimeoutMS = 120_000

var rs305 = &analyze.Rule{
	ID:    "RS305",
	Name:  "billed-abandoned-generation",
	Title: "a model call's timeout can abandon a generation still billed",
	Doc: `When the client gives up on a model call (the OpenAI-family nodes time out after the OpenAI SDK's
600 s unless options.timeout says otherwise, and the editor writes 60 s once the option is added;
LmChatOpenAi.node.js in n8n 2.8.4), the provider does not stop: the generation runs to
its end and is billed, and whatever retries the call (the chain's or agent's retryOnFail; an SDK's own retries)
sends the same request again. If the output cap allows a generation
longer than the timeout (at about 50 tokens per second, 4,000 tokens take 80 s), every slow answer is
paid for once per attempt and never received. Either the timeout must leave room for the longest answer
the cap allows, or the cap must fit in the timeout. A call with no cap and a timeout of 120 s or more is a
note: only a run to the model's ceiling is cut, and RS302 reports the missing cap.
A call on n8n's free OpenAI API credits (the managed credential n8n names "n8n free OpenAI API credits") is
left out: it costs the owner nothing, and once the allowance is used n8n refuses every call (docs/n8n-facts.md).`,
	Fix:        "Raise options.timeout above the time the output cap needs (max tokens ÷ 50 per second), or lower the cap",
	FixDoc:     "None: streaming or caching an abandoned generation is a design change.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"spend", "timeouts"},
	Run: func(pass *analyze.Pass) {
		for op := range eachLiveOp(pass) {
			s := op.Spec
			if !op.OwnerPays() || s.TimeoutParam == "" || op.MaxOutputTokens == 0 || !op.Retried() {
				continue
			}
			// A timeout stored at the editor's default (60000 once the
			// option is added) is no choice of the user's.
			ms, explicit := s.TimeoutDefaultMS, false
			if v, ok := op.Node.Param(s.TimeoutParam); ok {
				if f, ok := v.Num(); ok && f > 0 {
					ms, explicit = int(f), int(f) != s.TimeoutDefaultMS && int(f) != s.TimeoutEditorMS
				}
			}
			if ms <= 0 {
				continue
			}
			// Without a cap the ceiling is RS302's to report; here only a
			// cap (or a timeout set by hand) that cannot fit counts.
			if !op.OutputCapped && !explicit {
				continue
			}
			need := op.MaxOutputTokens / tokensPerSecond
			if need*1000 <= ms {
				continue
			}
			limit := "its output cap"
			sev := analyze.Severity(0)
			if !op.OutputCapped {
				limit = "the model's ceiling"
				if ms >= generousTimeoutMS {
					// Room for any answer a task asks for: only a run to
					// the ceiling is cut, and RS302 reports the missing cap.
					sev = analyze.Note
				}
			}
			out := outsideOf(op)
			attempts := attemptsWord(op)
			if out.attempts != "" {
				attempts += ": " + out.attempts
			}
			pass.Report(analyze.Diagnostic{Severity: sev,
				Node: op.Node, Pos: op.Node.Pos,
				Message: fmt.Sprintf("node %q times out after %d s, but %s of %d tokens takes about %d s to generate; an abandoned generation is still billed and then sent again (%s)",
					op.Node.Name, ms/1000, limit, op.MaxOutputTokens, need, attempts),
				Chain: op.Factors, Related: out.attemptsAt,
			})
		}
	},
}
