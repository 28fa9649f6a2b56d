package engine

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// GraphFormats are the formats Graph draws.
var GraphFormats = []string{"mermaid", "dot"}

// Graph draws the set's workflows as a Mermaid flowchart or a Graphviz
// digraph: every node with its worst-case attempts, the connections, and
// the calls between workflows; nodes over the attempt budget and those on
// an unbounded cycle are highlighted. Names are escaped and redacted.
func Graph(w io.Writer, set *analyze.Set, format string) error {
	d := newDrawing(set)
	switch format {
	case "mermaid":
		return d.mermaid(w)
	case "dot":
		return d.dot(w)
	}
	return fmt.Errorf("graph format %q: want mermaid or dot", format)
}

// drawing is what both formats show: nodes with their annotations, the
// edges inside workflows and the calls between them.
type drawing struct {
	set   *analyze.Set
	ids   map[*n8nschema.Node]string
	ops   map[*n8nschema.Node]*analyze.Operation
	hot   map[*n8nschema.Node]bool // on an unbounded cycle
	calls []*analyze.Call
}

func newDrawing(set *analyze.Set) *drawing {
	d := &drawing{set: set, ids: map[*n8nschema.Node]string{}, ops: map[*n8nschema.Node]*analyze.Operation{}, hot: map[*n8nschema.Node]bool{}}
	for wi, w := range set.Workflows {
		g := set.Graph(w)
		for i, n := range g.Nodes {
			d.ids[n] = "n" + strconv.Itoa(wi) + "_" + strconv.Itoa(i)
		}
		for _, n := range g.Nodes {
			if g.OnSelfTrigger(n) {
				d.hot[n] = true
			}
		}
		for _, l := range g.Loops {
			if l.Unbounded {
				for _, n := range l.Nodes {
					d.hot[n] = true
				}
			}
		}
		for _, op := range set.OperationsOf(w) {
			d.ops[op.Node] = op
			if op.Unbounded {
				d.hot[op.Node] = true
			}
		}
	}
	for _, c := range set.Calls {
		if c.Node != nil {
			d.calls = append(d.calls, c)
			if c.Cycle {
				d.hot[c.Node] = true
			}
		}
	}
	return d
}

// class is how a node is highlighted: "unbounded", "over" or "".
func (d *drawing) class(n *n8nschema.Node) string {
	if d.hot[n] {
		return "unbounded"
	}
	if op := d.ops[n]; op != nil && op.Attempts > d.set.Options.MaxAttempts {
		return "over"
	}
	return ""
}

// label is the node's name, short type and attempts, one per line.
func (d *drawing) label(n *n8nschema.Node) []string {
	typ := n.Type
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		typ = typ[i+1:]
	}
	lines := []string{report.Redact(n.Name), typ}
	if op := d.ops[n]; op != nil {
		a := strconv.Itoa(op.Attempts) + " attempts"
		if op.Attempts == 1 {
			a = "1 attempt"
		}
		if op.Unbounded {
			a = "∞ attempts"
		}
		if op.CallsUnbounded {
			a += ", ∞ calls/item"
		} else if op.CallsPerItem > 1 {
			a += ", " + strconv.Itoa(op.CallsPerItem) + " calls/item"
		}
		lines = append(lines, a)
	}
	if n.Disabled {
		lines = append(lines, "disabled")
	}
	return lines
}

// hotEdge reports whether a main edge lies on an unbounded cycle: a loop
// of the workflow, or a path between two nodes a self-trigger makes
// unbounded.
func (d *drawing) hotEdge(g *analyze.Graph, e *analyze.Edge) bool {
	if e.Unrun {
		return false
	}
	if l := g.LoopOf(e.From); l != nil && l.Unbounded && l == g.LoopOf(e.To) {
		return true
	}
	return e.Type == analyze.ConnMain && d.hot[e.From] && d.hot[e.To] && g.LoopOf(e.From) == nil
}

// edgeText is the label of an edge: its AI type, "error" for the error
// output, "never runs" for an output the node does not have; "" for
// plain main edges.
func edgeText(e *analyze.Edge) string {
	switch {
	case e.Unrun:
		return "never runs"
	case e.Error:
		return "error"
	case e.Type != analyze.ConnMain:
		return strings.TrimPrefix(e.Type, "ai_")
	}
	return ""
}

// drawnEdges are a workflow's edges, then those stored at an output the
// node does not have: the drawing shows what the author wired.
func drawnEdges(g *analyze.Graph) []*analyze.Edge {
	if len(g.Unrun) == 0 {
		return g.Edges
	}
	return append(slices.Clip(g.Edges), g.Unrun...)
}

func callText(c *analyze.Call) string {
	s := c.Kind.String()
	if c.Node != nil {
		k := analyze.MainAttempts(c.Node)
		if c.Kind == analyze.CallTool {
			k = analyze.ToolAttempts(c.Node)
		}
		if k > 1 {
			s += " ×" + strconv.Itoa(k)
		}
	}
	return s
}

// graphTitle names a workflow's box: its name or id, else its file, since
// Mermaid rejects an empty subgraph title.
func graphTitle(wf *n8nschema.Workflow) string {
	if l := wf.Label(); l != "" {
		return l
	}
	if wf.Source != nil && wf.Source.Name != "" {
		return "unnamed workflow in " + wf.Source.Name
	}
	return "unnamed workflow"
}

// mermaidText is a quoted Mermaid label of lines; names in it are the
// workflow's, so each line is escaped (report.MermaidText).
func mermaidText(lines []string) string {
	for i, l := range lines {
		lines[i] = report.MermaidText(l)
	}
	return `"` + strings.Join(lines, "<br/>") + `"`
}

