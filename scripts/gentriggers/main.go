// Command gentriggers writes benchgen.Triggers: T Webhook triggers that all
// start one chain of N nodes, the shape where a fact read once per trigger
// costs T × N (docs/performance.md, round 15).
//
//	go run ./scripts/gentriggers -triggers 2000 -nodes 2000 -o t2000n2000.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/stormcheck/stormcheck/internal/benchgen"
)

func main() {
	t := flag.Int("triggers", 50, "number of Webhook triggers")
	n := flag.Int("nodes", 2000, "number of nodes in the shared chain")
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	b := benchgen.Triggers(*t, *n)
	var err error
	if *out == "" {
		_, err = os.Stdout.Write(b)
	} else {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentriggers:", err)
		os.Exit(1)
	}
}
