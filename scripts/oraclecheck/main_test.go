package main

import (
	"slices"
	"testing"
)

func TestOffBy(t *testing.T) {
	for _, tc := range []struct {
		name         string
		n8n, sim, wv []int64
		want         int
	}{
		{"n8n's own time", []int64{0, 1100, 2200}, []int64{0, 1000, 2000}, nil, -1},
		// A wait of 5 s where simulate waits 1 s is found at once.
		{"wrong wait", []int64{0, 5000, 10000}, []int64{0, 1000, 2000}, nil, 1},
		// The SDK's random backoff: one wait step apart at most.
		{"random backoff", []int64{0, 1700, 4500, 9500, 18700, 39500, 102400}, []int64{0, 1100, 3900, 7900, 22100, 41400, 77500}, nil, -1},
		{"a missing step", []int64{0, 1000, 2000, 8000}, []int64{0, 1000, 2000, 3000}, nil, 3},
		// Each wave of restarts before an attempt adds 0.5 s.
		{"restarts", []int64{0, 1000, 3000, 6000}, []int64{0, 1000, 2300, 3500}, []int64{1500, 3000, 4500}, -1},
		{"no restarts", []int64{0, 1000, 3000, 6000}, []int64{0, 1000, 2300, 3500}, nil, 3},
	} {
		if got, _ := offBy(tc.n8n, tc.sim, tc.wv); got != tc.want {
			t.Errorf("%s: offBy = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestWaves(t *testing.T) {
	got := waves([]int64{5000, 100, 300, 2000, 2100, 2700, 5100})
	if want := []int64{100, 2000, 2700, 5000}; !slices.Equal(got, want) {
		t.Errorf("waves = %v, want %v", got, want)
	}
}
