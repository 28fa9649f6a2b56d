package cmd

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// GraphOptions are the graph command's flags.
type GraphOptions struct {
	IO          *IO
	Path        string
	Format      string
	MaxAttempts int
	MaxFileSize byteSize
	N8nVersion  string
}

func newGraphCmd(io *IO) *cobra.Command {
	opts := &GraphOptions{IO: io, MaxFileSize: defaultMaxFileSize}
	c := &cobra.Command{
		Use:   "graph FILE",
		Short: "Draw a workflow with its worst-case attempts per node",
		Long: `Draw the workflows of FILE as a Mermaid flowchart or a Graphviz digraph: every node, its
connections (AI sub-nodes dashed, error outputs labelled), the calls between workflows, and on each node
that calls out its worst-case attempts per logical operation. Nodes over --max-attempts are amber; nodes
on an unbounded cycle, and the edges of the cycle, are red. Paste the Mermaid text into a pull request, or
render the dot text with graphviz (dot -Tsvg).`,
		Example: `  stormcheck graph workflow.json
  stormcheck graph --format dot workflow.json | dot -Tsvg > workflow.svg`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("graph needs one FILE, got %d arguments\nRun 'stormcheck graph --help' for usage.", len(args))
			}
			opts.Path = args[0]
			if !oneOf(opts.Format, "mermaid", "dot") {
				return usageErrorf("--format %q: want mermaid or dot", opts.Format)
			}
			if opts.MaxAttempts < 1 || opts.MaxAttempts > maxCount {
				return usageErrorf("--max-attempts %d: want a whole number from 1 to %d", opts.MaxAttempts, maxCount)
			}
			return runGraph(opts)
		},
	}
	c.Flags().StringVarP(&opts.Format, "format", "f", "mermaid", "output format: mermaid|dot")
	c.Flags().IntVar(&opts.MaxAttempts, "max-attempts", analyze.DefaultOptions().MaxAttempts, "attempt budget; nodes over it are highlighted")
	c.Flags().Var(&opts.MaxFileSize, "max-file-size", "largest file or stdin read")
	n8nVersionFlag(c.Flags(), &opts.N8nVersion)
	return c
}

func runGraph(o *GraphOptions) error {
	if _, err := n8nVersion(o.N8nVersion, nil, o.IO.Err); err != nil {
		return err
	}
	wd, err := o.IO.Getwd()
	if err != nil {
		return err
	}
	ins, err := collectInputs([]string{o.Path}, o.IO.In, newNamer(wd, "", ""), int64(o.MaxFileSize))
	if err != nil {
		return err
	}
	files, err := parseInputs(ins, int64(o.MaxFileSize), false)
	if err != nil {
		return err
	}
	opts := analyze.DefaultOptions()
	opts.MaxAttempts = o.MaxAttempts
	set := analyze.Build(files, opts)
	if len(set.Workflows) == 0 {
		// Say why, as audit's RS001/RS002 finding would.
		for _, f := range files {
			if len(f.Problems) > 0 {
				p := f.Problems[0]
				at := ""
				if p.Pos.IsValid() {
					at = ":" + p.Pos.String()
				}
				return usageErrorf("no workflow found in %s%s: %s", report.Printable(f.Source.Name), at, report.Printable(report.Redact(p.Message)))
			}
		}
		return usageErrorf("no workflow found in %s", o.Path)
	}
	d := newDrawing(set)
	if o.Format == "dot" {
		return d.dot(o.IO.Out)
	}
	return d.mermaid(o.IO.Out)
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
	if l := g.LoopOf(e.From); l != nil && l.Unbounded && l == g.LoopOf(e.To) {
		return true
	}
	return e.Type == analyze.ConnMain && d.hot[e.From] && d.hot[e.To] && g.LoopOf(e.From) == nil
}

// edgeText is the label of an edge: its AI type, or "error" for the error
// output; "" for plain main edges.
func edgeText(e *analyze.Edge) string {
	switch {
	case e.Error:
		return "error"
	case e.Type != analyze.ConnMain:
		return strings.TrimPrefix(e.Type, "ai_")
	}
	return ""
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
		for _, e := range g.Edges {
			arrow := "-->"
			if e.Type != analyze.ConnMain {
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
		for _, e := range g.Edges {
			var attrs []string
			if t := edgeText(e); t != "" {
				attrs = append(attrs, "label="+dotQuote(t))
			}
			if e.Type != analyze.ConnMain {
				attrs = append(attrs, "style=dashed")
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