func (d *drawing) mermaid(w io.Writer) error {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	var hotLinks []int
	link := 0
	for wi, wf := range d.set.Workflows {
		g := d.set.Graph(wf)
		fmt.Fprintf(&b, "  subgraph w%d[%s]\n", wi, mermaidText([]string{report.Redact(graphTitle(wf))}))
		for _, n := range g.Nodes {
			fmt.Fprintf(&b, "    %s[%s]", d.ids[n], mermaidText(d.label(n)))
			if c := d.class(n); c != "" {
				b.WriteString(":::" + c)
			}
			b.WriteString("\n")
		}
		b.WriteString("  end\n")
		for _, e := range drawnEdges(g) {
			arrow := "-->"
			if e.Type != analyze.ConnMain || e.Unrun {
				arrow = "-.->"
			}
			if t := edgeText(e); t != "" {
				arrow += "|" + mermaidText([]string{t}) + "|" // connection types are the workflow's keys
			}
			fmt.Fprintf(&b, "  %s %s %s\n", d.ids[e.From], arrow, d.ids[e.To])
			if d.hotEdge(g, e) {
				hotLinks = append(hotLinks, link)
			}
			link++
		}
	}
	for ci, c := range d.calls {
		targets := d.callTargets(c)
		if len(targets) == 0 {
			fmt.Fprintf(&b, "  x%d[%s]:::external\n", ci, mermaidText([]string{"not in the set", shortRef(c)}))
			targets = []string{"x" + strconv.Itoa(ci)}
		}
		for _, t := range targets {
			fmt.Fprintf(&b, "  %s ==>|%s| %s\n", d.ids[c.Node], mermaidText([]string{callText(c)}), t)
			if c.Cycle {
				hotLinks = append(hotLinks, link)
			}
			link++
		}
	}
	b.WriteString("  classDef unbounded fill:#fdd,stroke:#c00,stroke-width:2px\n")
	b.WriteString("  classDef over fill:#ffe8b3,stroke:#c80\n")
	b.WriteString("  classDef external stroke-dasharray:4 4\n")
	for _, l := range hotLinks {
		fmt.Fprintf(&b, "  linkStyle %d stroke:#c00,stroke-width:2px\n", l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// callTargets are the drawing ids of a call's entry nodes.
func (d *drawing) callTargets(c *analyze.Call) []string {
	var out []string
	for _, n := range c.Entry {
		if id, ok := d.ids[n]; ok {
			out = append(out, id)
		}
	}
	return out
}

// shortRef shows an unresolved reference without a URL's credentials or
// query string, and with any token in it masked (before it is shortened, so
// a cut cannot hide half a token from the redactor).
func shortRef(c *analyze.Call) string {
	r := report.Redact(strings.TrimPrefix(c.Ref, "="))
	if _, after, ok := strings.Cut(r, "://"); ok {
		if i := strings.IndexAny(after, "?#"); i >= 0 {
			after = after[:i]
		}
		if _, host, ok := strings.Cut(after, "@"); ok {
			after = host
		}
		r = after
	}
	if len([]rune(r)) > 48 {
		r = string([]rune(r)[:48]) + "…"
	}
	return r
}

// dotQuote is a quoted DOT string of lines: control characters shown as
// escapes (report.Printable), backslashes and quotes escaped, the lines
// joined by DOT's \n.
func dotQuote(lines ...string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	for i, l := range lines {
		lines[i] = r.Replace(report.Printable(l))
	}
	return `"` + strings.Join(lines, `\n`) + `"`
}

func (d *drawing) dot(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph stormcheck {\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n")
	for wi, wf := range d.set.Workflows {
		g := d.set.Graph(wf)
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%s;\n", wi, dotQuote(report.Redact(graphTitle(wf))))
		for _, n := range g.Nodes {
			attrs := "label=" + dotQuote(d.label(n)...)
			switch d.class(n) {
			case "unbounded":
				attrs += `, color="#cc0000", penwidth=2, style="rounded,filled", fillcolor="#ffdddd"`
			case "over":
				attrs += `, color="#cc8800", style="rounded,filled", fillcolor="#ffe8b3"`
			}
			fmt.Fprintf(&b, "    %s [%s];\n", d.ids[n], attrs)
		}
		b.WriteString("  }\n")
		for _, e := range drawnEdges(g) {
			var attrs []string
			if t := edgeText(e); t != "" {
				attrs = append(attrs, "label="+dotQuote(t))
			}
			if e.Type != analyze.ConnMain {
				attrs = append(attrs, "style=dashed")
			}
			if e.Unrun {
				attrs = append(attrs, "style=dotted")
			}
			if d.hotEdge(g, e) {
				attrs = append(attrs, `color="#cc0000"`, "penwidth=2")
			}
			fmt.Fprintf(&b, "  %s -> %s%s;\n", d.ids[e.From], d.ids[e.To], dotAttrs(attrs))
		}
	}
	for ci, c := range d.calls {
		targets := d.callTargets(c)
		if len(targets) == 0 {
			fmt.Fprintf(&b, "  x%d [label=%s, style=dashed];\n", ci, dotQuote("not in the set", shortRef(c)))
			targets = []string{"x" + strconv.Itoa(ci)}
		}
		for _, t := range targets {
			attrs := []string{"label=" + dotQuote(callText(c)), "style=bold"}
			if c.Cycle {
				attrs = append(attrs, `color="#cc0000"`, "penwidth=2")
			}
			fmt.Fprintf(&b, "  %s -> %s%s;\n", d.ids[c.Node], t, dotAttrs(attrs))
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func dotAttrs(a []string) string {
	if len(a) == 0 {
		return ""
	}
	return " [" + strings.Join(a, ", ") + "]"
}
