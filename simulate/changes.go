package simulate

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Changes says in sentences what the fixes change, from the two results
// alone: nothing at all, the load on the dependencies that were down, and
// why the run after the fixes looks worse when it does.
func Changes(before, after *Result) []string {
	if sameRun(before, after) {
		return []string{"The fixes change nothing this outage reaches: both runs send the same attempts in the same seconds " +
			"and end the same executions. What audit --fix repaired is not on the path of " + downNames(before) +
			", or only matters for another kind of failure; simulate the outage of the dependency it touches to see it."}
	}
	var out []string
	x, y := before.Totals, after.Totals
	downSame := true
	var load []string
	for _, d := range before.Dependencies {
		if d.DownS == 0 {
			continue
		}
		a := after.dependency(d.Name)
		if a == nil {
			continue
		}
		if !reflect.DeepEqual(d, *a) {
			downSame = false
		}
		b0, b1 := d.AttemptsDuring+d.AttemptsAfter, a.AttemptsDuring+a.AttemptsAfter
		if b0 == b1 && d.Peak == a.Peak {
			load = append(load, fmt.Sprintf("%s receives the same %s attempts", d.Name, FormatCount(b0)))
			continue
		}
		peak := fmt.Sprintf("peak %s/s instead of %s/s", FormatCount(a.Peak), FormatCount(d.Peak))
		if a.Peak == d.Peak {
			peak = fmt.Sprintf("the same peak, %s/s", FormatCount(a.Peak))
		}
		load = append(load, fmt.Sprintf("%s receives %s %s instead of %s (%s)",
			d.Name, FormatCount(b1), plural(b1, "attempt", "attempts"), FormatCount(b0), peak))
	}
	if downSame {
		var moved []string
		for _, d := range after.Dependencies {
			if b := before.dependency(d.Name); b == nil || !reflect.DeepEqual(*b, d) {
				moved = append(moved, d.Name)
			}
		}
		s := "The outage of " + downNames(before) + " plays out the same with the fixes"
		if len(moved) > 0 {
			s += "; they change only the load on " + listSome(moved, 4)
		}
		out = append(out, s+".")
	} else if len(load) > 0 {
		out = append(out, "With the fixes, "+strings.Join(load, "; ")+".")
	}

	if y.Succeeded < x.Succeeded {
		s := fmt.Sprintf("Fewer executions succeed with the fixes: %s instead of %s, and %s fail instead of %s.",
			FormatCount(y.Succeeded), FormatCount(x.Succeeded), FormatCount(y.Failed), FormatCount(x.Failed))
		var why []string
		after0, after1 := attemptsAfterRecovery(before), attemptsAfterRecovery(after)
		if after0 > after1 {
			n := len(before.Outages)
			why = append(why, fmt.Sprintf("As given, retries outlasted the outage: %s %s %s more attempts after %s at %s, "+
				"from executions still retrying that then succeeded; with the fixes they give up while %s down: "+
				"the failure shows instead of being hidden by retries.",
				downNames(before), plural(n, "receives", "receive"), FormatCount(after0-after1), plural(n, "it recovered", "the recovery"),
				FormatSeconds(before.RecoveryS), plural(n, "it is", "they are")))
		}
		if y.TimedOut > x.TimedOut {
			why = append(why, fmt.Sprintf("%s %s now end at their execution timeout (%s as given) instead of waiting for the dependency.",
				FormatCount(y.TimedOut), plural(y.TimedOut, "execution", "executions"), FormatCount(x.TimedOut)))
		}
		if len(why) == 0 {
			why = append(why, "The totals do not say why; compare the panels of each dependency below.")
		}
		out = append(out, s+" "+strings.Join(why, " "))
	}
	for _, d := range before.Dependencies {
		a := after.dependency(d.Name)
		if d.DownS == 0 || a == nil || a.AttemptsDuring <= d.AttemptsDuring {
			continue
		}
		s := fmt.Sprintf("%s receives more attempts during the outage with the fixes (%s instead of %s)",
			d.Name, FormatCount(a.AttemptsDuring), FormatCount(d.AttemptsDuring))
		switch {
		case y.Started > x.Started:
			s += fmt.Sprintf(" because executions give up sooner and free their slots, so more of them start in the window (%s instead of %s)",
				FormatCount(y.Started), FormatCount(x.Started))
		case y.PeakWaiting < x.PeakWaiting:
			s += fmt.Sprintf(" because executions give up sooner and free their slots: at most %s wait for one instead of %s",
				FormatCount(y.PeakWaiting), FormatCount(x.PeakWaiting))
		}
		out = append(out, s+".")
	}
	return out
}

// attemptsAfterRecovery sums the attempts the dependencies that were down
// received after the recovery.
func attemptsAfterRecovery(r *Result) int {
	n := 0
	for _, d := range r.Dependencies {
		if d.DownS > 0 {
			n += d.AttemptsAfter
		}
	}
	return n
}

func downNames(r *Result) string {
	var names []string
	for _, o := range r.Outages {
		if !slices.Contains(names, o.Dependency) {
			names = append(names, o.Dependency)
		}
	}
	return joinAnd(names)
}

// sameRun is true when the two results agree second by second.
func sameRun(a, b *Result) bool {
	return reflect.DeepEqual(a.Dependencies, b.Dependencies) && reflect.DeepEqual(a.Waiting, b.Waiting) &&
		reflect.DeepEqual(a.InFlight, b.InFlight) && reflect.DeepEqual(a.Totals, b.Totals)
}

func (r *Result) dependency(name string) *Dependency {
	for i := range r.Dependencies {
		if r.Dependencies[i].Name == name {
			return &r.Dependencies[i]
		}
	}
	return nil
}

// FormatCount writes n with thousands separators.
func FormatCount(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// FormatSeconds writes seconds as a person says them: 90 s, 10 min, 1 h 18 min.
func FormatSeconds(s float64) string {
	switch {
	case s < 120:
		return strconv.FormatFloat(math.Round(s*10)/10, 'f', -1, 64) + " s"
	case s < 3600:
		return strconv.FormatFloat(math.Round(s/6)/10, 'f', -1, 64) + " min"
	}
	h, m := int(s/3600), int(math.Round(math.Mod(s, 3600)/60))
	if m == 60 {
		h, m = h+1, 0
	}
	if m == 0 {
		return strconv.Itoa(h) + " h"
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

func joinAnd(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
