package rules

import (
	"fmt"
	"strconv"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs003 = &analyze.Rule{
	ID:    "RS003",
	Name:  "broken-connection",
	Title: "a connection names a missing node or has the wrong shape",
	Doc: `n8n keys "connections" by the source node's name and lists, per connection type, per output slot,
the target nodes as objects {"node", "type", "index"}. What n8n does with a connection it cannot read
depends on the shape (n8n-workflow's common/map-connections-by-destination.js, which builds every
workflow, and n8n-core's execution-engine/workflow-execute.js, which follows "main" outputs after a node
runs):

- an output slot that is an object, a number or a boolean, null where a connection belongs, null where
  a node's connections belong, or a node's connections written as a bare array of output slots
  ([[{"node": ...}]], read as connection type "0" whose slots are connection objects, L13-21) makes building
  the workflow throw ("object is not iterable"): no execution starts, and the workflow cannot be activated.
  An error, and the message says so when the export shows the workflow active; a note in a workflow that no
  trigger starts without a person (none, or only a Manual Trigger) and no workflow calls: the person who runs
  it from the editor sees it fail at once. A bare array whose slots hold no connection builds: its edges are
  ignored, as below.
- a "main" connection to a node that does not exist (renamed or deleted by hand), with no target name, or
  written as an array ["B", "main", 0]: n8n 2.41.1 will not import the workflow from the CLI or the API
  (its structure check, below: a missing target is unknown_connection_target) and its editor drops the
  connection at import (n8n-editor-ui's workflows.store filter of connections, called by
  useCanvasOperations' importWorkflowData: only {node, type, index} objects whose node it imports are
  kept), so the run stops at the source node along it and what the connection led to never runs, with no
  error. Older n8n (2.8.4) imports it by CLI or API, and then, as a workflow stored before the upgrade
  does, throws "Destination node not found" each time the source node has run: every execution that
  reaches it fails there. The message says both. Either way the work after the source never happens;
  the throw comes after that node's work is done, so nothing is sent twice or billed again: a warning. When no trigger's run
  reaches the source node (its feeders are missing from the export, or nothing connects to it), no
  execution throws there: a note. Siblings fed by the
  same output that all connect to a missing node get the same items; the first n8n runs (under v1 the
  top one on the canvas, then the left one; under the legacy order the first listed) throws and the others
  never run: one finding, on that first one, names them. A node no run reaches as exported is a note: one
  nothing leads to, even with the dropped connections taken as drawn (it never runs), and one behind a node
  that runs and connects to the same missing node (that node throws first, on every run that would reach
  this one, and its finding names the one fix).
- the same on another connection type (ai_tool, ai_languageModel ...), connections under a source name
  that is no node's (or keyed by node id after a scripted rewrite), or a node without a name are
  ignored: the edge does not exist for n8n, and stormcheck cannot follow it when it counts attempts. A
  warning. Under a source name that no node holds, nor any node that may be it renamed (one without an
  edge of that type whose name holds that name or is part of it), where every node fed is missing too or
  still fed by another connection of that type, no run changes: a note. A source name that is a node's
  with its non-ASCII letters replaced by U+FFFD (an encoding round-trip: "Intenci\uFFFD\uFFFDn" for
  "Intención", each run of U+FFFD standing for one or two such letters, exactly one node's name fitting)
  names that node: it loses every edge listed there that it does not also hold under its own name, and
  its targets no longer run after it, a warning whatever else feeds them (a note when no run reaches the
  node, or only a Manual Trigger's runs do).
- a connection above that only the runs a Manual Trigger starts reach (with the connections n8n does not
  follow taken as drawn, so a chain cut by a missing name counts as reached from the trigger before the
  cut), in a workflow no other workflow calls, is a note: the person who clicked sees the run fail or
  stop at once, as RS010 rates such a node.
- A node without a name is a note: the editor names it at import after its type's display name,
  with a number after it when that is taken (packages/frontend/editor-ui useCanvasOperations.ts
  importWorkflowData, uniqueNodeName). A connection to a missing node is a note too when it names what
  such a node would become ("Gmail1" beside a nameless Gmail node, or any name beside a community node's),
  and the warning above otherwise. A node with neither a name nor a type is not reported here, nor
  is a connection to or from a missing node beside it (it may be that node's lost name): n8n cannot build
  such a workflow at all, which RS010 reports.
- a "main" connection into an input index the target does not have (input 1 of a Twilio node, which has
  input 0 only; Merge and Compare Datasets have 2, Merge v3 numberInputs) is kept, but the target never
  gets its items: n8n makes the node wait for its input 0, which nothing fills, and when nothing else is
  left to run it pushes the node with that input empty (n8n-core's workflow-execute.js addNodeToBeExecuted
  and the waiting loop after it). Under the legacy execution order it then skips the node (runNode reads
  input 0 only, prepareConnectionInputData); under v1 it runs it on no items, and a node that calls a
  service per item calls nothing and returns nothing. Observed on n8n 2.41.1 and 2.8.4
  (docs/n8n-facts.md). No error is raised: the work silently never happens. A warning when the target, or
  a node after it that no run reaches now, calls a service, a run reaches the source and no other
  connection brings the target items (it then runs on those only, and so does what follows it, as observed on
  n8n 2.41.1 under the legacy order: a note, unless it is a Function or Code node that looks these items up by a
  marker field a Set node on their path writes, items.find(i => i.json.source === 'refunds'), and then throws when
  it finds none or reads the found item's json: every run that reaches it fails there, a warning; also a note when
  those items come from behind a node that fails on every run, which RS010 reports, and the note says so; not
  reported when other connections feed it and it reads the source by name, $items("Fetch prices") in its code:
  it takes those items whatever its inputs hold, so nothing is lost, and the connection only makes it run after
  the source; joining them on input 0 would run it once per source); a note otherwise, and when only
  a run a person starts reaches the source (they see the node did not run). Several such connections into one
  node are one defect, in how it is fed: one finding, the first of the highest severity, names the others. A
  warning for a target that gets no other items says so when the runs that reach the source already fail before
  it, at a node whose own input is lost and whose code throws for it (above): that shows first. Every
  rule reads the graph without
  these connections (analyze.Edge.NoInput). Told only for n8n-nodes-base's nodes; under v1 not for a
  node that runs once for all its input (Code, Function, Execute Workflow), which may act on none.
- an empty object or null under a connection type ("typeOptions": {}, "main": null) holds no edge: n8n
  runs the workflow as drawn. A note.
- outputs written as an object keyed by output index ("main": {"0": [...]}) are followed as the array they
  stand for: n8n reads each key as the output it names (for...in). A note; a key that is no output index
  ("first") names no output, so its connections are never followed: a warning.
- on "main", an object or null (empty or not) is an error when an enabled Webhook (v2 on) or Form Trigger
  reaches the node: on every request they list the nodes after them (n8n-nodes-base's Webhook/utils.js
  checkResponseModeConfiguration, through n8n-workflow's common/get-connected-nodes.js), which calls
  forEach on each node's "main" outputs and throws, so the request fails and no execution starts.

n8n 2.41.1 also refuses to import or save a workflow with any of these shapes or names (its workflow
structure check, n8n-workflow's workflow-structure-validation.js, called at import, create and when an
update saves a new version: n8n/dist/services/import.service.js, workflows/workflow-creation.service.js,
workflows/workflow.service.js); 1.123.81 and 2.8.4 import it. Observed with a "main" connection to a missing node
(docs/n8n-facts.md): n8n 2.41.1's import:workflow exits 1 with "Workflow structure is invalid.
connections.Set.main[0][0].node (unknown_connection_target): Connection target "Gone" does not reference an
existing node" and imports nothing of that run. A workflow already stored is not checked
when it is activated or its metadata changes, so after an upgrade it runs as described above: the
severities follow those runs. In a
workflow that also holds a node of a type n8n does not ship, n8n cannot build the workflow at all, so no run
reaches the connection (RS010 reports the workflow): every finding is a note there, and says why. A finding
on a run that n8n refuses for a required parameter left blank (RS010) is a note that says so, as for every
rule; for a connection into an input the target does not have, the runs read are those that reach its source,
so the note names the blank before the source, not one before the target's other inputs (n8n checks a run's
start and the nodes after it: n8n-core workflow-execute.js checkReadyForExecution). So is one on a connection whose source names a template's blank (a key typed as "Bearer
YOUR_API_KEY", a credential id n8n never generates) or that every run reaches only past a node that does:
as exported that node fails on every item, so the lost items would not come anyway (analyze.Graph.BehindBlank;
the target is not reached along the dropped connection, so the source is asked, and a blank the target
names gates nothing: the finding keeps its severity and adds no clause for it); a shape that makes
building the workflow throw is not about a run, and stays an error.`,
	Fix:        "Reconnect the nodes in the n8n editor and export again, or correct the node name in connections",
	FixDoc:     "None: a connection to a missing node is either a typo or a deleted node; only the author knows which.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"input"},
	Run: func(pass *analyze.Pass) {
		reportProblems(pass, n8nschema.BrokenConnection, 0)
		reportNoInput(pass)
	},
}

// reportNoInput reports the main connections into an input index their
// target does not have (analyze.Edge.NoInput): the target never gets
// their items, and nothing says so. A warning when the target calls a
// service, or a node only it leads to does, and it gets items from no
// other connection (that work silently never happens) while a run reaches
// the source; a note otherwise.
func reportNoInput(pass *analyze.Pass) {
	if pass.Workflow == nil {
		return
	}
	g := pass.Set.Graph(pass.Workflow)
	if len(g.Unloadable) > 0 {
		return // n8n cannot build it: RS010 reports it
	}
	seen := map[*n8nschema.Node]bool{} // cutCall's, shared: each node walked once
	// One finding per target: its connections into inputs it lacks are
	// one defect (one Merge mends them all); the first of the highest
	// severity speaks, and names the others.
	// The nodes whose code throws on every run for the items such a
	// connection keeps from them: a run stops there, before what follows.
	throwsAt := map[*n8nschema.Node]bool{}
	for _, e := range g.Unrun {
		if e.NoInput && !e.To.Disabled && g.Reachable(e.From) {
			if _, ok := g.DroppedInputThrow(e); ok {
				throwsAt[e.To] = true
			}
		}
	}
	var order []*n8nschema.Node
	byTarget := map[*n8nschema.Node][]analyze.Diagnostic{}
	froms := map[*n8nschema.Node][]string{} // the sources, quoted, in byTarget's order
	for i, e := range g.Unrun {
		if !e.NoInput {
			continue
		}
		inputs := "input 0 only"
		if k := analyze.MainInputs(e.To); k > 1 {
			inputs = fmt.Sprintf("inputs 0-%d only", k-1)
		}
		how := "n8n waits for its input 0, which no such connection fills, and skips it at the end (the legacy execution order)"
		if pass.Workflow.Settings.ExecutionOrder == "v1" {
			how = "n8n waits for its input 0, which no such connection fills, then runs it on that empty input (execution order v1), where it calls nothing and returns nothing"
		}
		// Its other connections bring items to input 0: n8n runs it on
		// those, and what follows it (observed on n8n 2.41.1, legacy
		// order), once a node before it that fails on every run is fixed.
		first, behind := g.FailsBefore(e.To)
		fed := g.Reachable(e.To) || behind
		if fed && analyze.ReadsNodeByName(e.To, e.From.Name) {
			continue // it reads those items by name: the connection only orders the run
		}
		if fed {
			how = "n8n runs it on the items its other connections bring to input 0 and never hands it these"
		}
		if behind {
			how += fmt.Sprintf(" (once %q, which fails on every run before it, is fixed)", first.Name)
		}
		msg := fmt.Sprintf("%q connects to input %d of %q, which has %s: %s, so these items never reach it and no error says so",
			e.From.Name, e.Input, e.To.Name, inputs, how)
		sev := analyze.Note
		role := g.Spec(e.To).Role
		switch {
		case e.To.Disabled:
			msg += "; it is disabled"
		case !g.Reachable(e.From):
			msg += "; no run reaches " + strconv.Quote(e.From.Name)
		case fed:
			// Its work happens, for other items only, unless its code
			// needs the items that never come.
			if why, ok := g.DroppedInputThrow(e); ok {
				sev = analyze.Warning
				msg += "; " + why + ": every run that reaches it fails there"
			}
		case role == n8nschema.RoleExternal || role == n8nschema.RoleModel:
			sev = analyze.Warning
			msg += "; its call never happens"
		default:
			if c := cutCall(g, e.To, seen); c != nil {
				sev = analyze.Warning
				msg += fmt.Sprintf("; nor does %q after it run, so its call never happens", c.Name)
			}
		}
		if sev == analyze.Warning && !fed && len(throwsAt) > 0 {
			if t := throwsBefore(g, e.From, throwsAt); t != nil {
				msg += fmt.Sprintf(" (for now a run that passes %q fails there first, since its code throws for the items its own lost inputs would bring: this shows once that is fixed)", t.Name)
			}
		}
		if sev == analyze.Warning && (watched(pass, e.From) || untriggered(pass)) {
			// A person runs it and sees the node did not run.
			sev = analyze.Note
			msg += " (" + byHandWhy(g, e.From) + ")"
		}
		if sev == analyze.Warning {
			if why, ok := fromBehindBlank(g, e); ok {
				sev = analyze.Note
				msg += why
			}
		}
		if _, ok := byTarget[e.To]; !ok {
			order = append(order, e.To)
		}
		froms[e.To] = append(froms[e.To], fmt.Sprintf("%q (input %d)", e.From.Name, e.Input))
		byTarget[e.To] = append(byTarget[e.To], analyze.Diagnostic{Node: e.To, Pos: g.UnrunPos(i), Message: msg, Severity: sev, Unreached: true, From: e.From,
			Fix: fmt.Sprintf("Connect %q to input 0 of %q in the n8n editor", e.From.Name, e.To.Name)})
	}
	for _, to := range order {
		ds := byTarget[to]
		top := 0
		for k, d := range ds {
			if d.Severity > ds[top].Severity {
				top = k
			}
		}
		d := ds[top]
		if len(ds) > 1 {
			var others []string
			for k, o := range ds {
				if k == top {
					continue
				}
				others = append(others, froms[to][k])
				d.Related = append(d.Related, analyze.Related{File: pass.File.Source.Name, Pos: o.Pos, Source: pass.File.Source, Message: o.Message})
			}
			d.Message += fmt.Sprintf("; %s %s the same way: one defect, in how %q is fed",
				listNames(others), plural(len(others), "is lost", "are lost"), to.Name)
			d.Fix = fmt.Sprintf("Connect them to input 0 of %q in the n8n editor, or join them in a Merge node first when it needs their items together", to.Name)
		}
		pass.Report(d)
	}
}

// throwsBefore returns a node of throwsAt at or before n along main
// connections (nearest first), nil when there is none.
func throwsBefore(g *analyze.Graph, n *n8nschema.Node, throwsAt map[*n8nschema.Node]bool) *n8nschema.Node {
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		if throwsAt[u] {
			return u
		}
		for _, e := range g.In(u) {
			if e.Type == analyze.ConnMain && !seen[e.From] {
				seen[e.From] = true
				queue = append(queue, e.From)
			}
		}
	}
	return nil
}

