// Command stormcheck audits exported n8n workflows for retry storms: it
// computes the worst-case wire attempts per logical operation and reports
// what makes them unbounded, unsafe or expensive.
package main

import (
	"os"
	"runtime/debug"

	"github.com/stormcheck/stormcheck/cmd"
)

func main() {
	// The heap may grow to 2.7× what is live before a collection
	// (GOGC=170): less CPU on the corpus than Go's 100, with its peak
	// under 64 MiB (200 peaked at 64–68 MiB for ~1 % less CPU); a large
	// set's growth stops at 100 MiB, which keeps ~150 MB of workflows under
	// 128 MiB of RSS (docs/performance.md, round 21). GOGC and GOMEMLIMIT,
	// when set, win.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(170)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(100 << 20)
	}
	os.Exit(cmd.Main(os.Args[1:], os.Stdout, os.Stderr))
}
