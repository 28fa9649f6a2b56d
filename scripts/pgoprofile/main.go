// Command pgoprofile runs stormcheck's command line (cmd.Main) several
// times in one process under the CPU profiler and writes the profile, for
// scripts/pgo.sh: the build reads it as default.pgo (profile-guided
// optimisation). Output goes nowhere; the exit code of the last run is
// its own.
//
//	pgoprofile -o default.pgo -n 10 audit DIR --format json --fail-on never
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/stormcheck/stormcheck/cmd"
)

func main() {
	out := flag.String("o", "default.pgo", "where the profile goes")
	n := flag.Int("n", 10, "runs of the command")
	flag.Parse()
	if err := run(*out, *n, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "pgoprofile:", err)
		os.Exit(1)
	}
}

func run(out string, n int, args []string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	for range n {
		cmd.Main(args, io.Discard, os.Stderr)
	}
	pprof.StopCPUProfile()
	return f.Close()
}
