package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/muesli/termenv"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Text renders findings grouped by where they stand, the way rustc and
// actionlint do: the place (`file:line:col: node "OpenAI"`) and the JSON
// line with a caret once, then one line per finding
// (`error: message [RS301 unbounded-spend]`), each distinct chain and
// related place once. Each rule's fix is printed once, after the blocks;
// a finding whose fix is its own shows it in its block.
type Text struct {
	Color bool
	TTY   bool
	// UnsafeFixes marks unsafe repairs with [*] too, as --unsafe-fixes
	// makes them.
	UnsafeFixes bool
}

type textStyles struct {
	sev            map[analyze.Severity]textStyle
	pos, rule, dim textStyle
	plain          textStyle
	caret, gutter  textStyle
}

// textStyle is a lipgloss style that renders a text of one line without
// a tab as it is when there is no colour: what lipgloss makes of it then
// (it changes only tabs and the lines of a text of several), without the
// ~15,000 instructions a call of its Render costs (its borders, margins
// and widths reckoned on copies of the style; a text report renders
// ~24,000 pieces).
type textStyle struct {
	lipgloss.Style
	colorless bool
}

func (s textStyle) Render(text string) string {
	if s.colorless && strings.IndexByte(text, '\t') < 0 && strings.IndexByte(text, '\n') < 0 {
		return text
	}
	return s.Style.Render(text)
}

func (t *Text) styles(w io.Writer) textStyles {
	r := lipgloss.NewRenderer(w)
	if t.Color {
		r.SetColorProfile(termenv.ANSI)
	} else {
		r.SetColorProfile(termenv.Ascii)
	}
	style := func(s lipgloss.Style) textStyle { return textStyle{s, !t.Color} }
	// ANSI-16 indexes, so the user's theme picks the colours.
	return textStyles{
		sev: map[analyze.Severity]textStyle{
			analyze.Error:   style(r.NewStyle().Foreground(lipgloss.Color("9")).Bold(true)),
			analyze.Warning: style(r.NewStyle().Foreground(lipgloss.Color("11")).Bold(true)),
			analyze.Note:    style(r.NewStyle().Foreground(lipgloss.Color("12")).Bold(true)),
		},
		pos:    style(r.NewStyle().Bold(true)),
		plain:  style(r.NewStyle()),
		rule:   style(r.NewStyle().Foreground(lipgloss.Color("8"))),
		dim:    style(r.NewStyle().Foreground(lipgloss.Color("8"))),
		caret:  style(r.NewStyle().Foreground(lipgloss.Color("10")).Bold(true)),
		gutter: style(r.NewStyle().Foreground(lipgloss.Color("12"))),
	}
}

// maxRelated bounds the related places a block lists; the JSON and SARIF
// reports list them all.
const maxRelated = 3

// Render writes every block, the fixes and a summary.
func (t *Text) Render(w io.Writer, r *Result) error {
	st := t.styles(w)
	red := memo{}
	var b strings.Builder
	fs := r.Findings
	for i := 0; i < len(fs); {
		j := i + 1
		for j < len(fs) && sameBlock(&fs[i], &fs[j]) {
			j++
		}
		t.block(&b, st, red, r, fs[i:j])
		i = j
	}
	if len(fs) > 0 {
		t.fixes(&b, st, red, r)
	}
	if t.TTY && len(fs) > 0 {
		b.WriteString(summaryTable(st, fs))
		b.WriteString("\n")
	}
	t.summary(&b, st, r)
	_, err := io.WriteString(w, b.String())
	return err
}

// Concise writes one line per finding, as editors and grep read them
// (`file:line:col: severity: message [RS101 attempt-budget]`), then the
// summary.
type Concise struct {
	Color       bool
	UnsafeFixes bool
}

// Render writes one line per finding and the summary.
func (c *Concise) Render(w io.Writer, r *Result) error {
	t := &Text{Color: c.Color, UnsafeFixes: c.UnsafeFixes}
	st := t.styles(w)
	red := memo{}
	var b strings.Builder
	for i := range r.Findings {
		f := &r.Findings[i]
		at := place(f)
		if IsURL(f.File) && f.Node != "" {
			at += fmt.Sprintf(" node %q", red.Redact(f.Node))
		}
		fmt.Fprintf(&b, "%s: %s: %s%s %s\n",
			st.pos.Render(at),
			st.sev[f.Severity].Render(f.Severity.String()),
			t.fixMark(st, f), Printable(red.Redact(f.Message)),
			st.rule.Render("["+f.RuleID+" "+f.RuleName+"]"))
	}
	t.summary(&b, st, r)
	_, err := io.WriteString(w, b.String())
	return err
}

