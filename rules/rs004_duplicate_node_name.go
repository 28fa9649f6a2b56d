package rules

import (
	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs004 = &analyze.Rule{
	ID:    "RS004",
	Name:  "duplicate-node-name",
	Title: "two nodes share a name",
	Doc: `Connections and expressions ($('Node name')) refer to nodes by name, so two nodes with one name make
the graph ambiguous: n8n keeps only the last node of a name (n8n-workflow's workflow.js setNodes) and
connections reach it, while stormcheck follows the first. The editor never produces this; it comes from
hand edits and merges of exported JSON. One finding per name, however many copies. Two shapes are notes,
once per workflow: every copy runs as its first does, the same type, version, parameters, credentials
and settings, differing at most in id and canvas position (an export a tool doubled, a node pasted
twice: whichever copy n8n keeps runs the same, so stormcheck judges that one node once, with the name's
connections, and never a copy on its own), and a nodes array that holds several workflows pasted one
after another, each with its own trigger.

n8n 2.41.1 refuses such a workflow (observed, docs/n8n-facts.md): its structure check
(n8n-workflow's workflow-structure-validation.js safeParseWorkflowStructure, called through
n8n/dist/workflow-helpers.js validateWorkflowStructure from services/import.service.js importWorkflows and
workflows/workflow-creation.service.js createWorkflow, and from workflows/workflow.service.js when an update
saves nodes) answers "Workflow structure is invalid. nodes[2].name (duplicate_node_name): Duplicate node name
"Set"". n8n import:workflow then exits 1 and imports nothing of that run, the other files of a folder
included; POST /rest/workflows (the editor's save), PATCH /rest/workflows/:id and POST /api/v1/workflows
answer HTTP 400. The editor's own import (from a file, a URL or a paste) does not run that check and does not
refuse the file. n8n 2.8.4 imports the file
without a word, and a workflow stored before an upgrade is not checked again until it is saved, so it runs as
above: the severity follows those runs, and every message says which ways in 2.41.1 refuses. The same check refuses nodes that share an id ("Nodes "Set A" and "Set B"
share the node ID ..."), which 2.8.4 also imports; stormcheck does not report a shared node id.`,
	Fix:        "Rename one of the nodes in the n8n editor, which also updates connections and expressions",
	FixDoc:     "None: renaming a node changes every expression that names it ($('Name')); n8n's editor renames them together.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Stored:     true,
	Tags:       []string{"input"},
	Run: func(pass *analyze.Pass) {
		reportProblems(pass, n8nschema.DuplicateName, 0)
	},
}
