// Package cputime reads the CPU time the process has used, for benchmarks
// on a shared machine: wall time there measures the other jobs as much as
// the code, CPU time measures the code.
package cputime

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// Used returns the user and system CPU time of the process so far (all
// threads, the garbage collector's included); 0 where it is unknown.
func Used() time.Duration { return used() }

// ReportPerOp reports the CPU time used since start (a Used value taken
// before the benchmark's loop) per iteration, as the metric cpu-ns/op.
func ReportPerOp(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((Used()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// Median is the median CPU time of runs calls of fn, each after a garbage
// collection, so that the other jobs of a shared machine, which come and
// go, and the garbage of the last call weigh little: what scaling tests
// compare.
func Median(runs int, fn func()) time.Duration {
	ds := make([]time.Duration, runs)
	for i := range ds {
		runtime.GC()
		start := Used()
		fn()
		ds[i] = Used() - start
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// Scales measures the median CPU time of small and of large (runs calls
// each) and returns them, measuring again up to tries times while large
// takes more than limit × small: on a busy machine one unlucky pair can
// cross a bound that the code keeps, while code that grows faster than
// the bound crosses it every time.
func Scales(tries, runs int, limit float64, small, large func()) (st, lt time.Duration) {
	for i := 0; i < tries; i++ {
		s, l := Median(runs, small), Median(runs, large)
		if i == 0 || float64(l)*float64(st) < float64(lt)*float64(s) {
			st, lt = s, l
		}
		if float64(lt) <= limit*float64(st) {
			break
		}
	}
	return st, lt
}
