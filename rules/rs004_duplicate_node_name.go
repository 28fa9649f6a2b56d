package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs004 = &analyze.Rule{
	ID:    "RS004",
	Name:  "duplicate-node-name",
	Title: "two nodes share a name or an id",
	Doc: `Connections and expressions ($('Node name')) refer to nodes by name, so two nodes with one name make
the graph ambiguous: n8n keeps only the last node of a name (n8n-workflow's workflow.js setNodes) and
connections reach it, while stormcheck follows the first. The editor never produces this; it comes from
hand edits and merges of exported JSON. One finding per name, however many copies. Two shapes are notes,
once per workflow: every copy runs as its first does, the same type, version, parameters, credentials
and settings, differing at most in id and canvas position (an export a tool doubled, a node pasted
twice: whichever copy n8n keeps runs the same, so stormcheck judges that one node once, with the name's
connections, and never a copy on its own), and a nodes array that holds several workflows pasted one
after another, each with its own trigger.

n8n 2.41.1's import:workflow and APIs refuse such a workflow (observed, docs/n8n-facts.md): its structure check
(n8n-workflow's workflow-structure-validation.js safeParseWorkflowStructure, called through
n8n/dist/workflow-helpers.js validateWorkflowStructure from services/import.service.js importWorkflows and
workflows/workflow-creation.service.js createWorkflow, and from workflows/workflow.service.js when an update
saves nodes) answers "Workflow structure is invalid. nodes[2].name (duplicate_node_name): Duplicate node name
"Set"". n8n import:workflow then exits 1 and imports nothing of that run, the other files of a folder
included; POST /rest/workflows (the editor's save), PATCH /rest/workflows/:id and POST /api/v1/workflows
answer HTTP 400. The editor's own import (from a file, a URL or a paste) does not run that check and does not
refuse the file. n8n 2.8.4 imports the file without a word, and a workflow stored before an upgrade is not
checked again until it is saved, so it runs as above: the severity follows those runs, and every message says
which ways in 2.41.1 refuse it.

The same check refuses nodes that share an id, and RS004 reports that too, as a note. It compares the id
of every node of the array, sticky notes and disabled nodes included, when the id is a string and not
empty, exactly (case and spaces count); a missing or empty id is skipped (the backend gives one on save),
and an id that is no string fails the check's schema before any comparison. It answers once per later
node that holds the id, naming the first: "Nodes "Set A" and "Set B" share the node ID "..."". n8n 2.8.4
imports such a workflow. stormcheck reports one note per shared id, at the second node that holds it,
with the other holders as related places; nodes that share both an id and a name are the name's finding
(a doubled export, a pasted copy). A note: the owner sees the refusal at once, and a run of the stored
workflow finds its nodes by name (workflow.js setNodes; connections, expressions, pinned data and run
data name nodes). The editor, opening such a stored workflow, shows the structure issues
(openWorkflow.workflowDataInvalidError, n8n-editor-ui useWorkflowInitialization) and renders it all the
same, but refuses a save of its nodes. What the id keys at run time in 2.41.1: n8n-core keeps one trigger
registration per node id of an active workflow (execution-engine/workflow-active-triggers-state.js
getOrCreateRegistration, active-workflow-triggers.js startTriggers), so of two trigger nodes with one id
only the later one's response is kept, and deactivating the workflow closes only that one (remove,
closableTriggers). The editor's import gives every node a new id (regenerateIds, its default), so it takes
the file. An id that is a placeholder ("[CENSORED]", "{{NODE_ID}}", "REPLACE_WITH_…") is not reported: a
redacted export or a template left it where distinct ids were, and the editor's import replaces it.`,
	Fix:        "Rename one of the nodes in the n8n editor, which also updates connections and expressions",
	FixDoc:     "None: renaming a node changes every expression that names it ($('Name')); n8n's editor renames them together.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Stored:     true,
	Tags:       []string{"input"},
	Run: func(pass *analyze.Pass) {
		reportProblems(pass, n8nschema.DuplicateName, 0)
		reportSharedIDs(pass)
	},
}

