package rules

import (
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

// TestTakeTurnsAroundTheWeek: two weekly workflows of one zone whose
// runs meet only across the week's end (one in flight until Sunday 00:00,
// the other firing then) run together, so both keep their runs; moved an
// hour apart, they take turns and only the one with the most attempts
// counts.
func TestTakeTurnsAroundTheWeek(t *testing.T) {
	const week, hour = 7 * 86_400_000, 3_600_000
	for _, c := range []struct {
		name     string
		late     [2]int // the second workflow's busy span
		wantRuns [2]int
	}{
		{"meet at the week's end", [2]int{0, 60_000}, [2]int{1, 1}},
		{"an hour apart", [2]int{hour, hour + 60_000}, [2]int{1, 0}},
	} {
		a := &analyze.WorkflowSummary{ID: "a", Ticks: &analyze.ClockTicks{Zone: "Europe/Paris", Busy: [][2]int{{week - 60_000, week}}}}
		b := &analyze.WorkflowSummary{ID: "b", Ticks: &analyze.ClockTicks{Zone: "Europe/Paris", Busy: [][2]int{c.late}}}
		ls := []load{{runs: 1, attempts: 3, w: a, paced: true}, {runs: 1, attempts: 2, w: b, paced: true}}
		g := &dependencyUsers{apart: map[string]bool{}}
		g.takeTurns("api.example.com", ls)
		if got := [2]int{ls[0].runs, ls[1].runs}; got != c.wantRuns {
			t.Errorf("%s: runs %v, want %v", c.name, got, c.wantRuns)
		}
	}
}
