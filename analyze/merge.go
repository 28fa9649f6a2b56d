package analyze

import (
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
	nw := 0
	for _, f := range m.Files {
		nw += len(f.Workflows)
	}
	m.Workflows = make([]*n8nschema.Workflow, 0, nw)
	at := make(map[*n8nschema.Workflow]int, nw)
	for _, f := range m.Files {
		for _, w := range f.Workflows {
			at[w] = len(m.Workflows)
			m.Workflows = append(m.Workflows, w)
		}
	}
	// Within a group both lists are in its workflows' order, which is
	// theirs in the set: a stable sort by workflow restores set order.
	m.Operations = sortedByWorkflow(sets, at, nw, func(s *Set) []*Operation { return s.Operations }, func(o *Operation) *n8nschema.Workflow { return o.Workflow })
	m.Calls = sortedByWorkflow(sets, at, nw, func(s *Set) []*Call { return s.Calls }, func(c *Call) *n8nschema.Workflow { return c.From })
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

// sortedByWorkflow joins the sets' lists and sorts them, stably, by the
// index at gives their workflow (0 for one it lacks) among nw: a counting sort,
// which looks each workflow up once rather than at every comparison.
func sortedByWorkflow[T any](sets []*Set, at map[*n8nschema.Workflow]int, nw int, list func(*Set) []T, workflow func(T) *n8nschema.Workflow) []T {
	n := 0
	for _, s := range sets {
		n += len(list(s))
	}
	if n == 0 {
		return nil
	}
	rank := make([]int32, 0, n)
	start := make([]int32, nw+1) // items of each rank, then where they go
	for _, s := range sets {
		for _, x := range list(s) {
			r := int32(at[workflow(x)])
			rank = append(rank, r)
			start[r]++
		}
	}
	var sum int32
	for r, c := range start {
		start[r] = sum
		sum += c
	}
	out := make([]T, n)
	i := 0
	for _, s := range sets {
		for _, x := range list(s) {
			out[start[rank[i]]] = x
			start[rank[i]]++
			i++
		}
	}
	return out
}