// reportSharedIDs reports nodes that share an id, as n8n 2.41.1's
// structure check finds them (n8n-workflow
// dist/cjs/workflow-structure-validation.js safeParseWorkflowStructure):
// every node of the nodes array, sticky notes and disabled nodes
// included, whose id is a string and not empty; an id met again is an
// issue at the later node ("Nodes "A" and "B" share the node ID ..."),
// naming the first node that holds it. A missing or empty id is skipped
// there (the backend gives one on save); an id of another JSON kind fails
// the schema instead, before any such comparison. One note per shared id,
// at the second node that holds it, the others as related places. Nodes
// that share the id and one name are the name's finding already (a
// doubled export, a pasted copy).
func reportSharedIDs(pass *analyze.Pass) {
	w := pass.Workflow
	if w == nil {
		return
	}
	if !mayShareID(w.Nodes) {
		return // most workflows: every id its own
	}
	// Most ids are unique: a node's id is kept alone until a second node
	// holds it, and only a shared one is read further.
	first := make(map[string]*n8nschema.Node, len(w.Nodes))
	var order []string
	var holders map[string][]*n8nschema.Node
	for _, n := range w.Nodes {
		if n.ID == "" {
			continue
		}
		f, ok := first[n.ID]
		if !ok {
			first[n.ID] = n
			continue
		}
		if holders == nil {
			holders = map[string][]*n8nschema.Node{}
		}
		if _, ok := holders[n.ID]; !ok {
			order = append(order, n.ID)
			holders[n.ID] = []*n8nschema.Node{f}
		}
		holders[n.ID] = append(holders[n.ID], n)
	}
	// In the order of the first holders, as the nodes array has them.
	slices.SortFunc(order, func(a, b string) int { return cmp.Compare(first[a].Pos.Offset, first[b].Pos.Offset) })
	for _, id := range order {
		if n8nschema.Placeholder(id) || n8nschema.FillInID(id) {
			continue // a redaction's or a template's placeholder stands where distinct ids were
		}
		// A string id: one that is no string fails n8n's schema first.
		ns := slices.DeleteFunc(holders[id], func(n *n8nschema.Node) bool { return n.Value.Get("id").Kind() != n8nschema.String })
		if len(ns) < 2 || !slices.ContainsFunc(ns[1:], func(n *n8nschema.Node) bool { return n.Name != ns[0].Name }) {
			continue
		}
		first, second := ns[0], ns[1]
		who := fmt.Sprintf("nodes %q and %q share", first.Name, second.Name)
		issue := ""
		if len(ns) > 2 {
			names := make([]string, 0, 3)
			for _, n := range ns[:3] {
				names = append(names, strconv.Quote(n.Name))
			}
			more := ""
			if len(ns) > 3 {
				more = fmt.Sprintf(" and %d more", len(ns)-3)
			} else {
				names[2] = "and " + names[2]
			}
			who = fmt.Sprintf("%d nodes (%s%s) share", len(ns), strings.Join(names, ", "), more)
			issue = fmt.Sprintf(", and so for each of the %d later nodes", len(ns)-1)
		}
		d := analyze.Diagnostic{
			Node:     second,
			Severity: analyze.Note,
			Detail:   "id\x00" + id,
			Message: fmt.Sprintf("%s the node id %q; n8n 2.41.1's import:workflow and API refuse this workflow: Nodes %q and %q share the node ID %q%s (2.8.4 takes it, the editor's import gives new ids, and a run finds nodes by name)",
				who, id, first.Name, second.Name, id, issue),
			Fix: "Give each node but one a new id of its own (a new UUID): connections, expressions and pinned data name nodes, not ids",
		}
		for i, n := range ns {
			if i == 1 {
				continue
			}
			what := fmt.Sprintf("node %q holds the id %q first", n.Name, id)
			if i > 1 {
				what = fmt.Sprintf("node %q holds the id %q too", n.Name, id)
			}
			d.Related = append(d.Related, analyze.Related{File: pass.File.Source.Name, Pos: n.Pos, Source: pass.File.Source, Message: what})
		}
		pass.Report(d)
	}
}

// mayShareID reports whether two of nodes may hold one id that is not
// empty: whether two ids have one idKey. Nodes that share an id always
// do; a false answer is certain.
func mayShareID(nodes []*n8nschema.Node) bool {
	var buf [64]uint64 // most workflows: no allocation
	keys := buf[:0]
	for _, n := range nodes {
		if n.ID != "" {
			keys = append(keys, idKey(n.ID))
		}
	}
	slices.Sort(keys)
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			return true
		}
	}
	return false
}

// idKey is a digest of a node id: its length and its first and last
// eight bytes (an id n8n gives is a random UUID). Ids with one key may
// differ; one id has one key.
func idKey(id string) uint64 {
	if len(id) < 8 {
		k := uint64(len(id))
		for i := 0; i < len(id); i++ {
			k = k<<8 | uint64(id[i])
		}
		return k
	}
	tail := le64(id[len(id)-8:])
	return le64(id) ^ (tail<<32 | tail>>32) ^ uint64(len(id))<<56
}

// le64 is the first eight bytes of s (at least eight), little-endian.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
