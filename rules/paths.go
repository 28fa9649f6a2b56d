package rules

import (
	"fmt"
	"slices"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about which nodes an execution reaches.

// reaches reports whether to is reachable from from along main edges (or
// is a sub-node of a node that is).
func reaches(g *analyze.Graph, from, to *n8nschema.Node) bool {
	target := map[*n8nschema.Node]bool{to: true}
	for _, r := range g.Roots(to) {
		target[r] = true
	}
	seen := map[*n8nschema.Node]bool{from: true}
	queue := []*n8nschema.Node{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if target[u] {
			return true
		}
		for _, e := range g.OutOfType(u, analyze.ConnMain) {
			if !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return false
}

// unreachedWhy is whyTable's answer for one node, for a rule that asks of
// a node or two (RS011's request parts).
func unreachedWhy(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node) string {
	return newWhyTable(pass, g).why(n)
}

// whyTable answers unreachedWhy for the nodes of one workflow, each walk
// of its graph made once on first need (watched's, noWorkBefore's): a rule
// that asks of every node (RS012) walks the graph a few times, not a few
// times per node.
type whyTable struct {
	pass    *analyze.Pass
	g       *analyze.Graph
	watched func(*n8nschema.Node) bool
	// free holds what the triggers' walk reaches without passing a node
	// that does no work; cutOf, for the rest, the first such node (in the
	// order that walk meets them, cuts) that reaches it. Nil until asked.
	free  map[*n8nschema.Node]bool
	cuts  []*n8nschema.Node
	cutOf map[*n8nschema.Node]int
}

func newWhyTable(pass *analyze.Pass, g *analyze.Graph) *whyTable {
	return &whyTable{pass: pass, g: g}
}

// why says, as a clause for a message, why what node n does matters less
// than its every run would make it: the workflow is archived, a node that
// fails on every run (RS010) lies before it, no trigger's run reaches it,
// only a run a person starts from the editor does, or every run reaches
// it on what a node that does none of its work passed on. It is "" when a
// run other than a person's reaches n and does its work: a finding about
// what n sends is then a warning (RS011, RS012).
func (t *whyTable) why(n *n8nschema.Node) string {
	pass, g := t.pass, t.g
	first, behind := g.FailsBefore(n)
	switch {
	case analyze.RunStateOf(pass.Workflow) == analyze.RunNever:
		return " (the workflow is archived: n8n runs none of its triggers)"
	case behind:
		// What the node sends matters once the node that fails before
		// it is mended (RS010 names it).
		return fmt.Sprintf(" (once %q, which fails on every run before it, is fixed)", first.Name)
	case !g.Reachable(n):
		if by := unreachedBy(g, n); by != nil {
			return fmt.Sprintf(" (no trigger's run reaches it: %q before it passes no item on toward it)", by.Name)
		}
		return " (no trigger's run reaches it)"
	case untriggered(pass) || t.isWatched(n):
		return " (only a run a person starts from the editor reaches it)"
	}
	if c := t.noWorkBefore(n); c != nil {
		// Every run reaches it on what a node that does none of its work
		// passed on (RS010 names it): what it sends matters once that
		// node is mended.
		return fmt.Sprintf(" (once %q, which does none of its work before it, is fixed)", c.Name)
	}
	return ""
}

func (t *whyTable) isWatched(n *n8nschema.Node) bool {
	if t.watched == nil {
		t.watched = analyze.WatchedIn(t.pass.Set, t.pass.Workflow)
	}
	return t.watched(n)
}

// noWorkBefore returns a node that does none of its work
// (analyze.Graph.DoesNoWork) before n, when such nodes lie on every main
// path from the workflow's triggers to n (a walk from the triggers that
// does not pass them does not reach n), or nil: the first of them, in the
// order that walk meets them, that reaches n or a root n is a sub-node of.
// One walk from the triggers and one from the cuts, for all the nodes.
func (t *whyTable) noWorkBefore(n *n8nschema.Node) *n8nschema.Node {
	g := t.g
	if t.free == nil {
		t.free = reachedAvoiding(g, g.Triggers(), func(m *n8nschema.Node) bool {
			if _, none := g.DoesNoWork(m); none {
				t.cuts = append(t.cuts, m)
				return true
			}
			return false
		})
		// Each cut in turn labels what it reaches that no earlier cut
		// does: what a labelled node reaches is labelled already.
		t.cutOf = map[*n8nschema.Node]int{}
		for i, c := range t.cuts {
			if _, ok := t.cutOf[c]; ok {
				continue
			}
			t.cutOf[c] = i
			queue := []*n8nschema.Node{c}
			for len(queue) > 0 {
				u := queue[0]
				queue = queue[1:]
				for _, e := range g.OutOfType(u, analyze.ConnMain) {
					if _, ok := t.cutOf[e.To]; !ok {
						t.cutOf[e.To] = i
						queue = append(queue, e.To)
					}
				}
			}
		}
	}
	if t.free[n] {
		return nil
	}
	best := -1
	for _, m := range append([]*n8nschema.Node{n}, g.Roots(n)...) {
		if i, ok := t.cutOf[m]; ok && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return t.cuts[best]
}

// reachedAvoiding returns what a walk along main connections from starts
// reaches without going past a node stop holds of (that node included).
func reachedAvoiding(g *analyze.Graph, starts []*n8nschema.Node, stop func(*n8nschema.Node) bool) map[*n8nschema.Node]bool {
	seen := map[*n8nschema.Node]bool{}
	queue := slices.Clone(starts)
	for _, t := range queue {
		seen[t] = true
	}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if stop(m) {
			continue
		}
		for _, e := range g.OutOfType(m, analyze.ConnMain) {
			if !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return seen
}

// noRunReaches words, for a message, that no run reaches node n
// (analyze.Graph.Reachable false), and why when a node before it is the
// reason: "no run reaches the node (\"Vendor Match Found?\" before it
// passes no item on toward it)". The one wording of the clause (RS007,
// whyTable); a template's blank is never that reason (a blank's reach is
// Graph.BehindBlank's, whose clause Pass.Report adds and names the blank).
func noRunReaches(g *analyze.Graph, n *n8nschema.Node, what string) string {
	s := "no run reaches " + what
	if by := unreachedBy(g, n); by != nil {
		s += fmt.Sprintf(" (%q before it passes no item on toward it)", by.Name)
	}
	return s
}

// unreachedBy is analyze.Graph.UnreachedBy: the node whose outputs keep
// every run from n, which no run reaches, or nil. Its answers for every
// such node are found in one walk of the graph, on the first ask.
func unreachedBy(g *analyze.Graph, n *n8nschema.Node) *n8nschema.Node {
	return g.UnreachedBy(n)
}
