// Command stormcheck audits exported n8n workflows for retry storms: it
// computes the worst-case wire attempts per logical operation and reports
// what makes them unbounded, unsafe or expensive.
package main

import (
	"os"

	"github.com/stormcheck/stormcheck/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:], os.Stdout, os.Stderr))
}
