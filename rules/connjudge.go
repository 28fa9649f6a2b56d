package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// connJudge rates RS003's connections n8n does not follow by what they do
// to the owner's runs: who starts the runs that reach them, and whether
// losing them changes a run at all.
type connJudge struct {
	pass  *analyze.Pass
	g     *analyze.Graph
	reach *analyze.DroppedReach
	// frontTargets: the missing nodes that nodes which run connect to
	// (sameCauseFirst), found on first need.
	frontTargets map[string]bool
	// folded are, per node that ends the execution first, its siblings
	// that never run (analyze.Graph AbortedBefore).
	folded map[*n8nschema.Node][]*n8nschema.Node
	called bool
	// renames is false when the rename search would be too long (many
	// missing sources in a large workflow): noLoss then says nothing.
	renames bool
}

func newConnJudge(pass *analyze.Pass) *connJudge {
	g := pass.Set.Graph(pass.Workflow)
	j := &connJudge{pass: pass, g: g, called: calledByAnother(pass)}
	missing := 0
	for _, p := range pass.Workflow.Problems {
		if p.Node == "" && len(p.Dropped) > 0 {
			missing++
		}
	}
	j.renames = missing*len(g.Nodes) <= 1<<16
	for _, p := range pass.Workflow.Problems {
		if !p.Aborts {
			continue
		}
		if n := pass.Workflow.Node(p.Node); n != nil {
			if f := g.AbortedBefore(n); f != nil {
				if j.folded == nil {
					j.folded = map[*n8nschema.Node][]*n8nschema.Node{}
				}
				if !slices.Contains(j.folded[f], n) { // one entry per node, whatever its missing targets
					j.folded[f] = append(j.folded[f], n)
				}
			}
		}
	}
	return j
}

// judge sets d's severity and message for problem p; false when p is
// folded into another finding.
func (j *connJudge) judge(p n8nschema.Problem, d *analyze.Diagnostic) bool {
	w := j.pass.Workflow
	edges := p.Dropped
	switch {
	case p.Aborts:
		n := w.Node(p.Node)
		if n == nil {
			return true
		}
		if j.g.AbortedBefore(n) != nil {
			return false
		}
		if len(edges) == 0 {
			edges = []n8nschema.DroppedEdge{{From: p.Node, Type: analyze.ConnMain}}
		}
		// The run stops at the node along that connection: on n8n 2.41.1,
		// which drops the connection at the editor's import, silently; on
		// older n8n, or a workflow stored before the upgrade, by a throw
		// after the node ran, so nothing is sent twice or billed again
		// (workflow-execute.js, after a node runs). The work after it
		// never happens, a warning.
		d.Severity = analyze.Warning
		if j.reachOnce().Unreached(edges) {
			// Nothing any trigger runs leads to the node (its feeders
			// are missing from the export or unconnected): it never
			// runs, so nothing throws.
			d.Severity = analyze.Note
			d.Message += fmt.Sprintf("; no run reaches %q: no trigger leads to it, so no run stops or throws there", n.Name)
			return true
		}
		if sib := j.folded[n]; len(sib) > 0 {
			delete(j.folded, n) // named once, at n's first such connection
			names := make([]string, len(sib))
			for i, s := range sib {
				names[i] = fmt.Sprintf("%q", s.Name)
				d.Related = append(d.Related, analyze.Related{File: j.pass.File.Source.Name, Pos: s.Pos, Source: j.pass.File.Source,
					Message: fmt.Sprintf("%q also connects to a missing node and, on older n8n, never runs: %q gets the same items, runs first and ends the execution", s.Name, n.Name)})
			}
			d.Message += fmt.Sprintf("; %s, fed by the same output, %s the same, and on older n8n never %s: %q runs first", listNames(names), plural(len(sib), "does", "do"), plural(len(sib), "runs", "run"), n.Name)
		}
	case p.Fatal:
		j.unbuilt(d)
		return true
	case len(edges) == 0 || p.Note:
		return true
	case j.mangledSource(edges) != nil:
		j.mangled(j.mangledSource(edges), edges, d)
		return true
	case j.noLoss(edges):
		d.Severity = analyze.Note
		d.Message += "; no run changes: no node has that name, and every node it feeds is missing too or still fed by other connections"
		d.Stored = true // no run reads it: a refused run changes nothing
		return true
	}
	if p.Aborts {
		if n := w.Node(p.Node); n != nil && !j.g.Reachable(n) {
			switch {
			case !j.reachOnce().Reached(n.Name):
				// Nothing leads to it, even with the dropped connections
				// taken as drawn: no run gets to it (RS010 leaves such
				// nodes out too). It changes no run.
				d.Severity = analyze.Note
				d.Message += "; no run reaches it: no trigger leads to it"
				return true
			case j.sameCauseFirst(edges):
				// A node before it, which runs, throws the same error for
				// the same missing node first: one fix mends both.
				d.Severity = analyze.Note
				d.Message += "; no run reaches it: a node before it connects to the same missing node, where every run stops first"
				return true
			}
		}
	}
	if !j.called && j.reachOnce().ByHandOnly(edges) {
		d.Severity = analyze.Note
		d.Message += "; only a manual trigger's runs reach it: the person who clicked sees the run fail or stop"
	}
	return true
}

