package rules

import "github.com/stormcheck/stormcheck/analyze"

// rs006 has no Run of its own: rules never read notes. analyze.Filter, which
// reads the ignore directives, reports under it when it is enabled.
var rs006 = &analyze.Rule{
	ID:    analyze.UnusedIgnoreID,
	Name:  "unused-ignore",
	Title: "ignore directive is malformed, unused or expired",
	Doc: `An ignore directive ("stormcheck:ignore RS201 -- reason" in a node's notes, or in a sticky note whose
rectangle covers the node on the canvas) hides a finding from every report. A directive without a reason, or
naming a rule that does not exist, ignores nothing and says so. A directive that matches no finding is stale:
the problem it excused was fixed or moved, and left in place it would silently hide the next one. An ignore
entry of the config file whose expires date has passed stops working and is reported at its line.

These findings are made while filtering, after every rule has run, so a directive is only called unused when
all the rules it names ran (a run with --enable RS1* does not report directives for RS201). Disable this
rule to stop the reports; --no-ignores turns every directive and ignore entry off instead.`,
	Fix:        "Give the directive a reason after \" -- \", or remove it when the finding it was written for is gone",
	FixDoc:     "None: whether a directive is stale or its finding will come back is the author's call; delete it by hand.",
	Severity:   analyze.Note,
	Confidence: analyze.High,
	Stored:     true,
	Tags:       []string{"input", "suppression"},
	Run:        func(*analyze.Pass) {},
}