// cutCall returns the first node that calls a service among those after n
// that no run reaches (n's main outputs, walked breadth first through
// unreached nodes): work the wiring cut off. The walk skips what an
// earlier walk saw, so all of them together stay linear.
func cutCall(g *analyze.Graph, n *n8nschema.Node, seen map[*n8nschema.Node]bool) *n8nschema.Node {
	queue := []*n8nschema.Node{n}
	seen[n] = true
	for h := 0; h < len(queue); h++ {
		for _, e := range g.Out(queue[h]) {
			t := e.To
			if e.Type != analyze.ConnMain || seen[t] || g.Reachable(t) || t.Disabled {
				continue
			}
			seen[t] = true
			if r := g.Spec(t).Role; r == n8nschema.RoleExternal || r == n8nschema.RoleModel {
				return t
			}
			queue = append(queue, t)
		}
	}
	return nil
}

// fromBehindBlank says why the items a connection to a missing input
// would bring do not come as exported: its source names a template's
// blank, or every run reaches the source only past a node that does
// (analyze.Graph.BehindBlank). The target is not reached along the
// dropped connection, so the finding holds whatever the target's own
// parameters are: a blank the target names, or one before its other
// inputs, gates nothing here (the diagnostic is Unreached, so Pass.Report
// adds no clause for the target).
func fromBehindBlank(g *analyze.Graph, e *analyze.Edge) (string, bool) {
	b, ok := g.BehindBlank(e.From)
	switch {
	case !ok:
		return "", false
	case b.Self:
		return b.Clause(strconv.Quote(e.From.Name), " and sends no item"), true
	}
	return b.Clause("that node", fmt.Sprintf(" and no run gets to %q", e.From.Name)), true
}
