package rules

import (
	"embed"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

// examples holds every rule's documentation examples, named by rule ID:
// RSNNN.bad.json fires the rule, RSNNN.good.json is the same workflow
// fixed, RSNNN.bad.out is what `stormcheck audit RSNNN.bad.json` prints,
// and RSNNN.stormcheck.yaml, when present, is the config both run with.
// TestExamples audits them and keeps the .out files current.
//
//go:embed examples
var examples embed.FS

func init() {
	for _, r := range All() {
		r.Examples = analyze.Examples{
			Bad:    example(r.ID + ".bad.json"),
			Good:   example(r.ID + ".good.json"),
			Output: example(r.ID + ".bad.out"),
			Config: example(r.ID + ".stormcheck.yaml"),
		}
	}
}

// example is one file of examples/, "" when it is missing (TestExamples
// names what is missing).
func example(name string) string {
	b, err := examples.ReadFile("examples/" + name)
	if err != nil {
		return ""
	}
	return strings.TrimRight(string(b), "\n") + "\n"
}
