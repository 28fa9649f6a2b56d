package analyze

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Who starts a workflow decides whether an outage meets its executions all
// at once. A workflow that only a person starts from the editor (a Manual
// Trigger, the legacy Start node, or no trigger at all) runs once per click:
// n8n starts no execution of it on its own, and it runs no error workflow
// for a manual run (docs/n8n-behaviour.md#who-starts-a-workflow). An
// archived workflow's triggers never fire: n8n refuses to publish it.
// `active: false` in a file says nothing: `n8n import:workflow` deactivates
// every workflow it imports unless told otherwise, and source-control
// exports do not write the field at all (RunStateOf).

// RunState is what an export shows of whether its workflow's triggers
// fire in production.
type RunState int

const (
	// RunUnknown: the export does not say. `active: false` is no sign
	// of a draft: n8n import:workflow sets active false on every workflow
	// it imports unless --activeState=fromJson
	// (cli/src/services/import.service.ts importWorkflows), and a
	// source-control export
	// writes no active field (source-control-export.service.ee.ts
	// writeExportableWorkflowsToExportFolder); nor is it a sign that the
	// workflow runs.
	RunUnknown RunState = iota
	// RunShown: `active: true` or a published version (activeVersion):
	// the instance it came from ran its triggers.
	RunShown
	// RunNever: archived; n8n refuses to publish it
	// (cli/src/active-workflow-manager.ts add).
	RunNever
)

// RunStateOf reads what an export shows of a workflow's production runs:
// the one reading of `active` every rule shares.
func RunStateOf(w *n8nschema.Workflow) RunState {
	switch {
	case w.Archived:
		return RunNever
	case w.Active || w.Published:
		return RunShown
	}
	return RunUnknown
}

// ByHand reports a trigger that only a person in the editor fires: a
// Manual Trigger, the legacy Start node, a manual chat, a Chat Trigger
// that is only the editor's test chat (TestChatOnly), or a clock trigger
// whose rule registers no job (registersNoJob).
func ByHand(t *n8nschema.Node) bool {
	typ := t.Type
	return typ == n8nschema.TypeManualTrigger || typ == n8nschema.TypeStart || typ == n8nschema.TypeManualChatTrigger ||
		TestChatOnly(t) || n8nschema.IsScheduleTrigger(typ) && registersNoJob(t)
}

// TestChatOnly reports a Chat Trigger that answers only the editor's test
// chat: it is not public (public is false by default), so its webhook
// answers 404 unless the run is manual and a chat test session
// (@n8n/n8n-nodes-langchain nodes/trigger/ChatTrigger/ChatTrigger.node.js
// webhook, L846–855), and it is not offered in n8n's Chat hub
// (availableInChat, false by default), whose users chat with the
// published workflow without that webhook (cli modules/chat-hub/
// chat-hub-workflow.service.js). A value set by an expression is not read.
func TestChatOnly(t *n8nschema.Node) bool {
	if t.Type != n8nschema.TypeChatTrigger {
		return false
	}
	p := t.Params()
	for _, k := range []string{"public", "availableInChat"} {
		if v := p.Get(k); v.Exists() && v.Kind() != n8nschema.Null && (v.Kind() != n8nschema.Bool || v.True()) {
			return false
		}
	}
	return true
}

// ByHandStarts returns the first enabled Chat Trigger that only the
// editor's test chat runs (TestChatOnly) and the first enabled Execute
// Workflow Trigger, in file order, whose runs reach n (ReachFrom); nil for
// none. One walk a kind serves every node.
func (g *Graph) ByHandStarts(n *n8nschema.Node) (chat, subwf *n8nschema.Node) {
	g.handOnce.Do(func() {
		var chats, subwfs []*n8nschema.Node
		for _, t := range g.Triggers() {
			switch {
			case t.Disabled:
			case TestChatOnly(t):
				chats = append(chats, t)
			case t.Type == n8nschema.TypeExecuteWorkflowTrigger:
				subwfs = append(subwfs, t)
			}
		}
		g.handChat, g.handSubwf = g.firstReach(chats), g.firstReach(subwfs)
	})
	return g.handChat[n], g.handSubwf[n]
}

// Reached reports whether an enabled trigger's runs would reach the node
// named name, the dropped connections taken as drawn.
func (r *DroppedReach) Reached(name string) bool {
	return r.hand[name] || r.live[name]
}

