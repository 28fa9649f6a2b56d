package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers of the rules about the layers outside n8n (RS106, RS203, RS204,
// RS306, RS307): work that runs again because a sender redelivers, a
// schedule re-reads, or a run starts while the last one still goes; and
// who from outside can start a run (a messaging bot's wording).

// repeated is what a run repeats when it runs once more for the same
// input: its writes that leave a second effect, the worst first, and its
// paid calls.
type repeated struct {
	writes []*analyze.Operation
	worst  analyze.Effect
	paid   []*analyze.Operation
}

// repeatedFrom collects what a run started at t repeats among the nodes
// in reach: writes whose duplicate is a second effect (ConsequenceIn),
// without an idempotency key, and not behind a Remove Duplicates that
// drops what earlier executions saw; and paid calls the runs get to.
func repeatedFrom(pass *analyze.Pass, t *n8nschema.Node, reach analyze.Reach) repeated {
	return repeatedFromAll(pass, []*n8nschema.Node{t}, reach)
}

// repeatedFromAll is repeatedFrom for runs started at any of starts.
func repeatedFromAll(pass *analyze.Pass, starts []*n8nschema.Node, reach analyze.Reach) repeated {
	var r repeated
	g := pass.Set.Graph(pass.Workflow)
	deduped := analyze.Behind(g, reach, starts, analyze.DedupesAcrossExecutions)
	claimed := analyze.BehindClaim(g, reach) // a repeat takes the refused branch
	var billed analyze.Reach                 // found on first need
	billedMade := false
	for op := range eachLiveOp(pass) {
		if !reach.Has(op.Node) || deduped[op.Node] || claimed[op.Node] {
			continue
		}
		if op.Paid {
			// A paid call bills only where the runs get before they must
			// fail (RunReach): not a tool of an agent that fails first.
			if !billedMade {
				billed, billedMade = analyze.RunReach(g, starts...), true
			}
			if billed.Has(op.Node) {
				r.paid = append(r.paid, op)
			}
			continue
		}
		if !madeWrite(op) || !op.Consequence().Duplicates() {
			continue
		}
		if k, ok := n8nschema.IdempotencyKeyOf(op.Node); ok {
			if st, _ := n8nschema.ClassifyKey(k.Value); st != n8nschema.KeyEmpty {
				continue // the receiving API drops the repeat
			}
		}
		eff := analyze.ConsequenceIn(g, op.Node)
		// A colleague asked twice is less than a customer (Effect.Colleague).
		worse := eff.Consequence > r.worst.Consequence || eff.Consequence == r.worst.Consequence && r.worst.Colleague && !eff.Colleague
		if len(r.writes) == 0 || worse {
			r.worst = eff
			r.writes = append([]*analyze.Operation{op}, r.writes...)
		} else {
			r.writes = append(r.writes, op)
		}
	}
	return r
}

// withLayer is an operation's chain with an outer layer before it.
func withLayer(f analyze.Factor, op *analyze.Operation) []analyze.Factor {
	out := make([]analyze.Factor, 0, 1+len(op.Factors))
	return append(append(out, f), op.Factors...)
}

// counted writes a count with the singular or plural words: "1 paid call
// is", "3 paid calls are".
func counted(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, plural(n, one, many))
}

// anyIn reports whether one of nodes is in reach.
func anyIn(nodes []*n8nschema.Node, reach analyze.Reach) bool {
	for _, n := range nodes {
		if reach.Has(n) {
			return true
		}
	}
	return false
}

// botKind says of bot trigger t (analyze.Exposure "bot") that it answers
// whoever writes, as a format for the trigger's name.
func botKind(t *n8nschema.Node) string {
	if t.Type != n8nschema.TypeTelegramTrigger {
		return "WhatsApp number %q answers anyone who writes to it (no test of the sender that keeps strangers out)"
	}
	if t.TypeVersion < 1.2 && (t.Params().Get("additionalFields.chatIds").Str() != "" || t.Params().Get("additionalFields.userIds").Str() != "") {
		// TelegramTrigger.node.js webhook(): the lists apply from 1.2.
		return "Telegram bot %q answers anyone who writes to it (its Restrict to Chat/User IDs is not applied before trigger version 1.2, and no test of the sender that keeps strangers out)"
	}
	return "Telegram bot %q answers anyone who writes to it (no chat or user restriction, no test of the sender that keeps strangers out)"
}

// botFix says how to keep strangers out of bot trigger t's runs.
func botFix(t *n8nschema.Node) string {
	if t.Type == n8nschema.TypeTelegramTrigger {
		return "set the trigger's Restrict to Chat IDs or User IDs to the owner's (version 1.2 or later), or test the sender before the call"
	}
	return "test the sender's number against the owner's list before the call"
}