// unbuilt rates a shape n8n cannot build the workflow from: no execution
// starts, and whoever starts one meets the throw. With no trigger that
// fires without a person (none, or only a Manual Trigger) and no workflow
// calling it, that is the person who clicked, at once: a note. An export
// shown active with a trigger says n8n was to run it unattended, which it
// cannot: the trigger is never registered.
func (j *connJudge) unbuilt(d *analyze.Diagnostic) {
	w := j.pass.Workflow
	if !j.called {
		var live, hand []*n8nschema.Node
		for _, t := range j.g.Triggers() {
			switch {
			case t.Disabled:
			case analyze.ByHand(t):
				hand = append(hand, t)
			default:
				live = append(live, t)
			}
		}
		if len(live) == 0 {
			d.Severity = analyze.Note
			who := "the workflow has no trigger"
			if len(hand) > 0 {
				who = fmt.Sprintf("only %q starts it, by hand", hand[0].Name)
			}
			d.Message += "; " + who + ": the person who runs it from the editor sees the run fail at once"
			return
		}
	}
	if analyze.RunStateOf(w) == analyze.RunShown {
		d.Message += "; the export shows it active, but n8n cannot activate it: its triggers never fire"
	}
}

// sameCauseFirst reports whether a node that runs (Reachable) connects
// to a missing node that edges also connect to: its finding gives the
// same cause, and it ends the execution before edges' node is reached.
func (j *connJudge) sameCauseFirst(edges []n8nschema.DroppedEdge) bool {
	if j.frontTargets == nil {
		j.frontTargets = map[string]bool{}
		for _, p := range j.pass.Workflow.Problems {
			if n := j.pass.Workflow.Node(p.Node); p.Aborts && n != nil && j.g.Reachable(n) {
				for _, d := range p.Dropped {
					j.frontTargets[d.To] = true
				}
			}
		}
	}
	for _, d := range edges {
		if j.frontTargets[d.To] {
			return true
		}
	}
	return false
}

func (j *connJudge) reachOnce() *analyze.DroppedReach {
	if j.reach == nil {
		j.reach = analyze.NewDroppedReach(j.g)
	}
	return j.reach
}

// noLoss reports edges whose source is no node, with no node that may be
// it renamed (one without an edge of that type whose name holds the
// source's, or the reverse: a hand edit of part of a name), and whose
// every target is missing or keeps a feed of that type at that input: losing them
// changes no run.
func (j *connJudge) noLoss(edges []n8nschema.DroppedEdge) bool {
	if !j.renames {
		return false
	}
	for _, e := range edges {
		if j.g.Node(e.From) != nil {
			return false
		}
		if to := j.g.Node(e.To); to != nil && !fedAt(j.g.InOfType(to, e.Type), e.Input) {
			return false
		}
		from := strings.ToLower(strings.TrimSpace(e.From))
		for _, n := range j.g.Nodes {
			name := strings.ToLower(strings.TrimSpace(n.Name))
			if name != "" && from != "" && (strings.Contains(name, from) || strings.Contains(from, name)) && len(j.g.OutOfType(n, e.Type)) == 0 {
				return false
			}
		}
	}
	return true
}

// fedAt reports whether one of the edges ends at input in (a Merge's
// second input does not stand in for its first).
func fedAt(edges []*analyze.Edge, in int) bool {
	for _, e := range edges {
		if e.Input == in {
			return true
		}
	}
	return false
}