// ByHandOnly reports whether only a person in the editor starts the runs
// that reach n: an enabled Manual Trigger (or Start node) reaches it and no
// other enabled trigger of the workflow does. The person who clicked
// watches the run in the editor and sees it hang or fail.
func ByHandOnly(g *Graph, n *n8nschema.Node) bool {
	var hand, other []*n8nschema.Node
	for _, t := range g.Triggers() {
		switch {
		case t.Disabled:
		case ByHand(t):
			hand = append(hand, t)
		default:
			other = append(other, t)
		}
	}
	return len(hand) > 0 && ReachFrom(g, hand...).Has(n) && !ReachFrom(g, other...).Has(n)
}

// ManualOnly returns the workflows of the set that only a person starts:
// no enabled trigger of their own that fires without a person (an
// archived workflow's never do), and no workflow of the set that runs on
// its own starts them (an Execute Workflow, a tool, a webhook call, an
// error workflow setting).
//
// A workflow whose only other start is an Execute Workflow Trigger and
// that no call of the set resolves to (an orphan) runs when a person
// starts it: the set is taken to hold its callers, as it holds the other
// workflows the rules count (audit the whole export). A call the set
// cannot resolve may still be to it (OrphanGroup, StartedByHand). A
// workflow with an Error Trigger that no workflow of the set names as
// its error workflow is taken to be named by workflows outside it.
func ManualOnly(s *Set) map[*n8nschema.Workflow]bool {
	manual, _ := manualOnly(s)
	return manual
}

// manualOnly is ManualOnly; it returns the orphans too.
func manualOnly(s *Set) (map[*n8nschema.Workflow]bool, []*n8nschema.Workflow) {
	runs := map[*n8nschema.Workflow]bool{} // started without a person
	var queue, orphans []*n8nschema.Workflow
	for _, w := range s.Workflows {
		if RunStateOf(w) == RunNever {
			continue
		}
		own, waits, called := false, false, false
		g := s.Graph(w)
		for _, t := range g.Triggers() {
			switch {
			case t.Disabled || ByHand(t):
			case t.Type == n8nschema.TypeErrorTrigger:
				waits = true
			case t.Type == n8nschema.TypeExecuteWorkflowTrigger:
				called = true
			default:
				own = true
			}
		}
		switch {
		case own || waits && !calledBy(s, w):
			runs[w] = true
			queue = append(queue, w)
		case called && !calledBy(s, w):
			orphans = append(orphans, w)
		}
	}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		for _, c := range s.CallsFrom(w) {
			if c.To != nil && c.Kind != CallN8nAPI && !runs[c.To] {
				runs[c.To] = true
				queue = append(queue, c.To)
			}
		}
	}
	out := map[*n8nschema.Workflow]bool{}
	for _, w := range s.Workflows {
		if !runs[w] {
			out[w] = true
		}
	}
	return out, orphans
}

// An OrphanGroup is what a group of workflows audited together holds of
// its orphans (ManualOnly): the workflows that run only when one of them
// is called share it. Instances are the orphans' n8n instances
// (meta.instanceId, "" for none); Calls are the calls those workflows
// make that the set cannot resolve, which run only then.
type OrphanGroup struct {
	Instances []string
	Calls     []UnresolvedCall
}

// An UnresolvedCall is an Execute Workflow or workflow tool call of a
// workflow of n8n instance Instance whose target the set does not hold:
// computed at run time, or an id no workflow of the set has.
type UnresolvedCall struct {
	Instance string
	// Name is the name the editor cached beside the id the set does not
	// hold, "" for a target computed at run time or one with no name.
	Name string
}

