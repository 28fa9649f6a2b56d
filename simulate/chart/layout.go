package chart

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/simulate"
)

// Sizes in pixels.
const (
	margin     = 20.0
	singleW    = 900.0
	compareW   = 1240.0
	columnGap  = 28.0
	axisW      = 46.0 // the y axis labels, left of a plot
	plotH      = 84.0
	headH      = 20.0 // a panel's heading, above its plot
	tickH      = 18.0 // the time labels, below a plot
	panelGap   = 10.0
	cardH      = 54.0
	minCardW   = 150.0
	unknownDep = "(unknown)"
	maxNotes   = 4 // the notes of a run drawn; the text lists them all
)

// Options choose the dependencies drawn.
type Options struct {
	// Show is how many dependencies that were not down are drawn after
	// those that were, the most attempted first.
	Show int
	// Deps, when given, are the dependencies drawn, in this order.
	Deps []string
}

// rowKind is what a row of panels shows.
type rowKind int

const (
	depRow rowKind = iota
	inFlightRow
	waitingRow
)

type row struct {
	kind rowKind
	dep  string
}

// chosen are the dependencies drawn and those left out.
type chosen struct {
	drawn          []string
	hidden         []string
	hiddenAttempts int
}

// choose picks the dependencies: those down first, by name, then the
// Show most attempted (the most in either run); "(unknown)", the
// operations whose host is not known, comes last among them.
func choose(runs []simulate.Labelled, o Options) chosen {
	attempts := map[string]int{}
	down := map[string]bool{}
	var names []string
	for _, run := range runs {
		for _, d := range run.Result.Dependencies {
			if _, ok := attempts[d.Name]; !ok {
				names = append(names, d.Name)
			}
			attempts[d.Name] = max(attempts[d.Name], d.AttemptsDuring+d.AttemptsAfter)
			down[d.Name] = down[d.Name] || d.DownS > 0
		}
	}
	var c chosen
	if len(o.Deps) > 0 {
		for _, n := range o.Deps {
			if _, ok := attempts[n]; ok && !slices.Contains(c.drawn, n) {
				c.drawn = append(c.drawn, n)
			}
		}
	} else {
		slices.SortFunc(names, func(a, b string) int {
			return cmp.Or(
				-cmp.Compare(b2i(down[a]), b2i(down[b])),
				cmp.Compare(b2i(a == unknownDep), b2i(b == unknownDep)),
				-cmp.Compare(attempts[a], attempts[b]),
				cmp.Compare(a, b))
		})
		others := 0
		for _, n := range names {
			if down[n] || others < o.Show {
				c.drawn = append(c.drawn, n)
				if !down[n] {
					others++
				}
			}
		}
	}
	for _, n := range names {
		if !slices.Contains(c.drawn, n) {
			c.hidden = append(c.hidden, n)
			c.hiddenAttempts += attempts[n]
		}
	}
	if len(o.Deps) > 0 {
		slices.SortFunc(c.hidden, func(a, b string) int { return cmp.Or(-cmp.Compare(attempts[a], attempts[b]), cmp.Compare(a, b)) })
	}
	return c
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CheckDeps says which of deps no run has, naming those it has.
func CheckDeps(runs []simulate.Labelled, deps []string) error {
	have := map[string]bool{}
	var names []string
	for _, run := range runs {
		for _, d := range run.Result.Dependencies {
			if !have[d.Name] {
				have[d.Name] = true
				names = append(names, d.Name)
			}
		}
	}
	for _, d := range deps {
		if !have[d] {
			slices.Sort(names)
			return fmt.Errorf("--deps %q: no attempt reached it; the dependencies are: %s", d, strings.Join(names, ", "))
		}
	}
	return nil
}

func dependency(r *simulate.Result, name string) *simulate.Dependency {
	for i := range r.Dependencies {
		if r.Dependencies[i].Name == name {
			return &r.Dependencies[i]
		}
	}
	return nil
}

// build lays the runs out: a title, what the fixes change (two runs),
// then a column per run with its totals and a panel per row, the panels
// of a row on the same axes.
func build(runs []simulate.Labelled, o Options, fit float64) *scene {
	s := &scene{w: singleW, fit: fit}
	if len(runs) > 1 {
		s.w = compareW
	}
	inner := s.w - 2*margin
	first := runs[0].Result
	y := margin

	title := "Simulated outage: " + outages(first)
	if len(runs) > 1 {
		title = "Before and after audit --fix: " + outages(first)
	}
	s.title = s.wrap(simulate.Printable(title), 18, true, inner, 3)
	for _, l := range s.title {
		y += 22
		s.text(margin, y, l, 18, true, ink, start)
	}
	for _, l := range s.wrap(simulate.Printable(setting(first)), 12, false, inner, 2) {
		y += 17
		s.text(margin, y, l, 12, false, dim, start)
	}
	y += 10
	y = s.legend(y, runs)

	if len(runs) == 2 {
		s.notes = simulate.Changes(runs[0].Result, runs[1].Result)
		y = s.noteBox(y+6, s.notes, inner)
	}
	y += 8

	ch := choose(runs, o)
	var rows []row
	for _, d := range ch.drawn {
		rows = append(rows, row{kind: depRow, dep: d})
	}
	rows = append(rows, row{kind: inFlightRow})
	for _, run := range runs {
		if run.Result.Totals.PeakWaiting > 0 {
			rows = append(rows, row{kind: waitingRow})
			break
		}
	}

	colW := (inner - columnGap*float64(len(runs)-1)) / float64(len(runs))
	for i, run := range runs {
		c := column{x: margin + float64(i)*(colW+columnGap), w: colW, cards: cards(run.Result, runs)}
		if len(runs) > 1 {
			c.label = s.wrap(simulate.Printable(run.Label), 15, true, colW, 2)
		}
		s.columns = append(s.columns, c)
	}
	s.colTop = y
	// Labels of one or two lines: the cards start level.
	labelLines := 0
	for _, c := range s.columns {
		labelLines = max(labelLines, len(c.label))
	}
	for i := range s.columns {
		c := &s.columns[i]
		for k, l := range c.label {
			s.text(c.x, y+18+float64(k)*19, l, 15, true, ink, start)
		}
	}
	y += float64(labelLines)*19 + 6
	perRow := max(2, int(colW/minCardW))
	cardRows := (len(s.columns[0].cards) + perRow - 1) / perRow
	if len(s.columns) == 2 {
		compareCards(s.columns[0].cards, s.columns[1].cards)
	}
	for i := range s.columns {
		s.drawCards(&s.columns[i], y, perRow)
	}
	y += float64(cardRows)*cardH + 8

	for _, r := range rows {
		top, yTicks := countTicks(rowPeak(r, runs))
		for i, run := range runs {
			s.drawPanel(&s.columns[i], run.Result, r, y, top, yTicks)
		}
		y += headH + plotH + tickH + panelGap
	}
	for i := range s.columns {
		c := s.columns[i]
		s.text(c.x+c.w, y, "time from the start of the outage", 11, false, dim, end)
	}
	s.colBottom = y
	y += 8

	if len(ch.hidden) > 0 {
		more := fmt.Sprintf("Not drawn: %d other %s with %s %s in all (%s). --show N draws the N most attempted after those down; --deps a,b draws the ones named.",
			len(ch.hidden), plural(len(ch.hidden), "dependency", "dependencies"), count(ch.hiddenAttempts),
			plural(ch.hiddenAttempts, "attempt", "attempts"), listSome(ch.hidden, 6))
		for _, l := range s.wrap(simulate.Printable(more), 11, false, inner, 3) {
			y += 15
			s.text(margin, y, l, 11, false, dim, start)
		}
	}
	// The notes of each run (a self-trigger still running, a backlog left).
	noteY := y
	for i, run := range runs {
		c := s.columns[i]
		yy := noteY
		notes := run.Result.Notes
		if len(notes) > maxNotes {
			notes = append(notes[:maxNotes:maxNotes], fmt.Sprintf("%d more notes: --format text lists them.", len(notes)-maxNotes))
		}
		for _, n := range notes {
			yy += 4
			for _, l := range s.wrap(simulate.Printable("Note: "+n), 11, false, c.w, 3) {
				yy += 15
				s.text(c.x, yy, l, 11, false, dim, start)
			}
		}
		y = max(y, yy)
	}
	s.h = math.Ceil(y + margin)
	// The background goes first.
	s.shapes = append([]shape{{kind: rectShape, pts: []pt{{0, 0}, {s.w, s.h}}, color: white}}, s.shapes...)
	return s
}

func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// outages is what went down: "openai down 10 min (502 after 200 ms)".
func outages(r *simulate.Result) string {
	var outs []string
	for _, o := range r.Outages {
		outs = append(outs, o.Dependency+" down "+duration(o.DurationS))
	}
	how := fmt.Sprintf("a 502 after %d ms", r.LatencyMS)
	if r.Failure == simulate.FailTimeout {
		how = "each attempt times out"
	}
	return joinAnd(outs) + " (" + how + ")"
}

// setting is how the executions arrive and where they run.
func setting(r *simulate.Result) string {
	arr := "executions from the triggers' schedules"
	switch {
	case r.Executions > 0:
		arr = fmt.Sprintf("%s %s queued at 0 s per entry workflow", count(r.Executions), plural(r.Executions, "execution", "executions"))
	case r.RatePerMin > 0:
		arr = strconv.FormatFloat(r.RatePerMin, 'f', -1, 64) + " executions/min per entry workflow"
	}
	slots := r.Workers * r.Concurrency
	return fmt.Sprintf("%s · %d %s × %d concurrency (%s %s) · %s simulated · seed %d",
		arr, r.Workers, plural(r.Workers, "worker", "workers"), r.Concurrency, count(slots), plural(slots, "slot", "slots"),
		duration(float64(r.WindowS)), r.Seed)
}

// legend explains the colours, on one line.
func (s *scene) legend(y float64, runs []simulate.Labelled) float64 {
	items := []struct {
		c rgb
		t string
	}{{outage, "outage"}, {sent, "attempts sent per second"}, {failed, "of which failed"}, {inFlight, "executions in flight"}}
	for _, run := range runs {
		if run.Result.Totals.PeakWaiting > 0 {
			items = append(items, struct {
				c rgb
				t string
			}{waiting, "executions waiting for a slot"})
			break
		}
	}
	x := margin
	y += 14
	for _, it := range items {
		s.rect(x, y-9, 10, 10, it.c)
		s.text(x+14, y, it.t, 11, false, dim, start)
		x += 14 + s.room(it.t, 11, false) + 12
	}
	return y
}

// noteBox writes sentences in a tinted box with a bar at its left.
func (s *scene) noteBox(y float64, notes []string, w float64) float64 {
	var lines [][]string
	h := 8.0
	for _, n := range notes {
		l := s.wrap(simulate.Printable(n), 13, false, w-24, 6)
		lines = append(lines, l)
		h += float64(len(l))*18 + 6
	}
	s.rect(margin, y, w, h, noteBg)
	s.rect(margin, y, 4, h, noteBar)
	yy := y + 6
	for _, l := range lines {
		for _, t := range l {
			yy += 18
			s.text(margin+14, yy-4, t, 13, false, ink, start)
		}
		yy += 6
	}
	return y + h
}

// cards are the totals of a run; the set is the same for every run.
func cards(r *simulate.Result, runs []simulate.Labelled) []card {
	t := r.Totals
	// fig is a figure that compares: higher is worse, or better.
	fig := func(value, label string, n float64, higherWorse bool, f func(float64) string) card {
		return card{value: value, label: label, n: n, ok: true, higherWorse: higherWorse, format: f}
	}
	counted := func(v float64) string { return count(int(math.Abs(v))) }
	out := []card{
		fig(count(t.AttemptsDuring+t.AttemptsAfter), fmt.Sprintf("attempts sent, %s during the outage", count(t.AttemptsDuring)),
			float64(t.AttemptsDuring+t.AttemptsAfter), true, counted),
	}
	ex := fmt.Sprintf("executions succeeded; %s failed", count(t.Failed))
	if t.TimedOut > 0 {
		ex += fmt.Sprintf(", %s timed out", count(t.TimedOut))
	}
	out = append(out, fig(count(t.Succeeded)+" of "+count(t.Arrived), ex, float64(t.Succeeded), false, counted))
	if t.DrainS != nil {
		out = append(out, fig(duration(*t.DrainS), "to drain the backlog after recovery", *t.DrainS, true,
			func(v float64) string { return duration(math.Abs(v)) }))
	} else {
		out = append(out, card{value: "not drained", label: fmt.Sprintf("%s queued, %s running at the end", count(t.StillQueued), count(t.StillRunning))})
	}
	out = append(out, fig(count(t.DuplicateWrites), "duplicate writes (a write retried after a timeout)", float64(t.DuplicateWrites), true, counted))
	switch {
	case t.PaidCalls == 0:
		out = append(out, fig("$0", "no paid model call", 0, true, func(v float64) string { return fmt.Sprintf("$%.2f", math.Abs(v)) }))
	case t.CostUSD == nil:
		out = append(out, card{value: "unknown", label: fmt.Sprintf("cost of %s paid calls (a model has no price)", count(t.PaidCalls))})
	default:
		out = append(out, fig(fmt.Sprintf("$%.2f", *t.CostUSD), fmt.Sprintf("worst-case cost of %s paid %s", count(t.PaidCalls), plural(t.PaidCalls, "call", "calls")),
			*t.CostUSD, true, func(v float64) string { return fmt.Sprintf("$%.2f", math.Abs(v)) }))
	}
	kinds := map[string]bool{}
	for _, run := range runs {
		for _, rs := range run.Result.Restarts {
			kinds[rs.Kind] = true
		}
	}
	for _, k := range []string{"self-trigger", "loop"} {
		if !kinds[k] {
			continue
		}
		n := 0
		for _, rs := range r.Restarts {
			if rs.Kind == k {
				n += rs.Count
			}
		}
		label := "restarts by a workflow's own trigger"
		if k == "loop" {
			label = "passes of unguarded loops"
		}
		out = append(out, fig(count(n), label, float64(n), true, counted))
	}
	return out
}

// compareCards marks each figure of the run after the fixes with its
// change, green when it is better, red when it is worse.
func compareCards(before, after []card) {
	for i := range after {
		a, b := before[i], &after[i]
		if !a.ok || !b.ok {
			continue
		}
		d := b.n - a.n
		switch {
		case d == 0:
			b.delta, b.deltaColor = "same", dim
		default:
			sign := "+"
			if d < 0 {
				sign = "−"
			}
			b.delta = sign + b.format(d)
			b.deltaColor = worse
			if (d > 0) != b.higherWorse {
				b.deltaColor = better
			}
		}
	}
}

func (s *scene) drawCards(c *column, y float64, perRow int) {
	cw := c.w / float64(perRow)
	for i, cd := range c.cards {
		x := c.x + float64(i%perRow)*cw
		yy := y + float64(i/perRow)*cardH
		s.rect(x, yy+4, 3, cardH-12, grid)
		v := s.shorten(cd.value, 18, true, cw-16)
		s.text(x+10, yy+22, v, 18, true, ink, start)
		if cd.delta != "" {
			if dx := s.room(v, 18, true) + 6; dx+s.room(cd.delta, 11, true) <= cw-16 {
				s.text(x+10+dx, yy+22, cd.delta, 11, true, cd.deltaColor, start)
			}
		}
		for k, l := range s.wrap(cd.label, 11, false, cw-16, 2) {
			s.text(x+10, yy+36+float64(k)*13, l, 11, false, dim, start)
		}
	}
}

// rowPeak is the highest value of a row in any run: the row's y axis.
func rowPeak(r row, runs []simulate.Labelled) int {
	p := 0
	for _, run := range runs {
		res := run.Result
		switch r.kind {
		case depRow:
			if d := dependency(res, r.dep); d != nil {
				p = max(p, d.Peak)
			}
		case inFlightRow:
			p = max(p, slices.Max(append([]int{0}, res.InFlight...)), res.Workers*res.Concurrency)
		case waitingRow:
			p = max(p, res.Totals.PeakWaiting)
		}
	}
	return p
}

func (s *scene) drawPanel(c *column, r *simulate.Result, rw row, y, top float64, yTicks []tick) {
	p := panel{x: c.x + axisW, y: y + headH, w: c.w - axisW - 10, h: plotH, top: top, yTicks: yTicks}
	n := max(r.WindowS, 1)
	p.xTicks = timeTicks(n, max(1, int(p.w/64)))
	sx := func(t float64) float64 { return p.x + min(t, float64(n))/float64(n)*p.w }
	sy := func(v float64) float64 { return p.y + p.h - v/top*p.h }

	var name, detail string
	var series [][]int
	var colors []rgb
	shade := r.RecoveryS
	switch rw.kind {
	case depRow:
		name = rw.dep
		d := dependency(r, rw.dep)
		if d == nil {
			detail = "attempts/s · no attempt in this run"
			break
		}
		if d.DownS > 0 {
			shade = d.DownS
		}
		detail = fmt.Sprintf("attempts/s · peak %s at %s · %s sent", count(d.Peak), duration(float64(d.PeakS)), count(d.AttemptsDuring+d.AttemptsAfter))
		if d.Peak == 0 {
			detail = "attempts/s · no attempt in the window"
		}
		if d.FailedTotal > 0 {
			detail += fmt.Sprintf(", %s failed", count(d.FailedTotal))
		}
		series, colors = [][]int{d.Sent, d.Failed}, []rgb{sent, failed}
		p.name = d.Name
	case inFlightRow:
		name, p.name = "executions in flight", "in flight"
		detail = fmt.Sprintf("peak %s of %s slots", count(r.Totals.PeakInFlight), count(r.Workers*r.Concurrency))
		series, colors = [][]int{r.InFlight}, []rgb{inFlight}
	case waitingRow:
		name, p.name = "executions waiting for a slot", "waiting"
		detail = "peak " + count(r.Totals.PeakWaiting)
		series, colors = [][]int{r.Waiting}, []rgb{waiting}
	}
	if p.name == "" {
		p.name = name
	}

	// The heading: the name in bold, shortened first, then the figures.
	name = s.shorten(simulate.Printable(name), 13, true, c.w*0.6)
	s.text(c.x, y+14, name, 13, true, ink, start)
	nw := s.room(name, 13, true) + 8
	s.text(c.x+nw, y+14, s.shorten(detail, 11, false, c.w-nw), 11, false, dim, start)

	if shade > 0 {
		s.rect(p.x, p.y, sx(shade)-p.x, p.h, outage)
	}
	for _, t := range yTicks {
		yy := sy(t.v)
		if t.v > 0 {
			s.line([]pt{{p.x, yy}, {p.x + p.w, yy}}, grid, 1, false)
		}
		s.text(p.x-6, yy+4, t.label, 10, false, dim, end)
	}
	for k, ser := range series {
		if pts := steps(ser, n, p, sx, sy); pts != nil {
			s.area(pts, colors[k])
		}
	}
	if rw.kind == inFlightRow {
		slots := float64(r.Workers * r.Concurrency)
		s.line([]pt{{p.x, sy(slots)}, {p.x + p.w, sy(slots)}}, ink, 1, true)
		s.text(p.x+p.w-2, sy(slots)-3, "slots", 10, false, ink, end)
	}
	s.line([]pt{{p.x, p.y + p.h}, {p.x + p.w, p.y + p.h}}, axis, 1, false)
	s.line([]pt{{p.x, p.y}, {p.x, p.y + p.h}}, axis, 1, false)
	for _, t := range p.xTicks {
		xx := sx(t.v)
		s.line([]pt{{xx, p.y + p.h}, {xx, p.y + p.h + 4}}, axis, 1, false)
		a := middle
		if xx+s.room(t.label, 10, false)/2 > c.x+c.w {
			a = end
		}
		s.text(xx, p.y+p.h+15, t.label, 10, false, dim, a)
	}
	c.panels = append(c.panels, p)
}

// steps is the outline of a series drawn as columns at most a pixel wide,
// each the peak of the seconds it covers; a column with any value is at
// least a pixel high. Nil when the series is all zero.
func steps(ser []int, n int, p panel, sx, sy func(float64) float64) []pt {
	per := max(1, int(math.Ceil(float64(n)/p.w)))
	base := p.y + p.h
	pts := []pt{{p.x, base}}
	any := false
	last := math.NaN()
	for i := 0; i < len(ser); i += per {
		v := slices.Max(ser[i:min(i+per, len(ser))])
		yy := base
		if v > 0 {
			any = true
			yy = min(sy(float64(v)), base-1)
		}
		if yy != last {
			x := sx(float64(i))
			pts = append(pts, pt{x, pts[len(pts)-1].y}, pt{x, yy})
			last = yy
		}
	}
	if !any {
		return nil
	}
	end := sx(float64(len(ser)))
	return append(pts, pt{end, last}, pt{end, base})
}