// fixMark is "[*] " before the message of a finding --fix repairs (an
// unsafe repair with --unsafe-fixes), as ruff marks its fixable
// diagnostics; "" for the others and for a live workflow, which --fix
// does not edit.
func (t *Text) fixMark(st textStyles, f *analyze.Finding) string {
	if f.Repair == nil || f.Repair.Safety != analyze.Safe && !t.UnsafeFixes || IsURL(f.File) {
		return ""
	}
	return st.caret.Render("[*]") + " "
}

// place is `file:line:col`, or the file alone when it has no line (a file
// that could not be read).
func place(f *analyze.Finding) string {
	return placeAt(f.File, f.Pos)
}

// placeAt is `file:line:col`; a workflow read from a live n8n is its
// editor's URL alone: the line and column are in the API's JSON, one line
// that nobody opens, and the block names the node.
func placeAt(file string, pos n8nschema.Pos) string {
	loc := Printable(file)
	if pos.IsValid() && !IsURL(file) {
		loc = fmt.Sprintf("%s:%d:%d", loc, pos.Line, pos.Col)
	}
	return loc
}

// IsURL: the file is a workflow read from a live n8n, named by the URL
// its editor opens it at.
func IsURL(file string) bool {
	return strings.HasPrefix(file, "https://") || strings.HasPrefix(file, "http://")
}

// sameBlock: findings on one node at one place share a block. Findings are
// sorted by file and position, so a block's findings are adjacent.
func sameBlock(a, b *analyze.Finding) bool {
	return a.File == b.File && a.Pos == b.Pos && a.Node == b.Node && a.Workflow == b.Workflow && a.WorkflowID == b.WorkflowID
}

func (t *Text) block(b *strings.Builder, st textStyles, red memo, r *Result, fs []analyze.Finding) {
	f := &fs[0]
	head := place(f) + ":"
	switch {
	case f.Node != "":
		head += fmt.Sprintf(" node %q", red.Redact(f.Node))
	case f.Workflow != "":
		head += fmt.Sprintf(" workflow %q", red.Redact(f.Workflow))
	}
	b.WriteString(st.pos.Render(head))
	b.WriteString("\n")
	if f.Source != nil && f.Pos.IsValid() && !IsURL(f.File) {
		num := strconv.Itoa(f.Pos.Line)
		pad := strings.Repeat(" ", len(num))
		s, _ := r.Capture.snippet(f.Source, f.Pos)
		text, col := s.text, max(s.col, 1)
		fmt.Fprintf(b, "  %s %s %s\n", st.gutter.Render(num), st.gutter.Render("|"), text)
		fmt.Fprintf(b, "  %s %s %s%s\n", pad, st.gutter.Render("|"), strings.Repeat(" ", col-1), st.caret.Render(caret(text, col)))
	}
	for i := range fs {
		f := &fs[i]
		fmt.Fprintf(b, "  %s: %s%s %s\n", st.sev[f.Severity].Render(f.Severity.String()), t.fixMark(st, f), Printable(red.Redact(f.Message)),
			st.rule.Render("["+f.RuleID+" "+f.RuleName+"]"))
	}
	var chains, lines []string
	for i := range fs {
		f := &fs[i]
		if multiplies(f) {
			if c := Printable(red.Redact(Chain(f.Chain))); !slices.Contains(chains, c) {
				chains = append(chains, c)
				fmt.Fprintf(b, "  = chain: %s\n", c)
			}
		}
	}
	for i := range fs {
		f := &fs[i]
		for k, rel := range f.Related {
			if k == maxRelated {
				word := "places"
				if len(f.Related)-maxRelated == 1 {
					word = "place"
				}
				fmt.Fprintf(b, "  = and %d more %s\n", len(f.Related)-maxRelated, word)
				break
			}
			l := fmt.Sprintf("  = see %s: %s\n", placeAt(rel.File, rel.Pos), Printable(red.Redact(rel.Message)))
			if !slices.Contains(lines, l) {
				lines = append(lines, l)
				b.WriteString(l)
			}
		}
	}
	for i := range fs {
		f := &fs[i]
		if f.Fix == "" || f.Fix == ruleFix(r, f.RuleID) {
			continue
		}
		l := fmt.Sprintf("  = fix (%s): %s\n", f.RuleID, Printable(red.Redact(f.Fix)))
		if !slices.Contains(lines, l) {
			lines = append(lines, l)
			b.WriteString(l)
		}
	}
}

