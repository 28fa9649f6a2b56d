package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// input is one thing to parse: a file, stdin, or a fetched workflow.
type input struct {
	name     string // what reports show
	path     string // where to read it; "" when src is already set
	src      []byte
	explicit bool // named on the command line, not found in a folder
}

// errNoInput means the arguments matched no file: exit 2.
type errNoInput struct{ arg string }

func (e errNoInput) Error() string {
	return fmt.Sprintf("%s: no such file or folder, and no file matches it as a glob", e.arg)
}

// collectInputs expands arguments into inputs: files as named, folders
// walked recursively for *.json, globs, and "-" for stdin. The result is
// sorted by name and free of duplicates, so argument order never changes
// the output.
func collectInputs(args []string, stdin io.Reader, wd string) ([]input, error) {
	var ins []input
	seen := map[string]int{} // name → index in ins
	add := func(in input) {
		if i, ok := seen[in.name]; ok {
			// Named on its own and met in a folder: explicit, whatever
			// the argument order.
			ins[i].explicit = ins[i].explicit || in.explicit
			return
		}
		seen[in.name] = len(ins)
		ins = append(ins, in)
	}
	for _, arg := range args {
		if arg == "-" {
			b, err := io.ReadAll(stdin)
			if err != nil {
				return nil, fmt.Errorf("read stdin: %w", err)
			}
			add(input{name: "<stdin>", src: b, explicit: true})
			continue
		}
		info, err := os.Stat(arg)
		switch {
		case err == nil && info.IsDir():
			files, err := walkJSON(arg)
			if err != nil {
				return nil, err
			}
			for _, p := range files {
				add(input{name: displayName(p, wd), path: p})
			}
		case err == nil:
			add(input{name: displayName(arg, wd), path: arg, explicit: true})
		case errors.Is(err, fs.ErrNotExist) && strings.ContainsAny(arg, "*?["):
			matches, gerr := filepath.Glob(arg)
			if gerr != nil {
				return nil, usageErrorf("bad glob %q: %v", arg, gerr)
			}
			if len(matches) == 0 {
				return nil, &usageError{errNoInput{arg}}
			}
			for _, m := range matches {
				if st, err := os.Stat(m); err == nil && st.IsDir() {
					files, err := walkJSON(m)
					if err != nil {
						return nil, err
					}
					for _, p := range files {
						add(input{name: displayName(p, wd), path: p})
					}
					continue
				}
				add(input{name: displayName(m, wd), path: m, explicit: true})
			}
		case errors.Is(err, fs.ErrNotExist):
			return nil, &usageError{errNoInput{arg}}
		default:
			return nil, err
		}
	}
	return sortInputs(ins), nil
}

// sortInputs orders inputs by name so argument order never changes output.
func sortInputs(ins []input) []input {
	slices.SortFunc(ins, func(a, b input) int { return strings.Compare(a.name, b.name) })
	return ins
}

// walkJSON lists the .json files below dir in sorted order, skipping
// hidden files and folders and node_modules.
func walkJSON(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		// Hidden files are tool state (.stormcheck-pull.json), not workflows.
		if strings.EqualFold(filepath.Ext(p), ".json") && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// displayName is a path as reports show it: relative to the working folder
// when inside it, slash-separated, without "./".
func displayName(p, wd string) string {
	clean := filepath.Clean(p)
	if wd != "" {
		if abs, err := filepath.Abs(clean); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
				clean = rel
			}
		}
	}
	return filepath.ToSlash(clean)
}

// parseInputs reads and parses every input on all cores. Results keep the
// order of ins.
func parseInputs(ins []input) ([]*n8nschema.File, error) {
	files := make([]*n8nschema.File, len(ins))
	errs := make([]error, len(ins))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				in := ins[i]
				src := in.src
				if in.path != "" {
					b, err := os.ReadFile(in.path)
					if err != nil {
						errs[i] = err
						continue
					}
					src = b
				}
				f := n8nschema.Parse(n8nschema.NewSource(in.name, src))
				f.Explicit = in.explicit
				files[i] = f
			}
		}()
	}
	for i := range ins {
		next <- i
	}
	close(next)
	wg.Wait()
	return files, errors.Join(errs...)
}
