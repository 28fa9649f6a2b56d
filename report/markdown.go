package report

import (
	"cmp"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Markdown renders a pull-request comment or Actions step summary: the
// counts, a table of findings, and a Mermaid diagram of the chain of the
// worst operation.
type Markdown struct {
	// LinkBase is where the repository's files are browsed at the commit
	// audited (https://github.com/OWNER/REPO/blob/SHA/): locations link to
	// their line there. Empty: file locations are plain text; a workflow
	// read from a live n8n links to its editor either way.
	LinkBase string
}

// markdownRows caps the table; GitHub comments hold at most 65,536 characters.
const markdownRows = 50

// Render writes the comment.
func (m Markdown) Render(w io.Writer, r *Result) error {
	var b strings.Builder
	b.WriteString("## stormcheck\n\n")
	b.WriteString(markdownSummary(r.Summary) + "\n")
	if len(r.Findings) > 0 {
		b.WriteString("\n| Severity | Rule | Location | Workflow | Node | Message |\n|---|---|---|---|---|---|\n")
		// Errors first: the table may be cut, and a reviewer reads the top.
		rows := slices.Clone(r.Findings)
		slices.SortStableFunc(rows, func(a, b analyze.Finding) int { return cmp.Compare(b.Severity, a.Severity) })
		for i, f := range rows {
			if i == markdownRows {
				fmt.Fprintf(&b, "\n…and %s; the text, JSON or SARIF report has them all.\n", count(len(r.Findings)-markdownRows, "more finding"))
				break
			}
			fmt.Fprintf(&b, "| %s | [%s](%s) %s | %s | %s | %s | %s |\n",
				f.Severity, f.RuleID, f.URL, f.RuleName, m.location(&f), mdText(Redact(f.Workflow)), mdText(Redact(f.Node)), mdText(Redact(f.Message)))
		}
	}
	// With no finding there is nothing to explain: an operation the
	// baseline or an ignore hid is not the reader's worst.
	if node, wf, chain := worstChain(r); len(chain) > 0 && len(r.Findings) > 0 {
		fmt.Fprintf(&b, "\n### Worst operation: %s in %s\n\n%s\n\n", mdCode(Redact(node)), mdText(Redact(wf)), mdText(Chain(chain)))
		b.WriteString(mermaidChain(Redact(node)+" ("+Redact(wf)+")", chain))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// location is the finding's place, linked: a live workflow to its editor,
// a file to its line under LinkBase.
func (m Markdown) location(f *analyze.Finding) string {
	if IsURL(f.File) {
		return "[" + mdCode(f.File) + "](" + f.File + ")"
	}
	loc := f.File
	if f.Pos.IsValid() {
		loc += ":" + f.Pos.String()
	}
	if m.LinkBase == "" || f.File == "" || f.File == "<stdin>" || strings.HasPrefix(f.File, "/") || strings.HasPrefix(f.File, "../") {
		return mdCode(loc)
	}
	segs := strings.Split(f.File, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	link := m.LinkBase + strings.Join(segs, "/")
	if f.Pos.IsValid() {
		link += "#L" + strconv.Itoa(f.Pos.Line)
	}
	return "[" + mdCode(loc) + "](" + link + ")"
}

func markdownSummary(s Summary) string {
	where := fmt.Sprintf("%s (%s, %s)", count(s.Workflows, "workflow"), count(s.Files, "file"), count(s.Nodes, "node"))
	var line string
	if s.Findings == 0 {
		line = "No findings in " + where + "."
	} else {
		line = fmt.Sprintf("**%s** (%s, %s, %s) in %s.", count(s.Findings, "finding"),
			count(s.Errors, "error"), count(s.Warnings, "warning"), count(s.Notes, "note"), where)
	}
	var extra []string
	if s.Ignored > 0 {
		extra = append(extra, strconv.Itoa(s.Ignored)+" ignored")
	}
	if s.Baselined > 0 {
		extra = append(extra, strconv.Itoa(s.Baselined)+" in the baseline")
	}
	if s.BelowConfidence > 0 {
		extra = append(extra, strconv.Itoa(s.BelowConfidence)+" below --min-confidence")
	}
	if s.BelowSeverity > 0 {
		extra = append(extra, strconv.Itoa(s.BelowSeverity)+" below --min-severity")
	}
	if s.SkippedFiles > 0 {
		extra = append(extra, count(s.SkippedFiles, "non-workflow file")+" skipped")
	}
	if len(extra) > 0 {
		line += " Not shown: " + strings.Join(extra, ", ") + "."
	}
	return line
}

// worstChain picks the operation with the most attempts (unbounded first;
// the first one wins ties), from the analysis when it has operations, else
// from the findings' chains.
func worstChain(r *Result) (node, workflow string, chain []analyze.Factor) {
	bestN, bestInf := 0, false
	consider := func(n8nNode, wf string, fs []analyze.Factor, n int, inf bool) {
		if len(fs) == 0 {
			return
		}
		if chain == nil || inf && !bestInf || inf == bestInf && n > bestN {
			node, workflow, chain, bestN, bestInf = n8nNode, wf, fs, n, inf
		}
	}
	// Only an operation the report shows a finding on: one that an
	// ignore, the baseline or a filter hid is not the reader's worst.
	type place struct {
		src          *n8nschema.Source
		wf, id, node string
	}
	shown := map[place]bool{}
	for _, f := range r.Findings {
		shown[place{f.Source, f.Workflow, f.WorkflowID, f.Node}] = true
	}
	for _, w := range r.Workflows {
		for _, op := range w.Operations {
			if shown[place{w.Source, w.Name, w.ID, op.Node}] {
				consider(op.Node, w.Label(), op.Factors, op.Attempts, op.Unbounded)
			}
		}
	}
	if chain == nil {
		for _, f := range r.Findings {
			n, inf := chainTotal(f.Chain)
			consider(f.Node, f.Workflow, f.Chain, n, inf)
		}
	}
	return node, workflow, chain
}

func chainTotal(fs []analyze.Factor) (int, bool) {
	total := 1
	for _, f := range fs {
		if f.Unbounded {
			return 0, true
		}
		total *= f.Value
	}
	return total, false
}

// mermaidChain draws the chain outermost factor first, ending at the call.
func mermaidChain(title string, fs []analyze.Factor) string {
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	for i, f := range fs {
		fmt.Fprintf(&b, "  f%d[\"%s\"]\n", i, MermaidText(factorText(f)))
	}
	n, inf := chainTotal(fs)
	total := strconv.Itoa(n)
	if inf {
		total = "∞"
	}
	fmt.Fprintf(&b, "  op[\"%s\"]\n", MermaidText(title+": "+total+" attempts"))
	for i := range fs {
		next := "op"
		if i+1 < len(fs) {
			next = "f" + strconv.Itoa(i+1)
		}
		fmt.Fprintf(&b, "  f%d -->|×| %s\n", i, next)
	}
	b.WriteString("```\n")
	return b.String()
}