// orphanGroups gives each workflow that runs only when an orphan is
// called (manual, yet reached from an orphan through calls the set
// resolves) the group of the orphans that reach it: orphans whose reach
// meets share one. Each workflow is visited once.
func orphanGroups(s *Set, manual map[*n8nschema.Workflow]bool, orphans []*n8nschema.Workflow) map[*n8nschema.Workflow]*OrphanGroup {
	if len(orphans) == 0 {
		return nil
	}
	groupOf := newUnionFind(len(orphans))
	of := map[*n8nschema.Workflow]int{} // the orphan whose walk reached it first
	for i, o := range orphans {
		if j, ok := of[o]; ok {
			groupOf.union(i, j)
			continue
		}
		of[o] = i
		queue := []*n8nschema.Workflow{o}
		for len(queue) > 0 {
			w := queue[0]
			queue = queue[1:]
			for _, c := range s.CallsFrom(w) {
				if c.To == nil || c.Kind == CallN8nAPI || !manual[c.To] || RunStateOf(c.To) == RunNever {
					continue
				}
				if j, ok := of[c.To]; ok {
					groupOf.union(i, j)
					continue
				}
				of[c.To] = i
				queue = append(queue, c.To)
			}
		}
	}
	groups := make([]*OrphanGroup, len(orphans))
	for i, o := range orphans {
		r := groupOf.find(i)
		if groups[r] == nil {
			groups[r] = &OrphanGroup{}
		}
		if in := InstanceOf(o); !slices.Contains(groups[r].Instances, in) {
			groups[r].Instances = append(groups[r].Instances, strings.Clone(in))
		}
	}
	out := make(map[*n8nschema.Workflow]*OrphanGroup, len(of))
	for w, i := range of {
		out[w] = groups[groupOf.find(i)]
	}
	return out
}

// unresolvedCalls returns w's calls that may start an orphan.
func unresolvedCalls(s *Set, w *n8nschema.Workflow) []UnresolvedCall {
	var out []UnresolvedCall
	for _, c := range s.CallsFrom(w) {
		if c.To == nil && (c.Kind == CallExecute || c.Kind == CallTool) && (c.Dynamic || c.Missing != "") {
			out = append(out, UnresolvedCall{Instance: strings.Clone(InstanceOf(w)), Name: strings.Clone(c.MissingName)})
		}
	}
	return out
}

// InstanceOf is the n8n instance a workflow was exported from
// (meta.instanceId), "" when the export does not say: also when the id is
// a template's blank ("REPLACE_WITH_INSTANCE_ID", "{{INSTANCE_ID}}"), which
// names no instance (n8n writes the sha256 hex of its instance there).
func InstanceOf(w *n8nschema.Workflow) string {
	id := w.Value.Get("meta.instanceId").Str()
	if n8nschema.Placeholder(id) {
		return ""
	}
	return id
}

// StartedByHand returns, by index, the workflows of the set that only a
// person starts: ManualOnly, less those an orphan of their group runs
// when a call of the set that it cannot resolve may start that orphan:
// a call from a workflow that runs (or that such an orphan runs), of the
// orphan's n8n instance (or one of the two exports names none), whose
// target is computed at run time or is an id the set does not hold. Ids
// change when workflows are copied between instances, and the names
// lists cache go stale, so such a call may be to any of them.
func StartedByHand(wfs []WorkflowSummary) []bool {
	byInstance := map[string][]*OrphanGroup{}
	seen := map[*OrphanGroup]bool{}
	var queue []UnresolvedCall
	for i := range wfs {
		w := &wfs[i]
		if g := w.Orphans; g != nil && !seen[g] {
			seen[g] = true
			for _, in := range g.Instances {
				byInstance[in] = append(byInstance[in], g)
			}
		}
		if !w.ManualOnly {
			queue = append(queue, w.Unresolved...)
		}
	}
	woken := map[*OrphanGroup]bool{}
	wake := func(in string) {
		for _, g := range byInstance[in] {
			if !woken[g] {
				woken[g] = true
				queue = append(queue, g.Calls...)
			}
		}
		delete(byInstance, in) // each instance's orphans are woken once
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c.Instance == "" {
			for in := range byInstance {
				wake(in)
			}
			continue
		}
		wake(c.Instance)
		wake("")
	}
	out := make([]bool, len(wfs))
	for i := range wfs {
		out[i] = wfs[i].ManualOnly && !(wfs[i].Orphans != nil && woken[wfs[i].Orphans])
	}
	return out
}

// StartedOnlyByHand reports a workflow whose every execution n8n runs in
// manual mode: it has an enabled trigger, every one a person fires from the
// editor, and no workflow of the set calls it (itself included: a call runs
// the callee in "integrated" mode). n8n runs no error workflow for a manual
// execution (packages/cli/src/execution-lifecycle/execution-lifecycle-hooks.ts
// hookFunctionsSave: dispatchesErrorWorkflow = !isManualMode && ...).
func StartedOnlyByHand(s *Set, w *n8nschema.Workflow) bool {
	for _, c := range s.CallsTo(w) {
		if c.Kind != CallN8nAPI {
			return false
		}
	}
	has := false
	g := s.Graph(w)
	for _, t := range g.Triggers() {
		if t.Disabled {
			continue
		}
		if !ByHand(t) {
			return false
		}
		has = true
	}
	return has
}

