package rules

import (
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// versionMarkRE is a version mark in a workflow's name or file name:
// "v1.1.0", "v2", "_v3", "1.2.0" (a dotted number).
var versionMarkRE = lazyregexp.New(`(?i)(?:\bv|_v|-v)\d+(?:\.\d+)*|\b\d+\.\d+(?:\.\d+)*\b`)

// versionMarks returns the version marks s holds (versionMarkRE), asked
// only of a string that holds what each needs: a "v" before a digit, or a
// digit, a dot and a digit. Most file paths hold neither, and the pattern,
// with no literal to skip ahead to, was tried at every byte of them.
func versionMarks(s string) []string {
	for i := 0; i+1 < len(s); i++ {
		if c, d := s[i], s[i+1]; c|0x20 == 'v' && isDigit(d) || isDigit(c) && d == '.' && i+2 < len(s) && isDigit(s[i+2]) {
			return versionMarkRE.FindAllString(s, -1)
		}
	}
	return nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// versionsOf reports two workflows that are versions of one workflow
// kept side by side: their names or their file names are the same but
// for a version mark that differs ("v1.0.0-financial.json" and
// "v1.1.0-financial.json"), their folders carry version marks that
// differ, or they hold one saved version (versionId), and their content is near the same: the
// smaller has two thirds of the other's nodes or is within three, and
// four in five of the kinds of call it makes (node type and service, as
// a version may rename its nodes) the other makes too. The owner keeps the id on purpose: importing the newer over
// the older is what a version is for.
func versionsOf(a, b *analyze.WorkflowSummary) bool {
	marksDiffer := func(x, y string) bool {
		if x == y { // copies share their names
			return false
		}
		mx := versionMarks(x)
		if len(mx) == 0 {
			return false
		}
		my := versionMarks(y)
		return len(my) > 0 && strings.Join(mx, "\x00") != strings.Join(my, "\x00")
	}
	// Names must be the same but for the mark ("Sync v2"); paths may
	// differ beside it, as folders do ("5 v1 menu/…", "5 v2 menu-tts/…"),
	// and the content test below tells a version apart.
	namesMarked := marksDiffer(a.Name, b.Name) && versionMarkRE.ReplaceAllString(a.Name, "") == versionMarkRE.ReplaceAllString(b.Name, "")
	// Snapshots of one saved version (n8n gives each save a new
	// versionId) that the owner edited apart and labelled ("almost
	// there", "known good"); an unedited copy stays a copy.
	saved := a.VersionID != "" && a.VersionID == b.VersionID && (!sameSpacedName(a, b) || a.Nodes != b.Nodes)
	if !saved && !namesMarked && !marksDiffer(a.Source.Name, b.Source.Name) {
		return false
	}
	return nearContent(a, b)
}

// copiesOf reports two workflows that are copies of one workflow: one
// name (but for spacing; a name with a version mark the other lacks,
// "Orders v2", may be a clone made to differ) and near the same content
// (nearContent), such as a backup kept beside the workflow it was taken
// from. Importing both keeps the one imported last (n8n import:workflow
// upserts on the id), which is the owner's choice of version.
func copiesOf(a, b *analyze.WorkflowSummary) bool {
	return a.Name != "" && sameSpacedName(a, b) && nearContent(a, b)
}

// sameSpacedName reports two workflows whose names are the same but for
// spacing. Copies (nearly every pair the rule compares) have one name:
// only names that differ are split into words.
func sameSpacedName(a, b *analyze.WorkflowSummary) bool {
	if a.Name == b.Name {
		return true
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	return norm(a.Name) == norm(b.Name)
}

// nearContent reports two workflows whose content is near the same: the
// smaller has two thirds of the other's nodes or is within three, and
// four in five of the kinds of call it makes (node type and service, as
// a version may rename its nodes) the other makes too.
func nearContent(a, b *analyze.WorkflowSummary) bool {
	if lo, hi := min(a.Nodes, b.Nodes), max(a.Nodes, b.Nodes); 3*lo < 2*hi && hi-lo > 3 {
		return false
	}
	// Of the kinds of call each makes, the smaller's count: the kinds
	// both make are the same either way round.
	ka, kb := callKinds(a), callKinds(b)
	if len(kb) < len(ka) {
		ka, kb = kb, ka
	}
	shared := 0
	for k := range ka {
		if kb[k] {
			shared++
		}
	}
	all := len(ka)
	return all == 0 || 5*shared >= 4*all
}

// callKind is a kind of call: a node type and the service it calls.
type callKind struct{ typ, dependency string }

// callKinds are the kinds of call w makes.
func callKinds(w *analyze.WorkflowSummary) map[callKind]bool {
	kinds := make(map[callKind]bool, len(w.Operations))
	for i := range w.Operations {
		op := &w.Operations[i]
		kinds[callKind{op.Type, op.Dependency}] = true
	}
	return kinds
}
