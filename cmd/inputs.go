package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// defaultMaxFileSize bounds one input (a file or stdin).
const defaultMaxFileSize = engine.DefaultMaxFileSize

// input is one thing to parse: a file, stdin, or a fetched workflow. Only
// stdin is held in memory (it can be read once only); a file and a fetched
// workflow are read each time read is called.
type input struct {
	name     string          // what reports show
	path     string          // the file it is; "" for stdin and fetched workflows
	spool    *engine.Spooled // a fetched workflow's place on disk
	src      []byte          // stdin as read
	at       string          // the absolute path the name stands for; "" for fetched workflows
	explicit bool            // named on the command line, not found in a folder
	stdin    bool            // read from stdin ("-")
	err      error           // why it could not be read, when that is known already
	skip     string          // why a file met in a folder is not read (a link out of the inputs)
}

// read returns the input's bytes: a file or a fetched workflow is read now,
// at most limit bytes, every time read is called; stdin comes as it was
// read at collection. Errors are those unreadMessage words.
func (in *input) read(limit int64) ([]byte, error) {
	switch {
	case in.err != nil:
		return nil, in.err
	case in.path != "":
		return engine.ReadFile(in.path, limit)
	case in.spool != nil:
		return in.spool.Read(limit)
	}
	return in.src, nil
}

// errNoInput means the arguments matched no file: exit 2.
type errNoInput struct{ arg string }

func (e errNoInput) Error() string {
	return fmt.Sprintf("%s: no such file or folder, and no file matches it as a glob", e.arg)
}

// unreadError names the inputs that could not be read. The report of the
// others is written first (each unread input is an RS001 finding there),
// then the run exits 3.
type unreadError struct{ names []string }

func (e *unreadError) Error() string {
	return fmt.Sprintf("%d %s could not be read: %s", len(e.names), plural(len(e.names), "input", "inputs"), strings.Join(e.names, ", "))
}

// collectInputs expands arguments into inputs: files as named, folders
// walked recursively for *.json, globs, and "-" for stdin (read up to
// limit bytes). The result is sorted by name and free of duplicates, so
// argument order never changes the output. An input that cannot be read
// is kept with its error, to be reported with the others.
func collectInputs(args []string, stdin io.Reader, n *namer, limit int64) ([]input, error) {
	var ins []input
	seen := map[string]int{} // name → index in ins
	pl := newPlaces(args, n.wd)
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
	// Paths are read against the working folder (which tests set) and
	// named as the user wrote them when outside the repository root.
	addFile := func(p string, explicit bool, err error) {
		abs := n.abs(p)
		add(input{name: n.nameAt(abs, p), at: abs, path: abs, explicit: explicit, err: err})
	}
	addDir := func(dir string) {
		abs := n.abs(dir)
		found := walkJSON(abs, pl)
		for _, w := range found {
			// Named as given (dir joined with the rest) outside the root.
			rel, _ := filepath.Rel(abs, w.path)
			in := input{name: n.nameAt(w.path, filepath.Join(dir, rel)), at: w.path, path: w.path, err: w.err}
			switch {
			case w.err == errLinkOut:
				in.path, in.err, in.skip = "", nil, w.err.Error()
			case w.real != "":
				in.path = w.real // a link: read where the walk saw it lead
			}
			add(in)
		}
	}
	for _, arg := range args {
		if arg == "-" {
			b, err := engine.ReadAll(stdin, limit)
			if err != nil && !errors.Is(err, engine.ErrTooLarge) {
				err = fmt.Errorf("read stdin: %w", err)
			}
			name, at := n.stdinInput()
			add(input{name: name, at: at, src: b, explicit: true, stdin: true, err: err})
			continue
		}
		info, err := os.Stat(n.abs(arg))
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(n.abs(arg)); lerr == nil {
				// A symlink to nothing: an input that cannot be read,
				// not a missing argument.
				addFile(arg, true, errDangling)
				continue
			}
		}
		switch {
		case err == nil && info.IsDir():
			addDir(arg)
		case err == nil:
			addFile(arg, true, nil)
		case errors.Is(err, fs.ErrNotExist) && strings.ContainsAny(arg, "*?["):
			matches, gerr := filepath.Glob(n.abs(arg))
			if gerr != nil {
				return nil, usageErrorf("bad glob %q: %v", arg, gerr)
			}
			if len(matches) == 0 {
				return nil, &usageError{errNoInput{arg}}
			}
			for _, m := range matches {
				if !filepath.IsAbs(arg) {
					m, _ = filepath.Rel(n.wd, m)
				}
				if st, err := os.Stat(n.abs(m)); err == nil && st.IsDir() {
					addDir(m)
					continue
				}
				addFile(m, true, nil)
			}
		case errors.Is(err, fs.ErrNotExist):
			return nil, &usageError{errNoInput{arg}}
		default:
			addFile(arg, true, err)
		}
	}
	return sortInputs(ins), nil
}

