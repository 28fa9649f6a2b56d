package rules

import (
	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// reportProblems turns the parser's problems of one kind into findings.
// RS001–RS004 differ only in which kind they report.
func reportProblems(pass *analyze.Pass, kind n8nschema.ProblemKind, sev analyze.Severity) {
	var probs []n8nschema.Problem
	if pass.Workflow == nil {
		probs = pass.File.Problems
	} else {
		probs = pass.Workflow.Problems
	}
	for _, p := range probs {
		if p.Kind != kind {
			continue
		}
		d := analyze.Diagnostic{Pos: p.Pos, Message: p.Message, Detail: p.Pos.Path + "\x00" + p.Message, Severity: sev}
		if pass.Workflow != nil && p.Node != "" {
			d.Node = pass.Workflow.Node(p.Node)
		}
		pass.Report(d)
	}
}
