package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs009 = &analyze.Rule{
	ID:    "RS009",
	Name:  "duplicate-workflow-id",
	Title: "two workflows of the set share an id",
	Doc: `n8n keeps one workflow per id: importing a file whose workflow has the id of one already there
replaces it (n8n import:workflow upserts each workflow on its id: n8n/dist/services/import.service.js
importWorkflows, @n8n/db's workflow.repository.js upsertImportedContent), without a word: observed on n8n
2.41.1 and 2.8.4 (docs/n8n-facts.md), two files with one id imported one after the other, or together from
one folder, each answer "Successfully imported" with exit 0, and the instance then holds the one imported
last; no check refuses a shared workflow id, unlike a shared node name (RS004) or node id. A call by id (Execute Workflow, Call Workflow Tool, settings.errorWorkflow) reaches
whichever workflow holds the id at run time. Two files with one id are usually a copy (a backup, a build
output, "flow (copy).json") or two workflows cloned by hand; one of them is not what the instance runs,
and an audit that reads both counts it twice: its calls load the dependencies it shares with the others
(RS505), and calls by the id go to one of the two (stormcheck follows the first in name order, as it
resolves any id). The rule reports each shared id once, at the first workflow of the set that has it,
counting the others and naming them as related places (many unrelated files that carry one placeholder id,
such as "1", are one finding). Workflows without an id (a template, a hand-written file) are never compared, nor those whose id is a redacted
export's fill-in ("{{WORKFLOW_ID}}": the real id was taken out, and importing through the editor gives a new one); the
id of a template gallery record ({id, name, totalViews, workflow: {...}}) is the gallery's, not the
workflow's, since importing a template makes a new workflow. An id written as a JSON number (n8n 0.x
exports wrote its integer keys so) is the same id as its text: n8n keeps workflow ids in a varchar
column (@n8n/db entities/abstract-entity.ts WithStringId), so importing id 7 lands on workflow "7". Versions of one workflow kept side by side share the id on purpose
and are not reported: every workflow with the id has the name or file name of the first but for a version mark
that differs ("v1.0.0-financial.json", "v1.1.0-financial.json"; "Sync v2"), or their paths carry version marks
that differ beside other words (folders "5 v1 menu" and "5 v2 menu-tts"), or they are snapshots of one saved
version (one versionId, which n8n renews at each save) that the owner edited apart and labelled ("almost
there", "known good": their names or node counts differ; a copy that differs only in spacing stays a copy), and
near the same content (the
smaller has two thirds of the other's nodes or is within three, and four in five of the kinds of call it makes,
node type and service, the other makes too): importing the newer over the older is what a version is for.
Copies of one workflow (every workflow with the id has its name, but for spacing, and near the
same content: a backup kept beside the workflow it was taken from) are said as such: importing them keeps the one
imported last, which is the owner's choice of version and no clash between two workflows; the note remains
because an audit that reads every copy counts the workflow's calls once for each.`,
	Fix:    "Leave the copy out of the audit (delete it, list it under exclude: in .stormcheck.yaml, or .gitignore it), or give the clone a new id by importing it as a new workflow",
	FixDoc: "None: which copy is the real one is the owner's to say.",
	// A note: the copy misleads the audit (and an import), not the
	// instance, which holds one workflow per id whatever the files say.
	Severity:   analyze.Note,
	Confidence: analyze.High,
	Stored:     true,
	Tags:       []string{"input", "call-graph"},
	RunSet: func(pass *analyze.SetPass) {
		// One finding per id, at the first workflow of the set (set order
		// is name order, whatever the argument order) with every other as
		// a related place: a placeholder id that many unrelated files
		// carry is one fact, not one per file.
		byID := map[string][]*analyze.WorkflowSummary{}
		var ids []string
		for i := range pass.Workflows {
			w := &pass.Workflows[i]
			if w.ID == "" || n8nschema.FillInID(w.ID) {
				continue // no id, or a redacted export's fill-in in its place
			}
			if _, ok := byID[w.ID]; !ok {
				ids = append(ids, w.ID)
			}
			byID[w.ID] = append(byID[w.ID], w)
		}
		for _, id := range ids {
			ws := byID[id]
			if len(ws) < 2 {
				continue
			}
			f, others := ws[0], ws[1:]
			if !slices.ContainsFunc(others, func(o *analyze.WorkflowSummary) bool { return !versionsOf(f, o) }) {
				continue // versions of one workflow: the id is shared on purpose
			}
			related := make([]analyze.Related, len(others))
			for i, o := range others {
				related[i] = analyze.Related{File: o.Source.Name, Pos: o.Pos, Source: o.Source, Message: "workflow " + strconv.Quote(o.Label()) + " has the id " + strconv.Quote(id) + " too"}
			}
			var msg string
			copies := !slices.ContainsFunc(others, func(o *analyze.WorkflowSummary) bool { return !copiesOf(f, o) })
			if o := others[0]; copies && len(others) == 1 {
				where := "in another file"
				if f.Source == o.Source {
					where = "later in this file"
				}
				msg = fmt.Sprintf("workflow %q and workflow %q %s are copies of one workflow (one id %q, one name, near the same nodes): importing both keeps the one imported last, the owner's choice of version, not a clash of two workflows; an audit that reads both counts the workflow's calls twice",
					f.Label(), o.Label(), where, id)
			} else if copies {
				msg = fmt.Sprintf("workflow %q and %d other workflows of the set (%s) are copies of one workflow (one id %q, one name, near the same nodes): importing them all keeps the one imported last, the owner's choice of version, not a clash of workflows; an audit that reads them all counts the workflow's calls once for each",
					f.Label(), len(others), someLabels(others, 3), id)
			} else if len(others) == 1 {
				where := "in another file" // the related place names it
				if f.Source == o.Source {
					where = "later in this file"
				}
				msg = fmt.Sprintf("workflow %q shares its id %q with workflow %q %s: n8n keeps one workflow per id, so importing both replaces one with the other, and calls by this id reach only one of them",
					f.Label(), id, o.Label(), where)
			} else {
				msg = fmt.Sprintf("workflow %q shares its id %q with %d other workflows of the set (%s): n8n keeps one workflow per id, so importing them all leaves only the last, and calls by this id reach only one of them",
					f.Label(), id, len(others), someLabels(others, 3))
			}
			pass.Report(f, nil, analyze.Diagnostic{Message: msg, Detail: f.Source.Name, Related: related})
		}
	},
}

// someLabels names the first n workflows of ws and counts the rest.
func someLabels(ws []*analyze.WorkflowSummary, n int) string {
	var b strings.Builder
	for i, w := range ws[:min(n, len(ws))] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(w.Label()))
	}
	if len(ws) > n {
		fmt.Fprintf(&b, " and %d more", len(ws)-n)
	}
	return b.String()
}
