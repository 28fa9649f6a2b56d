package rules

import "github.com/stormcheck/stormcheck/analyze"

// duplicateSeverity follows what a duplicate write costs the owner
// (analyze.ConsequenceIn): money or a third party (a charge, an order, a
// message to a customer) is an error, a colleague asked twice a warning; a
// second record in the owner's own app, or a write whose endpoint says
// nothing of what it creates, is a warning when every run surely repeats
// it (sure) and a note when it repeats only if a timed-out attempt had
// committed; a nuisance the team shrugs at is a note. ok is false when the
// repeat leaves nothing twice (same state, no effect).
func duplicateSeverity(eff analyze.Effect, sure bool) (sev analyze.Severity, ok bool) {
	switch eff.Consequence {
	case analyze.Harm:
		if eff.Colleague {
			return analyze.Warning, true
		}
		return analyze.Error, true
	case analyze.SecondRecord, analyze.Unclear:
		if sure {
			return analyze.Warning, true
		}
		return analyze.Note, true
	case analyze.Nuisance:
		return analyze.Note, true
	}
	return analyze.Note, false
}