// multiplies: the chain says more than the message, because it has
// several factors, an unbounded one, or one on another node. A chain of
// one bounded factor on the finding's own node ("3 SDK attempts (OpenAI)")
// only repeats the count the message gives.
func multiplies(f *analyze.Finding) bool {
	switch len(f.Chain) {
	case 0:
		return false
	case 1:
		c := f.Chain[0]
		return c.Unbounded || c.Node != f.Node || c.Via != ""
	}
	return true
}

// ruleFix is a rule's own fix text, which the fixes list prints once.
func ruleFix(r *Result, id string) string {
	for _, rule := range r.Rules {
		if rule.ID == id {
			return rule.Fix
		}
	}
	return ""
}

// fixes prints each rule's fix once, for the rules that fired, and where
// the rules are explained.
func (t *Text) fixes(b *strings.Builder, st textStyles, red memo, r *Result) {
	var ids []string
	names := map[string]string{}
	for _, f := range r.Findings {
		if _, ok := names[f.RuleID]; !ok && f.Fix != "" && f.Fix == ruleFix(r, f.RuleID) {
			names[f.RuleID] = f.RuleName
			ids = append(ids, f.RuleID)
		}
	}
	if len(ids) == 0 {
		return
	}
	slices.Sort(ids)
	b.WriteString("\n" + st.pos.Render("fixes") + " " + st.dim.Render("(stormcheck explain RULE tells why)") + "\n")
	for _, id := range ids {
		fmt.Fprintf(b, "  %s %s\n", st.rule.Render(id+" "+names[id]+":"), Printable(red.Redact(ruleFix(r, id))))
	}
	b.WriteString("\n")
}

// caret underlines the token at col: a quoted key or a scalar.
func caret(text string, col int) string {
	rs := []rune(text)
	i := col - 1
	if i >= len(rs) {
		return "^"
	}
	n := 1
	if rs[i] == '"' {
		for j := i + 1; j < len(rs); j++ {
			if rs[j] == '"' && rs[j-1] != '\\' {
				n = j - i + 1
				break
			}
		}
	} else {
		for j := i + 1; j < len(rs) && !strings.ContainsRune(",}] \t", rs[j]); j++ {
			n = j - i + 1
		}
	}
	n = min(n, 60)
	return "^" + strings.Repeat("~", n-1)
}

// Chain describes an amplification chain in words:
// `5 tries (OpenAI) × 3 SDK attempts (OpenAI Chat Model) × ∞ self-trigger (Restart) = ∞`.
func Chain(fs []analyze.Factor) string {
	parts := make([]string, 0, len(fs))
	total, unbounded := 1, false
	for _, f := range fs {
		if f.Unbounded {
			unbounded = true
		} else {
			total *= f.Value
		}
		parts = append(parts, factorText(f))
	}
	res := strconv.Itoa(total)
	if unbounded {
		res = "∞"
	}
	return strings.Join(parts, " × ") + " = " + res
}

// factorText is one factor in words: "5 tries (OpenAI)".
func factorText(f analyze.Factor) string {
	v := strconv.Itoa(f.Value)
	if f.Unbounded {
		v = "∞"
	}
	// Names are the workflow's: a token pasted into one is a secret too.
	where := Redact(f.Node)
	if f.Via != "" {
		where += " → " + Redact(f.Via)
	}
	if f.Workflow != "" {
		where += ", " + Redact(f.Workflow)
	}
	return fmt.Sprintf("%s %s (%s)", v, factorWords(f), where)
}

func factorWords(f analyze.Factor) string {
	switch f.Kind {
	case analyze.KindNodeRetry, analyze.KindRootRetry, analyze.KindToolRetry, analyze.KindCallerRetry:
		return "tries"
	case analyze.KindSDKRetry:
		return "SDK attempts"
	case analyze.KindErrorWorkflow:
		return "error-workflow run per failure"
	case analyze.KindSelfTrigger, analyze.KindLoop:
		return f.Kind
	case analyze.KindRedelivery:
		return "deliveries" // by the sender, when the answer is late
	case analyze.KindModelRetry:
		return "model iterations"
	}
	return strings.ReplaceAll(f.Kind, "-", " ")
}

