package simulate

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// Labelled is one result with its label: the workflows as given, or after the fixes.
type Labelled struct {
	Label  string
	Result *Result
}

// numbers is an indented array of numbers, which JSON writes on one line
// each so that a series stays readable.
var (
	numbers = lazyregexp.NewRare(`\[\s+(-?[0-9.e+]+(?:,\s+-?[0-9.e+]+)*)\s+\]`)
	space   = lazyregexp.NewRare(`\s+`)
)

// JSON writes one result, or {"runs": [...]} when comparing.
func JSON(w io.Writer, runs []Labelled) error {
	var v any = runs[0].Result
	type labelled struct {
		Label string `json:"label"`
		*Result
	}
	out := struct {
		Runs []labelled `json:"runs"`
	}{}
	if len(runs) > 1 {
		for _, r := range runs {
			out.Runs = append(out.Runs, labelled{r.Label, r.Result})
		}
		v = out
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = numbers.ReplaceAllFunc(b, func(m []byte) []byte { return space.ReplaceAll(m, nil) })
	_, err = w.Write(append(b, '\n'))
	return err
}

// maxTextRestarts bounds the self-triggers and loops the text lists.
const maxTextRestarts = 20

// chartWidth and chartHeight are the terminal chart's size in cells.
const (
	chartWidth  = 60
	chartHeight = 6
)

// Text writes a chart of attempts per second for every dependency, the
// slots, and the totals.
func Text(w io.Writer, runs []Labelled, color bool) error {
	r := lipgloss.NewRenderer(w)
	r.SetColorProfile(termenv.Ascii)
	if color {
		r.SetColorProfile(termenv.ANSI)
	}
	st := textStyles{
		head: r.NewStyle().Bold(true),
		down: r.NewStyle().Foreground(lipgloss.Color("9")),
		up:   r.NewStyle().Foreground(lipgloss.Color("12")),
		dim:  r.NewStyle().Foreground(lipgloss.Color("8")),
		warn: r.NewStyle().Foreground(lipgloss.Color("11")).Bold(true),
	}
	var b strings.Builder
	for i, run := range runs {
		if i > 0 {
			b.WriteString("\n")
		}
		if run.Label != "" {
			b.WriteString(st.head.Render("== "+run.Label+" ==") + "\n")
		}
		textRun(&b, st, run.Result)
	}
	if len(runs) == 2 {
		textCompare(&b, st, runs[0], runs[1])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type textStyles struct {
	head, down, up, dim, warn lipgloss.Style
}

func textRun(b *strings.Builder, st textStyles, r *Result) {
	fmt.Fprintf(b, "%s\n", st.head.Render(summary(r)))
	for _, d := range r.Dependencies {
		title := Printable(d.Name)
		if d.DownS > 0 {
			title += fmt.Sprintf(" (down 0–%s)", secs(d.DownS))
		}
		fmt.Fprintf(b, "\n%s  peak %d %s per second at %d s\n", st.head.Render(title), d.Peak, plural(d.Peak, "attempt", "attempts"), d.PeakS)
		chart(b, st, d.Sent, int(d.DownS))
		fmt.Fprintf(b, "  attempts %d during the outage, %d after · failed %d · duplicate writes %d · paid calls %d%s\n",
			d.AttemptsDuring, d.AttemptsAfter, d.FailedTotal, d.DuplicateWrites, d.PaidCalls, costText(d.CostUSD, d.PaidCalls))
	}
	fmt.Fprintf(b, "\n%s  peak %d of %d slots\n", st.head.Render("executions in flight"), r.Totals.PeakInFlight, r.Workers*r.Concurrency)
	chart(b, st, r.InFlight, int(r.RecoveryS))
	if r.Totals.PeakWaiting > 0 {
		fmt.Fprintf(b, "\n%s  peak %d\n", st.head.Render("executions waiting for a slot"), r.Totals.PeakWaiting)
		chart(b, st, r.Waiting, int(r.RecoveryS))
	}
	t := r.Totals
	fmt.Fprintf(b, "\n%s\n", st.head.Render("totals"))
	fmt.Fprintf(b, "  executions: %d arrived, %d succeeded, %d failed (%d timed out), %d error-workflow runs, %d still queued and %d running at the end\n",
		t.Arrived, t.Succeeded, t.Failed, t.TimedOut, t.ErrorRuns, t.StillQueued, t.StillRunning)
	fmt.Fprintf(b, "  attempts: %d during the outage, %d after · duplicate writes %d · paid calls %d%s\n",
		t.AttemptsDuring, t.AttemptsAfter, t.DuplicateWrites, t.PaidCalls, costText(t.CostUSD, t.PaidCalls))
	if t.DrainS != nil {
		fmt.Fprintf(b, "  backlog drained %s after recovery\n", secs(*t.DrainS))
	} else {
		fmt.Fprintf(b, "  backlog not drained in the window\n")
	}
	for i, rs := range r.Restarts {
		if i == maxTextRestarts {
			fmt.Fprintf(b, "  … and %d more self-triggers and loops (--format json lists them all)\n", len(r.Restarts)-i)
			break
		}
		what := "re-started the workflow"
		if rs.Kind == "loop" {
			what = "looped back to " + strconv.Quote(rs.Via)
		}
		fmt.Fprintf(b, "  %s %q (workflow %q) %s %d times, the last at %s\n", rs.Kind, rs.Node, rs.Workflow, what, rs.Count, secs(rs.LastS))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "%s %s\n", st.warn.Render("note:"), Printable(n))
	}
}

func textCompare(b *strings.Builder, st textStyles, before, after Labelled) {
	fmt.Fprintf(b, "\n%s\n", st.head.Render("what the fixes change"))
	peak := func(r *Result) int {
		p := 0
		for _, d := range r.Dependencies {
			p = max(p, d.Peak)
		}
		return p
	}
	x, y := before.Result.Totals, after.Result.Totals
	fmt.Fprintf(b, "  peak attempts per second on one dependency: %d → %d\n", peak(before.Result), peak(after.Result))
	fmt.Fprintf(b, "  attempts during the outage: %d → %d; after: %d → %d\n", x.AttemptsDuring, y.AttemptsDuring, x.AttemptsAfter, y.AttemptsAfter)
	fmt.Fprintf(b, "  duplicate writes: %d → %d; paid calls: %d → %d\n", x.DuplicateWrites, y.DuplicateWrites, x.PaidCalls, y.PaidCalls)
	fmt.Fprintf(b, "  executions succeeded: %d → %d; failed: %d → %d; still queued at the end: %d → %d\n",
		x.Succeeded, y.Succeeded, x.Failed, y.Failed, x.StillQueued, y.StillQueued)
	for _, s := range Changes(before.Result, after.Result) {
		fmt.Fprintf(b, "  %s\n", Printable(s))
	}
}

// summary is the first line: what was simulated.
func summary(r *Result) string {
	var outs []string
	for _, o := range r.Outages {
		outs = append(outs, fmt.Sprintf("%s down %s", Printable(o.Dependency), secs(o.DurationS)))
	}
	arr := "executions from the triggers' schedules"
	switch {
	case r.Executions > 0:
		arr = fmt.Sprintf("%d executions queued at 0 s per entry workflow", r.Executions)
	case r.RatePerMin > 0:
		arr = fmt.Sprintf("%s executions/min per entry workflow", strconv.FormatFloat(r.RatePerMin, 'f', -1, 64))
	}
	if r.Items > 1 {
		arr += fmt.Sprintf(", %d items each", r.Items)
	}
	return fmt.Sprintf("%s (%s, latency %d ms); %s; %d %s × %d concurrency; seed %d; window %d s",
		strings.Join(outs, ", "), r.Failure, r.LatencyMS, arr, r.Workers, plural(r.Workers, "worker", "workers"), r.Concurrency, r.Seed, r.WindowS)
}

func secs(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) + " s" }

func costText(c *float64, paid int) string {
	switch {
	case paid == 0:
		return ""
	case c == nil:
		return " · cost unknown (no price for a model)"
	}
	return fmt.Sprintf(" · cost up to $%.2f", *c)
}

var blocks = []rune(" ▁▂▃▄▅▆▇█")

// chart draws a series as columns of chartWidth cells at most, each the
// peak of the seconds it covers; the seconds before downS are red.
func chart(b *strings.Builder, st textStyles, series []int, downS int) {
	n := len(series)
	if n == 0 {
		return
	}
	per := (n + chartWidth - 1) / chartWidth
	cols := (n + per - 1) / per
	peaks := make([]int, cols)
	top := 0
	for i, v := range series {
		peaks[i/per] = max(peaks[i/per], v)
		top = max(top, v)
	}
	label := strconv.Itoa(top)
	pad := strings.Repeat(" ", len(label))
	for row := chartHeight - 1; row >= 0; row-- {
		if row == chartHeight-1 {
			b.WriteString("  " + label + " ┤")
		} else {
			b.WriteString("  " + pad + " │")
		}
		for c, p := range peaks {
			// Eighths of a cell filled in this row.
			fill := 0
			if top > 0 {
				fill = p*chartHeight*8/top - row*8
			}
			if p > 0 && row == 0 && fill < 1 {
				fill = 1 // a column with any attempt shows
			}
			ch := string(blocks[min(max(fill, 0), 8)])
			if c*per < downS {
				ch = st.down.Render(ch)
			} else {
				ch = st.up.Render(ch)
			}
			b.WriteString(ch)
		}
		b.WriteString("\n")
	}
	axis := fmt.Sprintf("0 s%*s", cols-3, strconv.Itoa(n)+" s")
	// The axis is doubled under the outage, for terminals without colour.
	downCols := min(cols, (downS+per-1)/per)
	fmt.Fprintf(b, "  %s └%s%s\n", pad, strings.Repeat("═", downCols), strings.Repeat("─", cols-downCols))
	fmt.Fprintf(b, "  %s  %s", pad, st.dim.Render(axis))
	if per > 1 {
		fmt.Fprintf(b, st.dim.Render("  (one column = %d s)"), per)
	}
	b.WriteString("\n")
}

// Printable replaces control and other non-graphic characters of
// workflow text (a host, a name) so that it cannot drive the terminal,
// break XML or a chart's layout.
func Printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || unicode.IsGraphic(r) && !unicode.Is(unicode.Bidi_Control, r) {
			return r
		}
		return '?'
	}, s)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
