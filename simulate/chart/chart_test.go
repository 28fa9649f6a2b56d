package chart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/simulate"
)

// dep is a dependency that receives perS attempts every second of a
// window of n seconds, failing while it is down.
func dep(name string, n, perS int, downS float64) simulate.Dependency {
	d := simulate.Dependency{Name: name, DownS: downS, Sent: make([]int, n), Failed: make([]int, n), Open: make([]int, n)}
	for i := range n {
		d.Sent[i] = perS
		if float64(i) < downS {
			d.Failed[i] = perS
			d.AttemptsDuring += perS
			d.FailedTotal += perS
		} else {
			d.AttemptsAfter += perS
		}
	}
	d.Peak = perS
	return d
}

func result(n int, down float64, deps ...simulate.Dependency) *simulate.Result {
	r := &simulate.Result{Seed: 1, Failure: simulate.Fail502, LatencyMS: 200, WindowS: n, RecoveryS: down, Workers: 2, Concurrency: 5,
		Waiting: make([]int, n), InFlight: make([]int, n), Dependencies: deps}
	for _, d := range deps {
		if d.DownS > 0 {
			r.Outages = append(r.Outages, simulate.OutageResult{Dependency: d.Name, DurationS: d.DownS})
		}
		r.Totals.AttemptsDuring += d.AttemptsDuring
		r.Totals.AttemptsAfter += d.AttemptsAfter
	}
	for i := range n {
		r.InFlight[i] = 10
		if float64(i) < down {
			r.Waiting[i] = 40
		}
	}
	r.Totals.PeakInFlight, r.Totals.PeakWaiting = 10, 40
	r.Totals.Arrived, r.Totals.Started, r.Totals.Succeeded, r.Totals.Failed = 100, 100, 60, 40
	drain := 12.0
	r.Totals.DrainS = &drain
	return r
}

func names(c column) []string {
	var out []string
	for _, p := range c.panels {
		out = append(out, p.name)
	}
	return out
}

// Down first (by name), then the most attempted, "(unknown)" last of
// them; private hosts and names early in the alphabet get no head start.
func TestPanelOrder(t *testing.T) {
	r := result(60, 30,
		dep("(unknown)", 60, 50, 0), dep("10.0.0.7", 60, 1, 0), dep("api.big.test", 60, 9, 0),
		dep("api.mid.test", 60, 4, 0), dep("zeta", 60, 2, 30), dep("openai", 60, 3, 30))
	runs := []simulate.Labelled{{Result: r}}
	for _, tc := range []struct {
		o    Options
		want []string
	}{
		{Options{Show: 2}, []string{"openai", "zeta", "api.big.test", "api.mid.test", "in flight", "waiting"}},
		{Options{Show: 0}, []string{"openai", "zeta", "in flight", "waiting"}},
		{Options{Show: 5}, []string{"openai", "zeta", "api.big.test", "api.mid.test", "10.0.0.7", "(unknown)", "in flight", "waiting"}},
		{Options{Deps: []string{"10.0.0.7", "openai"}}, []string{"10.0.0.7", "openai", "in flight", "waiting"}},
	} {
		s := build(runs, tc.o, fallbackRoom)
		if diff := cmp.Diff(tc.want, names(s.columns[0])); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.o, diff)
		}
	}
	var b bytes.Buffer
	if err := SVG(&b, runs, Options{Show: 1}); err != nil {
		t.Fatal(err)
	}
	if want := "Not drawn: 3 other dependencies with 3,300 attempts in all (api.mid.test, 10.0.0.7, (unknown))"; !strings.Contains(b.String(), want) {
		t.Errorf("the SVG does not say %q", want)
	}
	if err := CheckDeps(runs, []string{"openai", "stripe"}); err == nil || !strings.Contains(err.Error(), `"stripe"`) {
		t.Errorf("CheckDeps: %v", err)
	}
}

