package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// problemFix is the fix of a problem kind that a rule reports besides its
// main one; the rule's own Fix serves the others.
var problemFix = map[n8nschema.ProblemKind]string{
	n8nschema.DuplicateKey: "Remove the earlier member: n8n ignores it, but people and other tools reading the file see it",
	n8nschema.Unreadable:   "Make the path a readable regular file (fix or remove the symlink, the permissions), or raise --max-file-size for a larger export",
}

// reportProblems turns the parser's problems of one kind into findings.
// RS001–RS004 differ only in which kind they report.
func reportProblems(pass *analyze.Pass, kind n8nschema.ProblemKind, sev analyze.Severity) {
	var probs []n8nschema.Problem
	if pass.Workflow == nil {
		probs = pass.File.Problems
	} else {
		probs = pass.Workflow.Problems
	}
	// A workflow n8n cannot build runs no node (RS010 reports it): what a
	// connection, or a copy JSON.parse drops, would do to its runs never
	// happens.
	var unbuilt *n8nschema.Node
	var conns *connJudge
	if kind == n8nschema.BrokenConnection && pass.Workflow != nil {
		if u := pass.Set.Graph(pass.Workflow).Unloadable; len(u) > 0 {
			unbuilt = u[0]
		} else {
			conns = newConnJudge(pass)
		}
	}
	// A file's repeated keys are read per file; a file of one workflow
	// that n8n cannot build loses nothing a run would read.
	if kind == n8nschema.DuplicateKey && pass.Workflow == nil && pass.Set != nil && len(pass.File.Workflows) == 1 {
		if u := pass.Set.Graph(pass.File.Workflows[0]).Unloadable; len(u) > 0 && u[0].Type != "" {
			unbuilt = u[0]
		}
	}
	for _, p := range probs {
		if p.Kind != kind {
			continue
		}
		d := analyze.Diagnostic{Pos: p.Pos, Message: p.Message, Detail: p.Pos.Path + "\x00" + p.Message, Severity: sev, Fix: problemFix[kind]}
		if p.Note {
			d.Severity = analyze.Note // n8n may repair it by itself
			d.Stored = true           // at import: no run needed
		}
		if p.Fatal {
			d.Severity = analyze.Error // n8n fails on it
			// Building fails, before any check of a run; a connection
			// to a missing node throws in a run (Aborts).
			d.Stored = !p.Aborts
		}
		if conns != nil && !conns.judge(p, &d) {
			continue // folded into a sibling's finding
		}
		if unbuilt != nil && (kind != n8nschema.DuplicateKey || d.Severity > analyze.Note) {
			d.Severity = analyze.Note
			if p.Why != "" {
				d.Message = strings.TrimSuffix(p.Message, "; "+p.Why)
			}
			why := fmt.Sprintf("is of type %q, which n8n does not ship", unbuilt.Type)
			if vs, ok := n8nschema.MissingVersion(unbuilt, pass.Set.Options.Version()); ok {
				why = missingVersion(unbuilt, vs)[1:]
			}
			d.Message += fmt.Sprintf("; no run of the workflow reaches it: node %q %s, so n8n cannot build the workflow (RS010)", unbuilt.Name, why)
		}
		if pass.Workflow != nil && p.Node != "" {
			d.Node = pass.Workflow.Node(p.Node)
		}
		pass.Report(d)
	}
}

// missingVersion says, after a node's name, that n8n has its type but not
// at its typeVersion.
func missingVersion(n *n8nschema.Node, vs []float64) string {
	return fmt.Sprintf(" is of type %q at typeVersion %s, which n8n does not have (its versions: %s)", n.Type, fmtVersion(n.TypeVersion), versionList(vs))
}

func fmtVersion(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func versionList(vs []float64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmtVersion(v)
	}
	return strings.Join(s, ", ")
}
