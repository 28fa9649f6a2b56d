//go:build linux

// Command abpair times two or more binaries on the same arguments in
// paired rounds and says how they compare: in each round every binary runs
// once (in reverse order every other round), and the figure is the median
// of the per-round ratios of each binary's time to the first's, with a
// bootstrap 95 % interval. A ratio within a round cancels what the
// machine's speed does from minute to minute, which on the shared 2-core
// benchmark machine moves medians by more than the changes measured
// (docs/performance.md).
//
//	abpair [-n ROUNDS] [-before 'CMD ARG...'] BIN[:NAME=VALUE,...] BIN... -- ARG...
//
// A binary may carry environment variables after a colon
// (./stormcheck:GOGC=500). Output goes to /dev/null; a binary that fails
// stops the run. With -before, every timed run comes right after an
// untimed run of CMD (split at white space, any exit): what a run costs
// after another program, which on the benchmark machine is not what it
// costs after itself (docs/performance.md, sixth round). Linux only, like
// bench.sh.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	rounds := flag.Int("n", 21, "rounds, after one warm-up run of each binary")
	before := flag.String("before", "", "a command run, untimed, right before every timed run")
	flag.Parse()
	args := flag.Args()
	dash := slices.Index(args, "--")
	if dash < 2 || *rounds < 3 {
		fmt.Fprintln(os.Stderr, "usage: abpair [-n ROUNDS>=3] [-before 'CMD ARG...'] BIN[:NAME=VALUE,...] BIN... -- ARG...")
		os.Exit(2)
	}
	pre := strings.Fields(*before)
	bins, argv := args[:dash], args[dash+1:]
	wall := make([][]float64, len(bins))
	cpu := make([][]float64, len(bins))
	for i, b := range bins {
		if _, _, err := run(b, argv); err != nil {
			fail(err)
		}
		wall[i], cpu[i] = make([]float64, *rounds), make([]float64, *rounds)
	}
	for r := range *rounds {
		for k := range bins {
			i := k
			if r%2 == 1 {
				i = len(bins) - 1 - k
			}
			if len(pre) > 0 {
				cmd := exec.Command(pre[0], pre[1:]...)
				if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
					fail(fmt.Errorf("-before: %w", err)) // it did not start
				}
			}
			w, c, err := run(bins[i], argv)
			if err != nil {
				fail(err)
			}
			wall[i][r], cpu[i][r] = w, c
		}
	}
	rng := rand.New(rand.NewPCG(1, 2)) // the same intervals for the same times
	for i, b := range bins {
		rw, rc := ratios(wall[i], wall[0]), ratios(cpu[i], cpu[0])
		wlo, whi := interval(rng, rw)
		clo, chi := interval(rng, rc)
		fmt.Printf("%-40s wall %7.1f ms  cpu %7.1f ms  ÷ first: wall %.3f [%.3f, %.3f]  cpu %.3f [%.3f, %.3f]\n",
			b, 1000*median(wall[i]), 1000*median(cpu[i]), median(rw), wlo, whi, median(rc), clo, chi)
	}
}

// run runs bin (with its environment) on argv once: wall and CPU seconds.
func run(bin string, argv []string) (float64, float64, error) {
	path, env, _ := strings.Cut(bin, ":")
	cmd := exec.Command(path, argv...)
	if env != "" {
		cmd.Env = append(os.Environ(), strings.Split(env, ",")...)
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", bin, err)
	}
	w := time.Since(start).Seconds()
	return w, (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds(), nil
}

func ratios(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] / b[i]
	}
	return out
}

func median(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// interval is the bootstrap 95 % interval of the median of x.
func interval(rng *rand.Rand, x []float64) (lo, hi float64) {
	meds := make([]float64, 2000)
	sample := make([]float64, len(x))
	for k := range meds {
		for i := range sample {
			sample[i] = x[rng.IntN(len(x))]
		}
		meds[k] = median(sample)
	}
	slices.Sort(meds)
	return meds[50], meds[1949]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "abpair:", err)
	os.Exit(1)
}