// calledBy reports whether another workflow of the set starts w.
func calledBy(s *Set, w *n8nschema.Workflow) bool {
	for _, c := range s.CallsTo(w) {
		if c.From != w && c.Kind != CallN8nAPI {
			return true
		}
	}
	return false
}

// DroppedReach tells who starts the runs that would reach the connections
// n8n does not follow (n8nschema.Problem Dropped). It walks the main
// connections with the dropped "main" ones added, a name no node holds
// standing for a node of its own, so a chain cut by a missing name still
// counts as reached from the trigger before the cut.
type DroppedReach struct {
	g          *Graph
	hand, live map[string]bool
}

// NewDroppedReach walks w's graph from its enabled triggers: those only a
// person fires (ByHand) and the others.
func NewDroppedReach(g *Graph) *DroppedReach {
	next := map[string][]string{}
	for _, e := range g.Edges {
		if e.Type == ConnMain {
			next[e.From.Name] = append(next[e.From.Name], e.To.Name)
		}
	}
	for _, p := range g.Workflow.Problems {
		for _, d := range p.Dropped {
			if d.Type == ConnMain {
				next[d.From] = append(next[d.From], d.To)
			}
		}
	}
	var hand, other []string
	for _, t := range g.Triggers() {
		switch {
		case t.Disabled:
		case ByHand(t):
			hand = append(hand, t.Name)
		default:
			other = append(other, t.Name)
		}
	}
	walk := func(starts []string) map[string]bool {
		seen := map[string]bool{}
		queue := append([]string(nil), starts...)
		for _, s := range starts {
			seen[s] = true
		}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range next[u] {
				if !seen[v] {
					seen[v] = true
					queue = append(queue, v)
				}
			}
		}
		return seen
	}
	return &DroppedReach{g: g, hand: walk(hand), live: walk(other)}
}

// ByHandOnly reports whether only a person in the editor starts the runs
// that would reach the edges: a Manual Trigger's runs reach one of them,
// and no other trigger's reach any. A "main" edge is reached when its
// source runs; another type's when the node it feeds runs (the root its
// sub-node chain feeds).
func (r *DroppedReach) ByHandOnly(edges []n8nschema.DroppedEdge) bool {
	hand := false
	for _, d := range edges {
		for _, k := range r.decides(d) {
			if r.live[k] {
				return false
			}
			hand = hand || r.hand[k]
		}
	}
	return hand
}

// Unreached reports edges no run reaches: the workflow has an enabled
// trigger, and no trigger's run reaches a node that decides any of them.
func (r *DroppedReach) Unreached(edges []n8nschema.DroppedEdge) bool {
	started := false
	for _, t := range r.g.Triggers() {
		started = started || !t.Disabled
	}
	if !started {
		return false
	}
	for _, d := range edges {
		for _, k := range r.decides(d) {
			if r.live[k] || r.hand[k] {
				return false
			}
		}
	}
	return true
}

// decides names the nodes whose runs reach edge d.
func (r *DroppedReach) decides(d n8nschema.DroppedEdge) []string {
	if d.Type == ConnMain {
		return []string{d.From}
	}
	n := r.g.Node(d.To)
	if n == nil {
		return nil
	}
	// climb sub-node chains (an embedding feeds a vector store that feeds
	// an agent) to the nodes main connections run; each node once.
	var out []string
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		out = append(out, u.Name)
		for _, root := range r.g.Roots(u) {
			if !seen[root] {
				seen[root] = true
				queue = append(queue, root)
			}
		}
	}
	return out
}

// Watched reports a node of workflow w whose every run a person starts in
// the editor, and so watches. Only a person's triggers (ByHand) and
// Execute Workflow Triggers reach it, at least one, and:
//
//   - no workflow of the set calls w, and only a person's triggers reach
//     it (ByHandOnly);
//   - or the set resolves calls to w, and each comes from a node of its
//     caller that is itself Watched (depth bounded by maxCallerDepth): a
//     tool or sub-workflow whose every caller a person starts, such as an
//     agent behind a Chat Trigger that is not public, which only the
//     editor's test chat runs (TestChatOnly);
//   - or no call of the set resolves to w, every enabled trigger of w is a
//     person's or an Execute Workflow Trigger, one is a person's, and w
//     itself calls, from a node a person's run reaches, a workflow the set
//     does not hold: an agent and its tools' workflow shipped in one file
//     (a template that says to split them), whose only caller in evidence
//     is that agent; or calls w itself so (an agent whose tool is its own
//     workflow, entered at the Execute Workflow Trigger).
//
// It reads only calls the set resolves, and w's own, so a group of linked
// files gives what the whole set gives.
func Watched(s *Set, w *n8nschema.Workflow, n *n8nschema.Node) bool {
	return newWatchTable(s, w).at(n, 0)
}

