package analyze

import (
	"sync"

	"github.com/stormcheck/stormcheck/internal/pack"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Release turns the set into its light form once it is analysed, its
// repairs attached (fix.Attach) and what reports read from the bytes
// captured (report.Capture): it drops the sources' bytes, the nodes'
// Values and parameters, the graphs and what rules shared, and keeps
//
//   - Files: each source's name, problems and Explicit;
//   - Workflows: what n8nschema.Workflow.Release keeps (names, ids,
//     positions, problems, NodeCount);
//   - Operations, every field, their Node a light node (name, type,
//     position, node settings; n8nschema.Node.light), their Spec shared
//     by every operation of the node type. They are released in place and
//     then moved, with their list, into shared chunks (packOperations): an
//     *Operation taken before the release is released but no longer the
//     set's;
//   - Calls, every field but the located reference, their nodes light.
//
// Every string kept is copied off the bytes (n8nschema.Intern), so nothing
// holds a source alive. Graph, Workflow.Node and any position or line of a
// released source panic afterwards; rules that run on a released set read
// only the fields above. Findings are released by ReleaseFindings.
func (s *Set) Release() {
	// The nodes to keep, by workflow: counted, then each workflow's list a
	// piece of one array.
	at := make(map[*n8nschema.Workflow]int, len(s.Workflows))
	for i, w := range s.Workflows {
		at[w] = i
	}
	count := make([]int, len(s.Workflows))
	each := func(add func(w *n8nschema.Workflow, n *n8nschema.Node)) {
		for _, op := range s.Operations {
			add(op.Workflow, op.Node)
		}
		for _, c := range s.Calls {
			add(c.From, c.Node)
			add(c.From, c.Branch)
			for _, n := range c.Entry {
				add(c.To, n)
			}
		}
	}
	total := 0
	each(func(w *n8nschema.Workflow, n *n8nschema.Node) {
		if i, ok := at[w]; ok && n != nil {
			count[i]++
			total++
		}
	})
	keep := make([][]*n8nschema.Node, len(s.Workflows))
	nodes := make([]*n8nschema.Node, total)
	for i, k := range count {
		keep[i], nodes = nodes[:0:k], nodes[k:]
	}
	each(func(w *n8nschema.Workflow, n *n8nschema.Node) {
		if i, ok := at[w]; ok && n != nil {
			keep[i] = append(keep[i], n)
		}
	})
	light := make(map[*n8nschema.Node]*n8nschema.Node, total)
	for i, w := range s.Workflows {
		ns := keep[i]
		for i, l := range w.Release(ns) {
			light[ns[i]] = l
		}
	}
	for _, f := range s.Files {
		f.Release()
	}
	lightOf := func(n *n8nschema.Node) *n8nschema.Node {
		if n == nil {
			return nil
		}
		return light[n]
	}
	for _, op := range s.Operations {
		op.Node = lightOf(op.Node)
		op.Spec = sharedSpec(op.Spec)
		// Most operations' type and dependency are their spec's type and
		// provider, interned already.
		op.Type, op.Dependency, op.Model = internAs(op.Type, op.Spec), internAs(op.Dependency, op.Spec), intern(op.Model)
		op.Account = intern(op.Account)
		releaseFactors(op.Factors)
	}
	s.packOperations()
	for _, c := range s.Calls {
		c.Node, c.Branch = lightOf(c.Node), lightOf(c.Branch)
		for i, n := range c.Entry {
			c.Entry[i] = lightOf(n)
		}
		c.Ref, c.Assumed, c.Missing = n8nschema.Intern(c.Ref), n8nschema.Intern(c.Assumed), n8nschema.Intern(c.Missing)
		c.Pos = c.Pos.Light()
		c.ref = n8nschema.Value{}
	}
	s.graphs = nil
	for _, m := range s.mems {
		m.put()
	}
	s.mems = nil
	// The index of calls stays valid: they are released in place.
	s.sharedMu.Lock()
	s.shared = nil
	s.sharedMu.Unlock()
}

// packOperations moves the released operations, and their list, into
// shared chunks (pack.Slab): a two-pass audit keeps them to the end, and
// allocated with the set, among its garbage, they held part-empty spans.
// Moved only once released, so that a chunk never holds an operation that
// points at a full node. Only the set's list and its index point at them.
func (s *Set) packOperations() {
	if len(s.Operations) == 0 {
		return
	}
	moved := keptOperations.Make(len(s.Operations))
	list := keptOperationLists.Make(len(s.Operations))
	for i, op := range s.Operations {
		moved[i] = *op
		list[i] = &moved[i]
	}
	s.Operations = list
	if s.opsOf != nil {
		s.opsOf = opsByWorkflow(list)
	}
}

// ReleaseFindings copies every string of the findings off the sources'
// bytes (a rule may quote a name or a parameter as it reads it, a view of
// the bytes), so that findings kept past Set.Release hold no source alive.
// Chains, related places and repairs are released in place: a chain is
// most often its operation's factors, which Set.Release releases too.
//
// It returns a copy of the released findings cut from shared chunks
// (pack.Slab): what a caller that keeps them to the end should keep. The
// copy is made once they are released, so that a chunk holds only
// released findings and none of them a source.
func ReleaseFindings(fs []Finding) []Finding {
	for i := range fs {
		f := &fs[i]
		// (URL is HelpURI's string, made once per rule ID: never a view.)
		f.File, f.Pos = intern(f.File), f.Pos.Light()
		f.Workflow, f.WorkflowID, f.Node = intern(f.Workflow), intern(f.WorkflowID), intern(f.Node)
		f.Message, f.Fix, f.Detail = clone(f.Message), intern(f.Fix), clone(f.Detail)
		f.NoRepair = intern(f.NoRepair)
		f.FoldKey = intern(f.FoldKey) // (a Fingerprint is a hash's hex: never a view of the bytes)
		for j := range f.Related {
			r := &f.Related[j]
			r.File, r.Pos, r.Message = intern(r.File), r.Pos.Light(), clone(r.Message)
		}
		releaseFactors(f.Chain)
		if r := f.Repair; r != nil {
			r.Description = clone(r.Description)
			for j := range r.Edits {
				e := &r.Edits[j]
				e.Text, e.Start, e.End = clone(e.Text), e.Start.Light(), e.End.Light()
			}
		}
	}
	if len(fs) == 0 {
		return fs
	}
	kept := keptFindings.Make(len(fs))
	copy(kept, fs)
	return kept
}

// releaseFactors copies the factors' strings off the bytes, in place.
func releaseFactors(fs []Factor) {
	for i := range fs {
		f := &fs[i]
		f.Kind, f.Node, f.Workflow, f.Via = intern(f.Kind), intern(f.Node), intern(f.Workflow), intern(f.Via)
		f.Pos = f.Pos.Light()
	}
}

// specs holds one copy of each catalog entry that released operations
// point at: a few hundred node types, however many operations.
var specs sync.Map // n8nschema.Spec → *n8nschema.Spec

// sharedSpec is the shared copy of *sp, its strings off the bytes (an
// unknown node type is its own entry's Type).
func sharedSpec(sp *n8nschema.Spec) *n8nschema.Spec {
	if sp == nil {
		return nil
	}
	if p, ok := specCache.Load(sp.Type); ok && p.(*n8nschema.Spec) == sp {
		return sp // the graph's entry (specOf): shared and interned already
	}
	s := *sp
	s.Type, s.Provider = intern(s.Type), intern(s.Provider) // the key too
	p, _ := specs.LoadOrStore(s, &s)
	return p.(*n8nschema.Spec)
}

func intern(s string) string { return n8nschema.Intern(s) }

// internAs interns s, taking the spec's type or provider when s equals
// one (sp's strings are interned: sharedSpec).
func internAs(s string, sp *n8nschema.Spec) string {
	switch {
	case sp == nil:
	case s == sp.Type:
		return sp.Type
	case s == sp.Provider:
		return sp.Provider
	}
	return intern(s)
}

// clone copies a string few others equal (a message): interning it would
// only add an entry to the table. Copies are packed (package pack): a
// released set keeps them.
func clone(s string) string { return released.Copy(s) }

// released holds what clone copies.
var released pack.Strings

// What a set keeps past its release is packed too, once released: its
// operations and their list (packOperations) and its findings
// (ReleaseFindings).
var (
	keptFindings       pack.Slab[Finding]
	keptOperations     pack.Slab[Operation]
	keptOperationLists pack.Slab[*Operation]
)
