package analyze

import (
	"cmp"
	"slices"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Merge joins the sets of the groups Components made (released or not,
// Set.Release) into one set for the SetWide rules, the filters and the
// renderers: sets[i] was built from the files groups[i] lists. Files and
// workflows come in set order, operations and calls as Build orders them
// (workflow then node; a workflow's calls as its group's Build made them).
// The merged set holds no graphs; on released workflows Graph panics.
func Merge(sets []*Set, groups [][]int) *Set {
	m := &Set{}
	if len(sets) > 0 {
		m.Options = sets[0].Options
	}
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	m.Files = make([]*n8nschema.File, n)
	for i, s := range sets {
		for j, f := range s.Files {
			m.Files[groups[i][j]] = f
		}
	}
	at := map[*n8nschema.Workflow]int{}
	for _, f := range m.Files {
		for _, w := range f.Workflows {
			at[w] = len(m.Workflows)
			m.Workflows = append(m.Workflows, w)
		}
	}
	for _, s := range sets {
		m.Operations = append(m.Operations, s.Operations...)
		m.Calls = append(m.Calls, s.Calls...)
	}
	// Within a group both lists are in its workflows' order, which is
	// theirs in the set: a stable sort by workflow restores set order.
	slices.SortStableFunc(m.Operations, func(a, b *Operation) int { return cmp.Compare(at[a.Workflow], at[b.Workflow]) })
	slices.SortStableFunc(m.Calls, func(a, b *Call) int { return cmp.Compare(at[a.From], at[b.From]) })
	// A workflow's operations are adjacent now: index pieces of the list
	// rather than copy them.
	m.opsOf = make(map[*n8nschema.Workflow][]*Operation, len(m.Workflows))
	for i := 0; i < len(m.Operations); {
		w, j := m.Operations[i].Workflow, i+1
		for j < len(m.Operations) && m.Operations[j].Workflow == w {
			j++
		}
		m.opsOf[w] = m.Operations[i:j:j]
		i = j
	}
	m.indexCalls()
	return m
}