// The picture stays a picture whatever the input: a hundred long names,
// a long outage list, a day's window.
func TestDimensionsAreBounded(t *testing.T) {
	long := strings.Repeat("very-long-subdomain.", 12) + "example.com"
	var deps []simulate.Dependency
	for i := range 100 {
		deps = append(deps, dep(fmt.Sprintf("%s%03d", long, i), 86400, i+1, float64(3600*(i%2))))
	}
	r := result(86400, 3600, deps...)
	for i := range 40 {
		r.Notes = append(r.Notes, fmt.Sprintf("the self-trigger through %q was still re-starting the workflow when the window ended", strings.Repeat("x", i)))
	}
	for _, runs := range [][]simulate.Labelled{{{Result: r}}, {{Label: "as given", Result: r}, {Label: strings.Repeat("after audit --fix ", 20), Result: r}}} {
		// The SVG's layout, and the PNG's.
		for _, fit := range []float64{fallbackRoom, 1} {
			s := build(runs, Options{Show: 3}, fit)
			// Panels, and at most 900 px of title, totals, notes and footer.
			if s.w > compareW || s.h > 900+float64(len(s.columns[0].panels))*(headH+plotH+tickH+panelGap) {
				t.Errorf("%d runs: %v × %v px", len(runs), s.w, s.h)
			}
			if len(s.title) > 3 {
				t.Errorf("title of %d lines", len(s.title))
			}
			if got := len(s.columns[0].panels); got != 50+3+2 {
				t.Errorf("%d panels, want the 50 down, 3 others, in flight and waiting", got)
			}
			checkTextFits(t, s)
		}
		if len(runs) > 1 {
			continue // one PNG is enough, and slow to encode
		}
		var b bytes.Buffer
		if err := PNG(&b, runs, Options{Show: 3}); err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(&b)
		if err != nil || cfg.Width*cfg.Height > maxPNGPixels {
			t.Errorf("PNG %d × %d: %v", cfg.Width, cfg.Height, err)
		}
	}
}

// checkTextFits: every text, with the room a wider fallback font takes,
// lies inside the picture, and inside its column when it is in one.
func checkTextFits(t *testing.T, s *scene) {
	t.Helper()
	for _, sh := range s.shapes {
		if sh.kind != textShape {
			continue
		}
		w := s.room(sh.text, sh.size, sh.bold)
		x0 := sh.pts[0].x
		switch sh.anchor {
		case middle:
			x0 -= w / 2
		case end:
			x0 -= w
		}
		lo, hi := 0.0, s.w
		for _, c := range s.columns {
			if y := sh.pts[0].y; y >= s.colTop && y <= s.colBottom && x0 >= c.x && x0 < c.x+c.w {
				lo, hi = c.x, c.x+c.w+6
			}
		}
		if x0 < lo-0.5 || x0+w > hi+0.5 {
			t.Errorf("%q (%.0f px at %.0f) leaves %.0f–%.0f", sh.text, w, x0, lo, hi)
		}
	}
}

