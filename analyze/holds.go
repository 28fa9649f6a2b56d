package analyze

import "fmt"

// HoldsOnce words the clause a finding gains while a template's blank
// stands, the one wording of it: "; this holds once <filled>: until then
// <until>". What a run would do happens only once the blank is filled in.
func HoldsOnce(filled, until string) string {
	return "; this holds once " + filled + ": until then " + until
}

// RequiredClause is HoldsOnce for a required parameter left blank, which
// n8n refuses runs for (Graph.RefusedRun, whose publish and every it
// takes): `; this holds once node "Sheet"'s required "documentId" is
// filled in: until then n8n refuses every run that reaches it (RS010)`.
func RequiredClause(node, param string, publish, every bool) string {
	refuses := "every run"
	switch {
	case publish:
		refuses = "to publish the workflow, so only runs started in the editor happen"
	case !every:
		refuses = "every run that reaches it"
	}
	return HoldsOnce(fmt.Sprintf("node %q's required %q is filled in", node, param), "n8n refuses "+refuses+" (RS010)")
}

// EditorRequiredClause is RequiredClause for a workflow with no trigger
// (Graph.EditorRefused): its only runs are a person's from the editor (or
// a caller's), and n8n refuses those too; RS010, which reads no such
// workflow, reports nothing of it.
func EditorRequiredClause(node, param string) string {
	return HoldsOnce(fmt.Sprintf("node %q's required %q is filled in", node, param), "n8n refuses every run that reaches this node, a run started in the editor too")
}

// Mended words the clause of a finding whose fault is the blank itself
// (Diagnostic.BlankFault): as exported the node holds no usable value,
// and filling the blank in mends what the finding names.
func (b Blank) Mended() string {
	return "; as exported " + b.Mends + "; choosing one in its credential field, which offers only the types the node takes, mends this"
}

// Clause is HoldsOnce for a blank node (Graph.BehindBlank): who is the node
// it stands for in the finding ("it" for the finding's own node, "that
// node" for one before it), and rest what the finding's node misses until
// then (" and no run gets here").
func (b Blank) Clause(who, rest string) string {
	return HoldsOnce(b.Fill, who+" "+b.Until+rest)
}
