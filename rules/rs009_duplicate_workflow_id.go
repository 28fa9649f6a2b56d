package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs009 = &analyze.Rule{
	ID:    "RS009",
	Name:  "duplicate-workflow-id",
	Title: "two workflows of the set share an id",
	Doc: `n8n keeps one workflow per id: importing a file whose workflow has the id of one already there
replaces it (n8n import:workflow upserts each workflow on its id: packages/cli/src/services/import.service.ts
importWorkflows), and a call by id (Execute Workflow, Call Workflow Tool, settings.errorWorkflow) reaches
whichever workflow holds the id at run time. Two files with one id are usually a copy (a backup, a build
output, "flow (copy).json") or two workflows cloned by hand; one of them is not what the instance runs,
and an audit that reads both counts it twice: its calls load the dependencies it shares with the others
(RS505), and calls by the id go to one of the two (stormcheck follows the first in name order, as it
resolves any id). The rule reports every workflow whose id an earlier one of the set has, with the first
as the related place. Workflows without an id (a template, a hand-written file) are never compared; the
id of a template gallery record ({id, name, totalViews, workflow: {...}}) is the gallery's, not the
workflow's, since importing a template makes a new workflow. An id written as a JSON number (n8n 0.x
exports wrote its integer keys so) is the same id as its text: n8n keeps workflow ids in a varchar
column (@n8n/db entities/abstract-entity.ts WithStringId), so importing id 7 lands on workflow "7".`,
	Fix:    "Leave the copy out of the audit (delete it, list it under exclude: in .stormcheck.yaml, or .gitignore it), or give the clone a new id by importing it as a new workflow",
	FixDoc: "None: which copy is the real one is the owner's to say.",
	// A note: the copy misleads the audit (and an import), not the
	// instance, which holds one workflow per id whatever the files say.
	Severity:   analyze.Note,
	Confidence: analyze.High,
	Tags:       []string{"input", "call-graph"},
	RunSet: func(pass *analyze.SetPass) {
		first := map[string]*analyze.WorkflowSummary{} // the first workflow of the set with each id
		for i := range pass.Workflows {
			w := &pass.Workflows[i]
			if w.ID == "" {
				continue
			}
			f, ok := first[w.ID]
			if !ok {
				first[w.ID] = w
				continue
			}
			where := "in another file" // the related place names it
			if f.Source == w.Source {
				where = "earlier in this file"
			}
			pass.Report(w, nil, analyze.Diagnostic{
				Message: fmt.Sprintf("workflow %q has the id %q of workflow %q %s: n8n keeps one workflow per id, so importing both replaces one with the other, and calls by this id reach only one of them",
					w.Label(), w.ID, f.Label(), where),
				Detail:  w.Source.Name,
				Related: []analyze.Related{{File: f.Source.Name, Pos: f.Pos, Source: f.Source, Message: fmt.Sprintf("workflow %q has the id %q first", f.Label(), w.ID)}},
			})
		}
	},
}