// sortInputs orders inputs by name so argument order never changes output.
func sortInputs(ins []input) []input {
	slices.SortFunc(ins, func(a, b input) int { return strings.Compare(a.name, b.name) })
	return ins
}

// walked is one file found in a folder, or a folder that could not be
// listed (err set). real is where a link leads, resolved when the walk
// checked it: the file is read there, so that a link changed afterwards
// is not followed out of the inputs.
type walked struct {
	path string
	err  error
	real string
}

// walkJSON lists the regular .json files below dir in sorted order,
// skipping hidden files and folders and node_modules. Symlinks count by
// their target; one that points nowhere, and a folder that cannot be
// listed, come back with their error so that the report names them. A
// link to a file the walk of pl would not read by itself (outside the
// inputs, hidden, not .json) comes back with errLinkOut, unread.
// Named pipes, devices and sockets are not files anyone exported: a FIFO
// named x.json would block the run, /dev/zero would never end.
func walkJSON(dir string, pl *places) (out []walked) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// An unlistable folder hides only itself.
			out = append(out, walked{path: p, err: err})
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		// Hidden files are tool state (.stormcheck-pull.json), not workflows.
		if !strings.EqualFold(filepath.Ext(name), ".json") || strings.HasPrefix(name, ".") {
			return nil
		}
		switch t := d.Type(); {
		case t.IsRegular():
			out = append(out, walked{path: p})
		case t&fs.ModeSymlink != 0:
			st, err := os.Stat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				out = append(out, walked{path: p, err: errDangling})
			case err != nil:
				out = append(out, walked{path: p, err: err})
			case st.Mode().IsRegular():
				// Followed only to a file the walk reads by itself, so
				// that no report quotes a file outside the inputs.
				real, err := filepath.EvalSymlinks(p)
				if err != nil || !pl.reaches(real) {
					out = append(out, walked{path: p, err: errLinkOut})
				} else {
					out = append(out, walked{path: p, real: real})
				}
			}
		}
		return nil
	})
	return out
}

var errDangling = errors.New("broken symbolic link: its target does not exist")

// parseInputs reads and parses every input, holding them all (graph,
// simulate and --fix need the whole set at once; audit reads in two
// passes). The error names the inputs that could not be read.
func parseInputs(ins []input, limit int64, skipNonWorkflow bool) ([]*n8nschema.File, error) {
	files := engine.Parse(engineInputs(ins), engine.Reading{Limit: limit, SkipNonWorkflow: skipNonWorkflow})
	return files, unreadErr(engine.Unread(files))
}

// readInput is input.read; a test swaps in one that panics.
var readInput = (*input).read

// engineInputs are the inputs as the engine reads them.
func engineInputs(ins []input) []engine.Input {
	out := make([]engine.Input, len(ins))
	for i := range ins {
		in := &ins[i]
		out[i] = engine.Input{Name: in.name, Explicit: in.explicit, Skip: in.skip, Read: func(limit int64) ([]byte, error) { return readInput(in, limit) }}
	}
	return out
}

// unreadErr is the error of a run whose inputs could not all be read: exit 3
// once the report is written.
func unreadErr(names []string) error {
	if names == nil {
		return nil
	}
	return &unreadError{names}
}
