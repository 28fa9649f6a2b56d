package analyze

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
)

// Fold reports once what several findings say: a finding of a rule whose
// FoldsInto rule also fires on the same node is left out (RS104's layers
// are RS101's chain), and findings of one rule that share a FoldKey (one
// missing workflow, one shared dependency) become one of them, the first
// of the most severe, with the others as related places. Every format shows the folded findings, so
// this runs once, after the ignores and before the baseline. fs must be
// sorted (SortFindings); the result is too, and is a prefix of fs, whose
// elements it overwrites.
func Fold(fs []Finding, rules []*Rule) []Finding {
	byID := make(map[string]*Rule, len(rules))
	foldedInto := map[string]bool{} // rules others fold into
	for _, r := range rules {
		byID[r.ID] = r
		if r.FoldsInto != "" {
			foldedInto[r.FoldsInto] = true
		}
	}
	folds := func(f *Finding) *Rule {
		if r := byID[f.RuleID]; r != nil && r.FoldsInto != "" && f.Node != "" {
			return r
		}
		return nil
	}
	// onNode holds the nodes a folding finding names (few), then the index
	// in fs of the first finding there of the rule it folds into.
	type nodeKey struct{ rule, file, wfID, wf, node string }
	onNode := map[nodeKey]int{}
	for i := range fs {
		if f := &fs[i]; folds(f) != nil {
			onNode[nodeKey{folds(f).FoldsInto, f.File, f.WorkflowID, f.Workflow, f.Node}] = -1
		}
	}
	if len(onNode) > 0 {
		for i := range fs {
			if f := &fs[i]; f.Node != "" && foldedInto[f.RuleID] {
				k := nodeKey{f.RuleID, f.File, f.WorkflowID, f.Workflow, f.Node}
				if j, ok := onNode[k]; ok && j < 0 {
					onNode[k] = i
				}
			}
		}
	}
	// A folded-away finding lends its severity to the one that says it all.
	drop := make([]bool, len(fs))
	if len(onNode) > 0 {
		for i := range fs {
			f := &fs[i]
			r := folds(f)
			if r == nil {
				continue
			}
			if j, ok := onNode[nodeKey{r.FoldsInto, f.File, f.WorkflowID, f.Workflow, f.Node}]; ok && j >= 0 {
				drop[i] = true
				fs[j].Severity = max(fs[j].Severity, f.Severity)
			}
		}
	}
	type foldKey struct{ rule, key string }
	// lead is the finding kept for a key: the first of the most severe,
	// so that what it says (reached by a schedule, not only by hand; not
	// behind another) is what the kept severity stands for, and among
	// those the first that asks to lead (FoldLead).
	lead := map[foldKey]int{} // → index in fs
	for i := range fs {
		if f := &fs[i]; !drop[i] && f.FoldKey != "" {
			k := foldKey{f.RuleID, f.FoldKey}
			if j, ok := lead[k]; !ok || f.Severity > fs[j].Severity || f.Severity == fs[j].Severity && f.FoldLead && !fs[j].FoldLead {
				lead[k] = i
			}
		}
	}
	first := map[foldKey]int{} // → index in out
	// early holds the places before the lead of their key, to be added
	// once the lead is kept.
	early := map[foldKey][]Related{}
	// more holds the places folded into a kept finding (by its index in
	// out), added to its Related once at the end: appending to Related at
	// each fold would copy the list each time (it may share its array with
	// the caller's finding), quadratic in the places of one key.
	more := map[int][]Related{}
	out := fs[:0] // written at or before the index read: safe in place
	for i := range fs {
		if drop[i] {
			continue
		}
		f := &fs[i]
		if f.FoldKey == "" {
			if len(out) == i {
				out = out[:i+1] // in place already: no copy
			} else {
				out = append(out, *f)
			}
			continue
		}
		k := foldKey{f.RuleID, f.FoldKey}
		if lead[k] == i {
			first[k] = len(out)
			more[len(out)] = early[k]
			out = append(out, *f)
			out[len(out)-1].Fingerprint = foldFingerprint(f.RuleID, f.FoldKey)
			continue
		}
		j, ok := first[k]
		if !ok {
			// Before its lead, which is not yet written over: out
			// grows no faster than i.
			early[k] = append(early[k], Related{File: f.File, Pos: f.Pos, Source: f.Source, Message: foldedPlace(&fs[lead[k]], f)})
			continue
		}
		kept := &out[j] // j < i: f is not written over
		more[j] = append(more[j], Related{File: f.File, Pos: f.Pos, Source: f.Source, Message: foldedPlace(kept, f)})
	}
	for i, rel := range more {
		if len(rel) == 0 {
			continue
		}
		out[i].Related = append(slices.Clip(out[i].Related), rel...)
		if r := byID[out[i].RuleID]; r != nil && r.FoldMore != nil {
			out[i].Message += r.FoldMore(out[i].FoldKey, len(rel))
		}
	}
	return slices.Clip(out)
}

// foldedPlace says where a folded finding stood, relative to the one kept.
func foldedPlace(kept, f *Finding) string {
	var s string
	if f.Node != "" {
		s = fmt.Sprintf("also node %q", f.Node)
	} else {
		s = "also the workflow settings"
	}
	if f.File != kept.File || f.WorkflowID != kept.WorkflowID || f.Workflow != kept.Workflow {
		if l := label(f); l != "" {
			s += fmt.Sprintf(" in workflow %q", l)
		}
	}
	return s
}

func label(f *Finding) string {
	if f.Workflow != "" {
		return f.Workflow
	}
	return f.WorkflowID
}

// foldFingerprint names a folded finding by its rule and key alone, so it
// does not change with which place comes first.
func foldFingerprint(rule, key string) string {
	h := sha256.Sum256([]byte(rule + "\x00fold\x00" + key))
	return hex.EncodeToString(h[:8])
}
