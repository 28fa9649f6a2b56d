package chart

import (
	"math"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/simulate"
)

type tick struct {
	v     float64
	label string
}

// countTicks are 0 to a round top at or above peak, in steps of 1, 2 or 5
// times a power of ten, at most about four of them.
func countTicks(peak int) (top float64, ticks []tick) {
	step := 1.0
	if peak > 4 {
		raw := float64(peak) / 4
		p := math.Pow(10, math.Floor(math.Log10(raw)))
		for _, m := range []float64{1, 2, 5, 10} {
			if m*p >= raw {
				step = m * p
				break
			}
		}
	}
	top = math.Ceil(float64(max(peak, 1))/step) * step
	for v := 0.0; v <= top+step/2; v += step {
		ticks = append(ticks, tick{v, compact(int(v))})
	}
	return top, ticks
}

// count writes n with thousands separators.
func count(n int) string { return simulate.FormatCount(n) }

// compact writes a tick's value short enough for the axis: 12,000, 250k, 12.5M.
func compact(n int) string {
	switch {
	case n >= 10_000_000:
		return trimZero(float64(n)/1e6) + "M"
	case n >= 100_000:
		return trimZero(float64(n)/1e3) + "k"
	}
	return count(n)
}

func trimZero(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// timeSteps are the spacings a time axis may use, in seconds.
var timeSteps = []int{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200}

// timeTicks mark a window of n seconds every round step, at most maxTicks
// intervals: "30 s", "2 min", "1 h".
func timeTicks(n, maxTicks int) []tick {
	step := timeSteps[len(timeSteps)-1]
	for _, s := range timeSteps {
		if n/s <= maxTicks {
			step = s
			break
		}
	}
	var ticks []tick
	for v := 0; v <= n; v += step {
		ticks = append(ticks, tick{float64(v), timeLabel(v, step)})
	}
	return ticks
}

func timeLabel(v, step int) string {
	switch {
	case v == 0:
		return "0"
	case step%3600 == 0:
		return strconv.Itoa(v/3600) + " h"
	case step%60 == 0:
		return strconv.Itoa(v/60) + " min"
	}
	return strconv.Itoa(v) + " s"
}

// duration writes seconds as a person says them: 90 s, 10 min, 1 h 18 min.
func duration(s float64) string { return simulate.FormatSeconds(s) }

// plural picks the word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
