package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs008 = &analyze.Rule{
	ID:    "RS008",
	Name:  "lost-parameters",
	Title: "every node's parameters are empty: the export lost them",
	Doc: `n8n leaves out of an export only the parameters that equal their defaults
(packages/workflow/src/node-helpers.ts getNodeParameters), so a node that needs a value to run (an HTTP
Request's URL, an If's conditions, an Execute Workflow's workflow, an app node's record or channel) always
has one in a real export. A file where every node's parameters are empty, one of them such a node, lost them
on the way: gallery templates and pages that share only the shape of a workflow. Read as it stands, every
parameter takes its default (a folder listing becomes an upload, a search tool an event create), so the other
rules' findings there describe a workflow nobody built: they are kept as notes. Reported once per workflow.`,
	Fix:        "Export the workflow from n8n again (Download, or n8n export:workflow), which keeps every parameter that differs from its default",
	FixDoc:     "None: the values are gone from the file; only the author's n8n has them.",
	Severity:   analyze.Note,
	Confidence: analyze.High,
	Stored:     true,
	Tags:       []string{"input"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		if w == nil || !w.ParametersLost {
			return
		}
		var need []string
		for _, n := range w.Nodes {
			if !n.IsSticky() && n8nschema.NeedsParameters(n) {
				need = append(need, fmt.Sprintf("%q", n.Name))
			}
		}
		more := ""
		if len(need) > 3 {
			more = fmt.Sprintf(" and %d more", len(need)-3)
			need = need[:3]
		}
		pass.Report(analyze.Diagnostic{Pos: w.Pos, Message: fmt.Sprintf(
			"every node's parameters are empty, though %s%s cannot run that way: the export lost its parameters, and findings that read them are notes here",
			strings.Join(need, ", "), more)})
	},
}
