package report

import (
	"slices"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Capture holds what the renderers read from the sources' bytes and the
// full workflow model, taken while they are there, so that the audit can
// let each group of files go and still render byte for byte what it would
// from the whole set: the snippet text output shows at each place a
// finding stands (masked, at most snippetWidth runes of the line, so it
// costs what it shows), and, for SARIF, the position and JSON path of the
// node a finding names where the result moves to it. Edits carry their
// own positions (analyze.Edit).
//
// The engine calls Group for each group of files after its rules and
// repairs, with the places of its ignore directives; Result.Capture hands
// the capture to the renderers.
type Capture struct {
	// Needs says what to capture: snippets only for text output (they
	// are most of what a capture holds), node places only for SARIF.
	Needs

	mu       sync.Mutex
	snippets map[placeKey]snippet
	nodes    map[nodeKey]nodePlace
}

// placeKey is a place in a source: what a snippet depends on.
type placeKey struct {
	src            *n8nschema.Source
	line, col, off int
}

type snippet struct {
	text string
	col  int
}

// nodePlace is what SARIF reads of a finding's node: where its key stands
// and the JSON path of the node object.
type nodePlace struct {
	found bool // false: the set has no such node
	pos   n8nschema.Pos
	path  string
}

// Needs is what the renderers of a run read of the sources beyond the
// light set.
type Needs struct {
	Snippets bool // text: the masked line at each finding
	Places   bool // SARIF: where the node a finding names stands
}

// NeedsOf is what rendering the formats needs captured.
func NeedsOf(formats ...string) Needs {
	return Needs{Snippets: slices.Contains(formats, "text"), Places: slices.Contains(formats, "sarif")}
}

// NewCapture returns an empty capture of what need says.
func NewCapture(need Needs) *Capture {
	return &Capture{Needs: need, snippets: map[placeKey]snippet{}, nodes: map[nodeKey]nodePlace{}}
}

// Group captures, from a set whose sources are still there, everything the
// renderers need for the findings of its rules (fs), for the findings that
// the set-wide rules make at the end (RS505 at the node of a retried
// operation or the root that retries it, RS009 at a workflow with an id), and for those the filters
// make at the end at places (ignore directives, RS006). Safe for
// concurrent use.
func (c *Capture) Group(set *analyze.Set, fs []analyze.Finding, at ...Place) {
	g := c.newGroup(set)
	for i := range fs {
		f := &fs[i]
		g.place(f.Source, f.Pos)
		if c.Places && f.Node != "" && f.Source != nil {
			g.node(set, f.Source, f.Workflow, f.WorkflowID, f.Node, f.Pos)
		}
	}
	for _, op := range set.Operations {
		if w := op.Workflow; op.Dependency != "" && op.Retried() {
			g.place(w.Source, op.Node.Pos)
			if c.Places {
				g.node(set, w.Source, w.Name, w.ID, op.Node.Name, op.Node.Pos)
			}
			// RS505 stands on the agent or chain whose retries re-run a
			// sub-node's calls.
			for _, f := range op.Factors {
				if f.Kind == analyze.KindRootRetry && f.Source == w.Source {
					g.place(w.Source, f.Pos)
					if c.Places {
						g.node(set, w.Source, w.Name, w.ID, f.Node, f.Pos)
					}
				}
			}
		}
	}
	if c.Snippets {
		for _, w := range set.Workflows {
			if w.ID != "" {
				g.place(w.Source, w.Pos)
			}
		}
	}
	for _, p := range at {
		if w := p.Workflow; w != nil {
			g.place(w.Source, p.Pos)
			if c.Places && p.Node != "" {
				g.node(set, w.Source, w.Name, w.ID, p.Node, p.Pos)
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, s := range g.snippets {
		c.snippets[k] = s
	}
	for k, p := range g.places {
		c.nodes[k] = p
	}
}

// Place is where a finding made at the end of the audit will stand: at Pos, on
// the node named Node ("" for none) of Workflow.
type Place struct {
	Workflow *n8nschema.Workflow
	Node     string
	Pos      n8nschema.Pos
}

// captureGroup collects one call's captures without the lock: snippets
// cost a redaction, which runs outside it.
type captureGroup struct {
	red      *Redactor
	nodes    nodeIndex
	snippets map[placeKey]snippet
	places   map[nodeKey]nodePlace
}

func (c *Capture) newGroup(set *analyze.Set) *captureGroup {
	// The maps are made on first write: most groups have few findings or
	// none.
	g := &captureGroup{}
	if c.Snippets {
		g.red = NewRedactor(set)
	}
	return g
}

func (g *captureGroup) place(src *n8nschema.Source, pos n8nschema.Pos) {
	if g.red == nil || src == nil || !pos.IsValid() {
		return
	}
	k := placeKey{src, pos.Line, pos.Col, pos.Offset}
	if _, ok := g.snippets[k]; ok {
		return
	}
	text, col := g.red.Snippet(src, pos)
	if g.snippets == nil {
		g.snippets = map[placeKey]snippet{}
	}
	g.snippets[k] = snippet{text, col}
}

// node captures the place of the node a finding at pos names, when SARIF
// needs it: when the node is found at another place than pos, the result
// moves to the node's key (or names the setting pos is). A node that is
// not in the set, or stands at pos, gives the result pos itself, which a
// released set's renderers assume for any node not captured.
func (g *captureGroup) node(set *analyze.Set, src *n8nschema.Source, wf, id, name string, pos n8nschema.Pos) {
	k := nodeKey{src, wf, id, name}
	if _, ok := g.places[k]; ok {
		return
	}
	if g.nodes == nil {
		g.nodes = newNodeIndex(set)
	}
	p := g.nodes.place(k)
	if !p.found || !p.pos.IsValid() || p.pos == pos {
		return
	}
	// The key outlives the bytes its names may be views of.
	k.wf, k.id, k.node = strings.Clone(wf), strings.Clone(id), strings.Clone(name)
	if g.places == nil {
		g.places = map[nodeKey]nodePlace{}
	}
	g.places[k] = p
}

// snippet returns the captured snippet at pos.
func (c *Capture) snippet(src *n8nschema.Source, pos n8nschema.Pos) (snippet, bool) {
	if c == nil {
		return snippet{}, false
	}
	s, ok := c.snippets[placeKey{src, pos.Line, pos.Col, pos.Offset}]
	return s, ok
}

// nodeOf returns the captured place of a finding's node: none (the
// finding's own place) when the node is not in the set or stands where
// the finding does.
func (c *Capture) nodeOf(f *analyze.Finding) nodePlace {
	if c == nil || f.Node == "" {
		return nodePlace{}
	}
	return c.nodes[nodeKey{f.Source, f.Workflow, f.WorkflowID, f.Node}]
}
