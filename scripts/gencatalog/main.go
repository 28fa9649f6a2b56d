// Command gencatalog writes n8nschema/zz_nodes_generated.go, the node table
// read from an installed n8n's own node descriptions
// (n8n-nodes-base/dist/types/nodes.json and
// @n8n/n8n-nodes-langchain/dist/types/nodes.json): per node type and
// version, the default resource and operation, what each operation does
// (create, send, update, delete, execute or read), the trigger, polling and
// webhook flags, the fixed number of main outputs, the credential types and
// the default model.
//
//	go run ./scripts/gencatalog                # regenerate from the e2e cache
//	go run ./scripts/gencatalog -check         # fail when the committed table differs
//
// The e2e script (scripts/e2e-n8n.sh) installs n8n into the cache read here.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

const out = "n8nschema/zz_nodes_generated.go"

func main() {
	dir := flag.String("n8n", defaultModules(), "node_modules folder of an installed n8n")
	check := flag.Bool("check", false, "compare with the committed table instead of writing it")
	flag.Parse()
	if err := run(*dir, *check); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}

// defaultModules is where scripts/e2e-n8n.sh installs n8n.
func defaultModules() string {
	cache := os.Getenv("STORMCHECK_CACHE")
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "stormcheck")
	}
	return filepath.Join(cache, "n8n-"+n8nVersion, "node_modules")
}

func run(dir string, check bool) error {
	src, err := Generate(dir)
	if err != nil {
		return err
	}
	if check {
		old, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		if !bytes.Equal(old, src) {
			return errors.New(out + " is not what the generator makes from " + dir + ": run go run ./scripts/gencatalog and commit the result")
		}
		fmt.Println("gencatalog:", out, "matches n8n", n8nVersion)
		return nil
	}
	return os.WriteFile(out, src, 0o644)
}
