package analyze

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A workflow exported with neither id nor name (the editor's copy of a
// canvas holds only nodes, connections, pinData and meta) is one n8n
// cannot call: Execute Workflow and the workflow tool look their callee up
// by id only (nodes-base ExecuteWorkflow/GenericFunctions.js
// getWorkflowInfo, cli workflow-execute-additional-data.js
// fetchWorkflowData), and n8n never names a workflow after its file: the
// CLI import keeps the JSON as it is (cli commands/import/workflow.js
// readWorkflows, which gives only a missing id a new one) and the name
// column is NOT NULL (@n8n/db migrations/sqlite/1588102412422-
// InitialMigration.js), so such a file imports under no name until a
// person gives it one. Its file name is the exporter's label, not n8n's:
// a call whose id no workflow of the set has is not tied to it by that
// label (a wrong tie would multiply the file's attempts into the caller),
// but RS005 says the file may be the callee rather than that the callee is
// absent from the set.

// fileLabel is the label of a workflow that has neither id nor name and is
// alone in its file: the file's base name without its extension. "" for
// any other workflow (a workflow of an array or an API page shares its
// file name with others).
func fileLabel(w *n8nschema.Workflow) string {
	if w.ID != "" || w.Name != "" || w.Path != "" || w.Source == nil {
		return ""
	}
	base := fileBase(w)
	if base == "." || base == "/" {
		return ""
	}
	return strings.TrimSuffix(base, path.Ext(base))
}

// labelKeys are the names a file label may carry: the label and each of
// its ends that starts after a punctuation mark, leading spaces dropped
// ("Agente Unificado__KB SEARCH" and "01 - KB SEARCH" carry "KB SEARCH";
// "KB SEARCH" does not carry "SEARCH"), so that a folder path flattened
// into the file name or a prefix the exporter adds still shows the
// workflow's name. A call's cached name matches a label when it is one of
// its keys, in any case (a file name's case is the exporter's, and a
// case-insensitive file system keeps no other); the call index and
// Components both read them here, and look a name up by labelKey.
func labelKeys(label string, fn func(key string)) {
	if label == "" {
		return
	}
	label = labelKey(label)
	fn(label)
	for i := 0; i < len(label); {
		r, size := utf8.DecodeRuneInString(label[i:])
		i += size
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r) {
			if k := strings.TrimLeftFunc(label[i:], unicode.IsSpace); k != "" {
				fn(k)
			}
		}
	}
}

// unnamedFiles names the files of workflows a call's cached name may name
// (Call.Unnamed) for RS005: one by name, more by count and the first.
func unnamedFiles(ws []*n8nschema.Workflow) string {
	if len(ws) == 1 {
		return fmt.Sprintf("%q, an export with neither id nor name, carries that name in its file name", fileBase(ws[0]))
	}
	return fmt.Sprintf("%d exports with neither id nor name carry that name in their file names (the first: %q)", len(ws), fileBase(ws[0]))
}

func fileBase(w *n8nschema.Workflow) string {
	return path.Base(strings.ReplaceAll(w.Source.Name, "\\", "/"))
}

// SubworkflowOps are the external calls a run of w started by another
// workflow makes: the live operations its sub-workflow start reaches
// (subworkflowStart), in node order. RS005 names those of a Call.Unnamed
// workflow, which the caller's figures do not count.
func (s *Set) SubworkflowOps(w *n8nschema.Workflow) []*Operation {
	start := subworkflowStart(w)
	if len(start) == 0 {
		return nil
	}
	reach := ReachFrom(s.Graph(w), start...)
	var out []*Operation
	for _, op := range s.OperationsOf(w) {
		if op.Live && reach.Has(op.Node) {
			out = append(out, op)
		}
	}
	return out
}

// labelKey is the form labelKeys gives a key: lower case.
func labelKey(name string) string { return strings.ToLower(name) }
