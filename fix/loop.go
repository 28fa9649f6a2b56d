package fix

import (
	"encoding/json"
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Check analyses files as the audit does (rules, ignores, baseline) and
// returns the set and the findings it reports.
type Check func(files []*n8nschema.File) (*analyze.Set, []analyze.Finding)

// Result is what Files did.
type Result struct {
	// Files are the inputs after the fixes, in the order given; a file
	// that no fix touched is the same *File.
	Files []*n8nschema.File
	// Changed are the names of the sources whose bytes changed.
	Changed []string
	// Original holds the bytes each changed source had, by name.
	Original map[string][]byte
	// Set and Findings are the analysis of Files: what is left.
	Set      *analyze.Set
	Findings []analyze.Finding
	// Fixed is how many findings of the first analysis are gone.
	Fixed int
	// Undone holds the new findings a round brought, when it was undone.
	Undone []analyze.Finding
}

// maxRounds bounds the fix loop: a repair that conflicts with another one
// waits for the next round, on the re-analysed files.
const maxRounds = 8

// Files repairs what it can in memory: it analyses the files, applies the
// repairs --fix would (safe ones; unsafe ones too when unsafe is true) as
// byte edits, parses and analyses again, and repeats until no repair is
// left. A round that brings a finding the first analysis did not have is
// undone and ends the loop (Result.Undone says which): a fix never makes a
// workflow worse. One that would make a file invalid JSON is an error, and
// the caller writes nothing.
func Files(files []*n8nschema.File, check Check, o Options, unsafe bool) (*Result, error) {
	set, fs := check(files)
	Attach(set, fs, o)
	before := tallyOf(fs)
	res := &Result{Original: map[string][]byte{}}
	cur := files
	// A repair applied whose finding is still reported is not applied
	// again: an insertion applied twice would repeat itself. The finding
	// may have another repair then (a model under two retrying agents
	// names the second once the first is off), and that one is applied.
	tried := map[string]bool{}
	for range maxRounds {
		for i := range fs {
			if fs[i].Repair != nil && tried[repairKey(&fs[i])] {
				fs[i].Repair = nil
			}
		}
		plan, taken := Plan(fs, unsafe)
		if len(taken) == 0 {
			break
		}
		for _, f := range taken {
			tried[repairKey(f)] = true
		}
		next := make([]*n8nschema.File, len(cur))
		changed := false
		for i, f := range cur {
			edits := plan[f.Source]
			if len(edits) == 0 {
				next[i] = f
				continue
			}
			b, err := Apply(f.Source.Src, edits)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Source.Name, err)
			}
			if !json.Valid(trimBOM(b)) {
				return nil, fmt.Errorf("%s: a fix made invalid JSON; nothing was written (please report this)", f.Source.Name)
			}
			nf := n8nschema.Parse(n8nschema.NewSource(f.Source.Name, b))
			nf.Explicit = f.Explicit
			next[i] = nf
			changed = true
		}
		if !changed {
			break
		}
		nset, nfs := check(next)
		if nf := newFindings(before, nfs); len(nf) > 0 {
			res.Undone = nf
			break
		}
		cur, set, fs = next, nset, nfs
		Attach(set, fs, o)
	}
	res.Files, res.Set, res.Findings = cur, set, fs
	for i, f := range cur {
		if f != files[i] {
			res.Changed = append(res.Changed, f.Source.Name)
			res.Original[f.Source.Name] = files[i].Source.Src
		}
	}
	res.Fixed = fixedCount(before, tallyOf(fs))
	return res, nil
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// A finding is identified across edits by its fingerprint (rule, workflow,
// node, detail), never its position. A rule that reports one finding per
// workflow and dependency on a representative node (RS505) may move it to
// another node when a fix changes which node comes first: that finding is
// the same one, so findings are also counted per group (file, rule,
// workflow, detail), and one is new only when its group grows.
// A finding folded across the set (analyze.Fold: one per missing workflow
// or shared dependency) stands in the first file that has it, which a fix
// may change: it is identified by its fold key alone.
func key(f *analyze.Finding) string { return group(f) + "\x00" + f.Fingerprint }

// repairKey identifies a finding's repair across rounds: its description
// and the files it edits (two callers may share a node name).
func repairKey(f *analyze.Finding) string {
	k := key(f) + "\x00" + f.Repair.Description
	for _, e := range f.Repair.Edits {
		k += "\x00" + e.Source.Name
	}
	return k
}

func group(f *analyze.Finding) string {
	if f.FoldKey != "" {
		return f.RuleID + "\x00fold\x00" + f.FoldKey
	}
	return f.File + "\x00" + f.RuleID + "\x00" + f.WorkflowID + "\x00" + f.Workflow + "\x00" + f.Detail
}

type tally struct {
	keys   map[string]bool
	groups map[string]int
}

func tallyOf(fs []analyze.Finding) tally {
	t := tally{keys: make(map[string]bool, len(fs)), groups: map[string]int{}}
	for i := range fs {
		t.keys[key(&fs[i])] = true
		t.groups[group(&fs[i])]++
	}
	return t
}

// newFindings returns the findings of fs that before did not have.
func newFindings(before tally, fs []analyze.Finding) []analyze.Finding {
	after := tallyOf(fs)
	var out []analyze.Finding
	for i := range fs {
		if !before.keys[key(&fs[i])] && after.groups[group(&fs[i])] > before.groups[group(&fs[i])] {
			out = append(out, fs[i])
		}
	}
	return out
}

// fixedCount is how many findings of before are gone from after.
func fixedCount(before, after tally) int {
	n := 0
	for g, c := range before.groups {
		n += max(0, c-after.groups[g])
	}
	return n
}