// listNames joins quoted names, the first three and a count of the rest.
func listNames(names []string) string {
	if len(names) <= 3 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
}

// mangledSource returns the node a source name no node holds stands for
// when the name is that node's with its non-ASCII letters replaced by
// U+FFFD (an encoding round-trip: "Intenci\uFFFD\uFFFDn" for "Intención"),
// and exactly one node's name fits; nil otherwise.
func (j *connJudge) mangledSource(edges []n8nschema.DroppedEdge) *n8nschema.Node {
	from := edges[0].From
	if !strings.ContainsRune(from, utf8.RuneError) || j.g.Node(from) != nil {
		return nil
	}
	var meant *n8nschema.Node
	for _, n := range j.g.Nodes {
		if n.Name != from && mangledFrom(from, n.Name) {
			if meant != nil {
				return nil
			}
			meant = n
		}
	}
	return meant
}

// mangledFrom reports whether mangled is name with each run of U+FFFD
// standing for one or two non-ASCII characters, every other character
// kept. It walks the set of places in name a prefix of mangled can end
// at, so it is linear in their lengths.
func mangledFrom(mangled, name string) bool {
	rs := []rune(name)
	at := make([]bool, len(rs)+1)
	at[0] = true
	m := []rune(mangled)
	for i := 0; i < len(m); {
		next := make([]bool, len(rs)+1)
		if m[i] == utf8.RuneError {
			for i < len(m) && m[i] == utf8.RuneError {
				i++
			}
			for k, ok := range at {
				for w := 1; ok && w <= 2 && k+w <= len(rs) && rs[k+w-1] >= utf8.RuneSelf && rs[k+w-1] != utf8.RuneError; w++ {
					next[k+w] = true
				}
			}
		} else {
			for k, ok := range at {
				if ok && k < len(rs) && rs[k] == m[i] {
					next[k+1] = true
				}
			}
			i++
		}
		at = next
	}
	return at[len(rs)]
}

// mangled rates the connections listed under a mangled name of node
// meant: n8n does not follow them, so meant loses every edge it does not
// also hold under its own name, and its targets no longer run after it.
func (j *connJudge) mangled(meant *n8nschema.Node, edges []n8nschema.DroppedEdge, d *analyze.Diagnostic) {
	d.Related = append(d.Related, analyze.Related{File: j.pass.File.Source.Name, Pos: meant.Pos, Source: j.pass.File.Source,
		Message: fmt.Sprintf("the node the name stands for: %q", meant.Name)})
	d.Message += fmt.Sprintf("; it is the name of %q with its non-ASCII letters replaced by U+FFFD (an encoding round-trip)", meant.Name)
	var lost []n8nschema.DroppedEdge
	var targets []string
	for _, e := range edges {
		held := false
		for _, o := range j.g.OutOfType(meant, e.Type) {
			held = held || o.To.Name == e.To && o.Input == e.Input
		}
		if held {
			continue
		}
		e.From = meant.Name
		lost = append(lost, e)
		if q := fmt.Sprintf("%q", e.To); !slices.Contains(targets, q) {
			targets = append(targets, q)
		}
	}
	switch {
	case len(lost) == 0:
		d.Severity = analyze.Note
		d.Message += fmt.Sprintf(", and %q holds every edge listed here under its own name too: no run changes", meant.Name)
		d.Stored = true
		return
	case j.reachOnce().Unreached(lost):
		d.Severity = analyze.Note
		d.Message += fmt.Sprintf("; no run reaches %q: no trigger leads to it", meant.Name)
		return
	case !j.called && j.reachOnce().ByHandOnly(lost):
		d.Severity = analyze.Note
		d.Message += "; only a manual trigger's runs reach it: the person who clicked sees the run stop"
		return
	}
	d.Severity = analyze.Warning
	d.Message += fmt.Sprintf(": n8n does not follow its edges to %s", listNames(targets))
	if lost[0].Type == analyze.ConnMain {
		d.Message += fmt.Sprintf(", which no longer %s after %q", plural(len(targets), "runs", "run"), meant.Name)
		if len(j.g.OutOfType(meant, analyze.ConnMain)) == 0 {
			d.Message += ": every run that reaches it ends there"
		}
	}
}
