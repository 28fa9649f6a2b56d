package rules

import (
	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs002 = &analyze.Rule{
	ID:    "RS002",
	Name:  "not-a-workflow",
	Title: "the input holds no n8n workflow",
	Doc: `The input is valid JSON but has no workflow shape: no "nodes" array with a "connections" object, no
array of workflows, no public-API page {data: [...]}, no template wrapper {workflow: {...}}. A file you name
on the command line that is not a workflow is an error (you asked for it to be audited); a JSON file met
while walking a folder (package.json, a list of categories) is a note, counted in the summary, so that a
folder of exports can hold other files without failing the run.`,
	Fix:        "Point stormcheck at n8n workflow exports (the editor's Download, n8n export:workflow, or the public API)",
	FixDoc:     "None: the file holds no workflow to repair.",
	Severity:   analyze.Error,
	Confidence: analyze.High,
	Stored:     true,
	Tags:       []string{"input"},
	Scope:      analyze.PerFile,
	Run: func(pass *analyze.Pass) {
		sev := analyze.Error
		if !pass.File.Explicit {
			sev = analyze.Note
		}
		reportProblems(pass, n8nschema.NotWorkflow, sev)
	},
}
