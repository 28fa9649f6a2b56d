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
	// A large set's heap would double before each collection: 100 MiB
	// keeps ~150 MB of workflows under 128 MiB of RSS (docs/performance.md).
	// GOMEMLIMIT, when set, wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(100 << 20)
	}
	os.Exit(cmd.Main(os.Args[1:], os.Stdout, os.Stderr))
}
