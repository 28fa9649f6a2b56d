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
	// The heap may grow to 3× what is live before a collection (GOGC=200):
	// a fifth less CPU on the corpus, which peaks near 60 MiB; a large
	// set's growth stops at 100 MiB, which keeps ~150 MB of workflows under
	// 128 MiB of RSS (docs/performance.md). GOGC and GOMEMLIMIT, when set,
	// win.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(100 << 20)
	}
	os.Exit(cmd.Main(os.Args[1:], os.Stdout, os.Stderr))
}
