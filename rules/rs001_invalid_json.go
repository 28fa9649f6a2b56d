package rules

import (
	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs001 = &analyze.Rule{
	ID:    "RS001",
	Name:  "invalid-json",
	Title: "the file is not valid JSON",
	Doc: `The file is empty, does not parse as JSON, or carries data after the JSON value (a title pasted
after the closing brace, a second object, a raw control character inside a string). n8n refuses to import
it, and stormcheck can audit only the part before the damage, if any. The finding points at the first byte
that breaks the parse. A file that cannot be read at all (a broken symlink, no permission, a named pipe or
device, larger than --max-file-size) is reported here too, by path, and the run exits 3. So is JSON nested
more than 512 levels deep, which is not audited.

A key repeated in one object is reported once, at its last copy: JSON parsers disagree on repeats
(RFC 8259 §4), and n8n reads the file with JSON.parse, which keeps the last member of a name and drops
the others. stormcheck reads every object as n8n does. It is a warning when a dropped copy holds
something the kept one does not (a lost edge, a lost parameter value), since a harmless-looking copy can
hide the one n8n runs, and a note when every dropped copy is empty ({}, [], [[]], {"main": [[]]}) or holds
only what the kept one holds: n8n then runs what the author meant. It is a note too, worded so, when what
only a dropped copy holds is something n8n would never read had it been kept: a scalar in a node's
connections above a connection object ("mainFilter": 0, a number under a made-up connection type, which
yields no edge: n8n-workflow's common/map-connections-by-destination.js reads it with for...in), or a
top-level parameter the node's type does not declare at its version (n8n keeps only declared parameters
when it loads a workflow: n8n-workflow's workflow.js, the constructor's NodeHelpers.getNodeParameters).
Such a drop changes no run. Nor does any drop in a file of one workflow n8n cannot build (a node of a type it does
not ship, RS010): no run of it starts, so the finding is a note.`,
	Fix:        "Re-export the workflow from n8n, or remove what follows the closing brace and escape control characters in strings",
	FixDoc:     "None: the file is not JSON; which bytes were meant is a guess stormcheck does not make.",
	Severity:   analyze.Error,
	Confidence: analyze.High,
	Stored:     true,
	Tags:       []string{"input"},
	Scope:      analyze.PerFile,
	Run: func(pass *analyze.Pass) {
		reportProblems(pass, n8nschema.InvalidJSON, 0)
		reportProblems(pass, n8nschema.Unreadable, 0)
		reportProblems(pass, n8nschema.DuplicateKey, analyze.Warning)
	},
}
