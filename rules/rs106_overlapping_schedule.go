package rules

import "github.com/stormcheck/stormcheck/analyze"

// rs106: replace every placeholder below; CONTRIBUTING.md says what
// each field is for and how the tests check it.
var rs106 = &analyze.Rule{
	ID:    "RS106",
	Name:  "overlapping-schedule",
	Title: "placeholder: what is wrong, at most 60 characters",
	Doc: `Placeholder: why it matters. Say what n8n does (with the installed file it was read from, as
docs/n8n-facts.md does), what it costs when it goes wrong, and what the rule leaves out on purpose.`,
	Fix:        "Replace this with what to do, starting with a verb",
	FixDoc:     "None: placeholder, say why there is no repair, or add one in package fix",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"placeholder"},
	Run: func(pass *analyze.Pass) {
		// Read the model and the analysis (liveOps(pass), pass.Set.Graph,
		// the helpers in operations.go, loops.go, paths.go, endpoints.go)
		// and report with pass.Report(analyze.Diagnostic{Node: …, Pos: …,
		// Message: …, Chain: op.Factors}).
	},
}