// WatchedIn is Watched for the nodes of workflow w, each walk of its graph
// made once for all of them (and the answer of its callers once): a rule
// that asks of every node walks the graph a few times, not a few times per
// node.
func WatchedIn(s *Set, w *n8nschema.Workflow) func(*n8nschema.Node) bool {
	t := newWatchTable(s, w)
	return func(n *n8nschema.Node) bool { return t.at(n, 0) }
}

// watchTable holds what Watched reads of workflow w: its enabled triggers
// by kind, and the walks from them, each made on first need.
type watchTable struct {
	s                                  *Set
	w                                  *n8nschema.Workflow
	g                                  *Graph
	hand, entry, other                 []*n8nschema.Node
	called                             bool
	handReach, notHand, unwatched, ran Reach
	// tail is the answer, at depth 0, of a node past the per-node tests
	// (it depends on w's calls only): 0 not yet known, 1 false, 2 true.
	tail int8
}

func newWatchTable(s *Set, w *n8nschema.Workflow) *watchTable {
	t := &watchTable{s: s, w: w, g: s.Graph(w), called: calledBy(s, w)}
	for _, tr := range t.g.Triggers() {
		switch {
		case tr.Disabled:
		case ByHand(tr):
			t.hand = append(t.hand, tr)
		case tr.Type == n8nschema.TypeExecuteWorkflowTrigger:
			t.entry = append(t.entry, tr)
		default:
			t.other = append(t.other, tr)
		}
	}
	return t
}

// reach is ReachFrom(g, starts...), walked once into *m.
func (t *watchTable) reach(m *Reach, starts ...*n8nschema.Node) Reach {
	if m.g == nil {
		*m = ReachFrom(t.g, starts...)
	}
	return *m
}

func watchedAt(s *Set, w *n8nschema.Workflow, n *n8nschema.Node, depth int) bool {
	return newWatchTable(s, w).at(n, depth)
}

func (t *watchTable) at(n *n8nschema.Node, depth int) bool {
	// ByHandOnly, with its walks kept.
	if !t.called && len(t.hand) > 0 && t.reach(&t.handReach, t.hand...).Has(n) && !t.reach(&t.notHand, append(slices.Clone(t.entry), t.other...)...).Has(n) {
		return true
	}
	unwatched := t.reach(&t.unwatched, t.other...) // one walk, however many triggers
	if unwatched.Has(n) {
		return false
	}
	if len(t.entry) == 0 || !t.reach(&t.ran, append(slices.Clone(t.hand), t.entry...)...).Has(n) {
		return false
	}
	if depth > 0 {
		return t.callsWatched(depth)
	}
	if t.tail == 0 {
		t.tail = 1
		if t.callsWatched(0) {
			t.tail = 2
		}
	}
	return t.tail == 2
}

// callsWatched is the rest of Watched, which reads w's calls, not the
// node: every call to w comes from a node of its caller that is itself
// Watched, or w calls a workflow the set lacks (or itself) from a node
// only a person's runs reach.
func (t *watchTable) callsWatched(depth int) bool {
	s, w := t.s, t.w
	unwatched := t.reach(&t.unwatched, t.other...)
	if t.called {
		if depth >= maxCallerDepth {
			return false
		}
		for _, c := range s.CallsTo(w) {
			if c.From == w || c.Kind == CallN8nAPI {
				continue
			}
			if c.Node == nil || !watchedAt(s, c.From, c.Node, depth+1) {
				return false
			}
		}
		return true
	}
	if len(t.hand) == 0 {
		return false
	}
	// The call must come from a node only a person's runs reach: an agent
	// a schedule also starts calls its tool unwatched.
	reach := t.reach(&t.handReach, t.hand...)
	for _, c := range s.CallsFrom(w) {
		if (c.To == nil && (c.Dynamic || c.Missing != "") || c.To == w) && (c.Kind == CallExecute || c.Kind == CallTool) && c.Node != nil && reach.Has(c.Node) && !unwatched.Has(c.Node) {
			return true
		}
	}
	return false
}
