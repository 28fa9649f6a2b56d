package simulate

import (
	"strings"
	"testing"
)

// dep is a dependency that receives perS attempts every second of a
// window of n seconds, failing while it is down.
func dep(name string, n, perS int, downS float64) Dependency {
	d := Dependency{Name: name, DownS: downS, Sent: make([]int, n), Failed: make([]int, n), Open: make([]int, n)}
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

func result(n int, down float64, deps ...Dependency) *Result {
	r := &Result{Seed: 1, Failure: Fail502, LatencyMS: 200, WindowS: n, RecoveryS: down, Workers: 2, Concurrency: 5,
		Waiting: make([]int, n), InFlight: make([]int, n), Dependencies: deps}
	for _, d := range deps {
		if d.DownS > 0 {
			r.Outages = append(r.Outages, OutageResult{Dependency: d.Name, DurationS: d.DownS})
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

func TestCompareSentences(t *testing.T) {
	same := result(120, 60, dep("openai", 120, 2, 60), dep("api.other.test", 120, 1, 0))
	if got := Changes(same, result(120, 60, dep("openai", 120, 2, 60), dep("api.other.test", 120, 1, 0))); len(got) != 1 ||
		!strings.HasPrefix(got[0], "The fixes change nothing this outage reaches") || !strings.Contains(got[0], "not on the path of openai") {
		t.Errorf("identical runs: %q", got)
	}

	// Only another dependency moves.
	other := result(120, 60, dep("openai", 120, 2, 60), dep("api.other.test", 120, 5, 0))
	if got := Changes(same, other); len(got) != 1 || got[0] != "The outage of openai plays out the same with the fixes; they change only the load on api.other.test." {
		t.Errorf("another dependency: %q", got)
	}

	// Retries that outlasted the outage: fewer attempts after recovery,
	// fewer successes.
	before := result(120, 60, dep("api.pay.test", 120, 10, 60))
	after := result(120, 60, dep("api.pay.test", 120, 10, 60))
	after.Dependencies[0].AttemptsAfter -= 300
	after.Totals.Succeeded, after.Totals.Failed = 30, 70
	got := strings.Join(Changes(before, after), "\n")
	for _, want := range []string{
		"api.pay.test receives 900 attempts instead of 1,200 (the same peak, 10/s).",
		"Fewer executions succeed with the fixes: 30 instead of 60, and 70 fail instead of 40.",
		"As given, retries outlasted the outage: api.pay.test receives 300 more attempts after it recovered at 60 s",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("retries: want %q in\n%s", want, got)
		}
	}

	// An execution timeout now ends executions.
	after = result(120, 60, dep("api.pay.test", 120, 10, 60))
	after.Totals.Succeeded, after.Totals.Failed, after.Totals.TimedOut = 50, 50, 10
	got = strings.Join(Changes(before, after), "\n")
	if want := "10 executions now end at their execution timeout (0 as given) instead of waiting for the dependency."; !strings.Contains(got, want) {
		t.Errorf("timeout: want %q in\n%s", want, got)
	}

	// More attempts during the outage, from slots freed sooner.
	after = result(120, 60, dep("api.pay.test", 120, 12, 60))
	after.Totals.PeakWaiting = 5
	got = strings.Join(Changes(before, after), "\n")
	if want := "api.pay.test receives more attempts during the outage with the fixes (720 instead of 600) because executions give up sooner and free their slots: at most 5 wait for one instead of 40."; !strings.Contains(got, want) {
		t.Errorf("slots: want %q in\n%s", want, got)
	}
}

func TestFormat(t *testing.T) {
	for s, want := range map[float64]string{0: "0 s", 0.8: "0.8 s", 90: "90 s", 600: "10 min", 696: "11.6 min", 3600: "1 h", 4656: "1 h 18 min", 7199: "2 h"} {
		if got := FormatSeconds(s); got != want {
			t.Errorf("FormatSeconds(%v) = %q, want %q", s, got, want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := FormatCount(n); got != want {
			t.Errorf("FormatCount(%d) = %q, want %q", n, got, want)
		}
	}
}