func (t *Text) summary(b *strings.Builder, st textStyles, r *Result) {
	s := r.Summary
	switch {
	case s.Fixed > 0:
		// ruff's line after --fix (what was found, what --fix repaired),
		// with what is left by severity.
		left := ""
		if s.Findings > 0 {
			left = fmt.Sprintf(": %s, %s, %s", st.sev[analyze.Error].Render(count(s.Errors, "error")),
				st.sev[analyze.Warning].Render(count(s.Warnings, "warning")), st.sev[analyze.Note].Render(count(s.Notes, "note")))
		}
		fmt.Fprintf(b, "found %s (%d fixed, %d remaining%s) in %s (%s, %s)", count(s.Fixed+s.Findings, "finding"), s.Fixed, s.Findings, left,
			count(s.Workflows, "workflow"), count(s.Files, "file"), count(s.Nodes, "node"))
	case s.Findings == 0:
		fmt.Fprintf(b, "no findings in %s (%s, %s)", count(s.Workflows, "workflow"), count(s.Files, "file"), count(s.Nodes, "node"))
	default:
		fmt.Fprintf(b, "%s (%s, %s, %s) in %s (%s, %s)", count(s.Findings, "finding"),
			st.sev[analyze.Error].Render(count(s.Errors, "error")),
			st.sev[analyze.Warning].Render(count(s.Warnings, "warning")),
			st.sev[analyze.Note].Render(count(s.Notes, "note")),
			count(s.Workflows, "workflow"), count(s.Files, "file"), count(s.Nodes, "node"))
	}
	var extra []string
	if s.SkippedFiles > 0 {
		extra = append(extra, count(s.SkippedFiles, "non-workflow file")+" skipped")
	}
	if s.Ignored > 0 {
		extra = append(extra, strconv.Itoa(s.Ignored)+" ignored")
	}
	if s.Baselined > 0 {
		extra = append(extra, strconv.Itoa(s.Baselined)+" in baseline")
	}
	if s.BelowConfidence > 0 {
		extra = append(extra, strconv.Itoa(s.BelowConfidence)+" below --min-confidence")
	}
	if s.BelowSeverity > 0 {
		extra = append(extra, strconv.Itoa(s.BelowSeverity)+" below --min-severity")
	}
	if len(extra) > 0 {
		fmt.Fprintf(b, "; %s", strings.Join(extra, ", "))
	}
	b.WriteString("\n")
	switch {
	case t.UnsafeFixes && s.FixableUnsafe > 0:
		// The [*] marks count both: --unsafe-fixes was given.
		fmt.Fprintf(b, "%d fixable with --fix --unsafe-fixes\n", s.Fixable+s.FixableUnsafe)
	case s.Fixable > 0 && s.FixableUnsafe > 0:
		fmt.Fprintf(b, "%d fixable with --fix (%d more with --unsafe-fixes)\n", s.Fixable, s.FixableUnsafe)
	case s.Fixable > 0:
		fmt.Fprintf(b, "%d fixable with --fix\n", s.Fixable)
	case s.FixableUnsafe > 0:
		fmt.Fprintf(b, "%d fixable with --fix --unsafe-fixes\n", s.FixableUnsafe)
	}
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// summaryTable counts findings per rule and severity in a box table; only
// on a terminal (borders are Unicode, not ANSI, so they survive NO_COLOR).
func summaryTable(st textStyles, fs []analyze.Finding) string {
	type row struct {
		id, name string
		n        [4]int // by Severity
	}
	var rows []*row
	byID := map[string]*row{}
	for _, f := range fs {
		r := byID[f.RuleID]
		if r == nil {
			r = &row{id: f.RuleID, name: f.RuleName}
			byID[f.RuleID] = r
			rows = append(rows, r)
		}
		if f.Severity >= analyze.Note && f.Severity <= analyze.Error {
			r.n[f.Severity]++
		}
	}
	slices.SortFunc(rows, func(a, b *row) int { return strings.Compare(a.id, b.id) })
	cell := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	tb := table.New().Border(lipgloss.RoundedBorder()).BorderStyle(st.dim.Style).
		Headers("RULE", "NAME", "ERRORS", "WARNINGS", "NOTES").
		StyleFunc(func(row, col int) lipgloss.Style {
			switch {
			case row == table.HeaderRow:
				return st.pos.Padding(0, 1)
			case col == 2:
				return st.sev[analyze.Error].Padding(0, 1)
			case col == 3:
				return st.sev[analyze.Warning].Padding(0, 1)
			case col == 4:
				return st.sev[analyze.Note].Padding(0, 1)
			}
			return st.plain.Padding(0, 1)
		})
	for _, r := range rows {
		tb.Row(r.id, r.name, cell(r.n[analyze.Error]), cell(r.n[analyze.Warning]), cell(r.n[analyze.Note]))
	}
	return tb.Render()
}
