package rules

import (
	"embed"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

// examples holds every rule's documentation examples, named by rule ID:
// RSNNN.bad.json fires the rule, RSNNN.good.json is the same workflow
// fixed, RSNNN.bad.out is what `stormcheck audit --enable RSNNN
// RSNNN.bad.json` prints (only that rule runs), and RSNNN.stormcheck.yaml,
// when present, is the config both run with. TestExamples audits them and
// keeps the .out files current.
//
//go:embed examples
var examples embed.FS

// examplesOf reads the examples of the rule id.
func examplesOf(id string) analyze.Examples {
	return analyze.Examples{
		Bad:    example(id + ".bad.json"),
		Good:   example(id + ".good.json"),
		Output: example(id + ".bad.out"),
		Config: example(id + ".stormcheck.yaml"),
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