func TestAxesHaveTicksWithUnits(t *testing.T) {
	r := result(390, 90, dep("api.vendor.test", 390, 1234, 90))
	s := build([]simulate.Labelled{{Result: r}}, Options{}, fallbackRoom)
	p := s.columns[0].panels[0]
	var ys, xs []string
	for _, tk := range p.yTicks {
		ys = append(ys, tk.label)
	}
	for _, tk := range p.xTicks {
		xs = append(xs, tk.label)
	}
	if diff := cmp.Diff([]string{"0", "500", "1,000", "1,500"}, ys); diff != "" {
		t.Errorf("y ticks (-want +got):\n%s", diff)
	}
	if p.top != 1500 {
		t.Errorf("top %v, want 1500", p.top)
	}
	if diff := cmp.Diff([]string{"0", "1 min", "2 min", "3 min", "4 min", "5 min", "6 min"}, xs); diff != "" {
		t.Errorf("x ticks (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		n, max int
		want   string
	}{{20, 10, "0 2 s 4 s 6 s 8 s 10 s 12 s 14 s 16 s 18 s 20 s"}, {7200, 8, "0 15 min 30 min 45 min 60 min 75 min 90 min 105 min 120 min"}, {86400, 8, "0 3 h 6 h 9 h 12 h 15 h 18 h 21 h 24 h"}} {
		var got []string
		for _, tk := range timeTicks(tc.n, tc.max) {
			got = append(got, tk.label)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("timeTicks(%d, %d) = %q, want %q", tc.n, tc.max, strings.Join(got, " "), tc.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 11601: "11,601", 250000: "250k", 12_500_000: "12.5M"} {
		if got := compact(n); got != want {
			t.Errorf("compact(%d) = %q, want %q", n, got, want)
		}
	}
}

// --compare: two columns side by side, each row on the same y axis.
func TestCompareColumnsShareAxes(t *testing.T) {
	before := result(120, 60, dep("api.pay.test", 120, 1400, 60), dep("api.other.test", 120, 3, 0))
	after := result(120, 60, dep("api.pay.test", 120, 400, 60), dep("api.other.test", 120, 3, 0))
	after.Totals.PeakWaiting = 0
	s := build([]simulate.Labelled{{Label: "as given", Result: before}, {Label: "after audit --fix", Result: after}}, Options{Show: 3}, fallbackRoom)
	a, b := s.columns[0], s.columns[1]
	if b.x < a.x+a.w || s.w != compareW {
		t.Errorf("columns at %v+%v and %v in %v px", a.x, a.w, b.x, s.w)
	}
	if len(a.panels) != len(b.panels) {
		t.Fatalf("%d and %d panels", len(a.panels), len(b.panels))
	}
	for i := range a.panels {
		p, q := a.panels[i], b.panels[i]
		if p.name != q.name || p.y != q.y || p.top != q.top || !slices.Equal(p.yTicks, q.yTicks) {
			t.Errorf("row %d: %q at %v up to %v, %q at %v up to %v", i, p.name, p.y, p.top, q.name, q.y, q.top)
		}
	}
	if a.panels[0].top != 1500 {
		t.Errorf("api.pay.test axis up to %v, want 1500 in both columns", a.panels[0].top)
	}
	// The figures after the fixes carry their change: fewer attempts is
	// better, fewer successes worse.
	after.Totals.Succeeded = 20
	s = build([]simulate.Labelled{{Label: "as given", Result: before}, {Label: "after audit --fix", Result: after}}, Options{Show: 3}, fallbackRoom)
	type change struct {
		delta string
		color rgb
	}
	var got []change
	for _, c := range s.columns[1].cards {
		got = append(got, change{c.delta, c.deltaColor})
	}
	want := []change{{"−120,000", better}, {"−40", worse}, {"same", dim}, {"same", dim}, {"same", dim}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(change{}, rgb{})); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	checkTextFits(t, s)
}

// Names come from workflows: they reach the SVG escaped and printable, and
// the SVG stays well-formed XML; the PNG draws them without failing.
func TestWorkflowTextIsEscaped(t *testing.T) {
	evil := "evil<script>&\x1b[31m\u202e.test\""
	r := result(10, 5, dep(evil, 10, 3, 5))
	runs := []simulate.Labelled{{Label: "as given </text><script>", Result: r}, {Label: "after & <b>", Result: r}}
	var b bytes.Buffer
	if err := SVG(&b, runs, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script", "\x1b", "\u202e", "<b>"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q reached the SVG", bad)
		}
	}
	if !strings.Contains(out, "evil&lt;script&gt;&amp;?[31m?.test&#34;") {
		t.Errorf("the name is missing or escaped wrongly")
	}
	d := xml.NewDecoder(strings.NewReader(out))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
	}
	b.Reset()
	if err := PNG(&b, runs, Options{}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	s := build(runs, Options{}, 1)
	if got := img.Bounds().Size(); got.X != int(s.w*pngScale) || got.Y != int(s.h*pngScale) {
		t.Errorf("PNG %v, want %v × %v", got, s.w*pngScale, s.h*pngScale)
	}
}
