package main

import (
	"slices"
	"testing"
)

func TestOffBy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n8n, sim []int64
		want     int
	}{
		{"n8n's own time", []int64{0, 1100, 2200}, []int64{0, 1000, 2000}, -1},
		// A wait of 5 s where simulate waits 1 s is found at once.
		{"wrong wait", []int64{0, 5000, 10000}, []int64{0, 1000, 2000}, 1},
		// The SDK's random backoff: one wait step apart at most.
		{"random backoff", []int64{0, 1700, 4500, 9500, 18700, 39500, 102400}, []int64{0, 1100, 3900, 7900, 22100, 41400, 77500}, -1},
		{"a missing step", []int64{0, 1000, 2000, 8000}, []int64{0, 1000, 2000, 3000}, 3},
	} {
		if got, _ := offBy(tc.n8n, tc.sim); got != tc.want {
			t.Errorf("%s: offBy = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestFirstRun(t *testing.T) {
	got := firstRun([]int64{0, 1000, 1300, 2300}, []int64{1200, 1250})
	if want := []int64{0, 1000}; !slices.Equal(got, want) {
		t.Errorf("firstRun = %v, want %v", got, want)
	}
}
