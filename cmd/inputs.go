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
		add(input{name: n.nameAt(abs, func() string { return p }), at: abs, path: abs, explicit: explicit, err: err})
	}
	addDir := func(dir string) {
		abs := n.abs(dir)
		found, bare := walkJSON(abs, pl)
		n.listedWithoutGit(bare)
		for _, w := range found {
			// w.path is clean and absolute: n.abs of the path as given
			// (dir joined with the rest), which is spelled only for a
			// name outside the root. The rest is what filepath.Rel(abs,
			// w.path) gives, without cleaning both again.
			given := func() string {
				rel := strings.TrimPrefix(w.path[len(abs):], string(filepath.Separator))
				if rel == "" {
					rel = "."
				}
				return filepath.Join(dir, rel)
			}
			in := input{name: n.nameAt(w.path, given), at: w.path, path: w.path, err: w.err}
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
//
// bare are the folders listed in full that hold nothing named .git, so
// that naming their files need not look for one (namer.listedWithoutGit).
//
// It visits what filepath.WalkDir visits, in the same order, with the same
// errors (TestWalkJSONAsWalkDir).
func walkJSON(dir string, pl *places) (out []walked, bare []string) {
	w := walker{notBare: map[string]bool{}, places: pl}
	info, err := os.Lstat(dir)
	switch {
	case err != nil:
		w.out = append(w.out, walked{path: dir, err: err})
	case info.IsDir():
		w.dir(dir, filepath.Clean(dir))
	default:
		w.file(dir, info.Name(), info.Mode().Type())
	}
	for _, p := range w.listed {
		if !w.notBare[p] {
			bare = append(bare, p)
		}
	}
	return w.out, bare
}

// walker is the state of one walkJSON.
type walker struct {
	out     []walked
	listed  []string
	notBare map[string]bool
	places  *places
}

// dir lists the folder at p (clean: its entries' paths are clean joined to
// it) and visits its entries in name order.
func (w *walker) dir(p, clean string) {
	w.listed = append(w.listed, p)
	ents, err := listDir(clean)
	if err != nil {
		// An unlistable folder hides only itself; it was listed in
		// part, if at all.
		w.out = append(w.out, walked{path: p, err: err})
		w.notBare[p] = true
	}
	for _, e := range ents {
		name := e.name(clean)
		if name == ".git" {
			w.notBare[p] = true
		}
		if e.typ.IsDir() {
			if !strings.HasPrefix(name, ".") && name != "node_modules" {
				w.dir(e.path, e.path)
			}
			continue
		}
		w.file(e.path, name, e.typ)
	}
}

// file keeps the file at p when it is a .json file or a link to one.
func (w *walker) file(p, name string, typ fs.FileMode) {
	// Hidden files are tool state (.stormcheck-pull.json), not workflows.
	if !strings.EqualFold(filepath.Ext(name), ".json") || strings.HasPrefix(name, ".") {
		return
	}
	switch {
	case typ.IsRegular():
		w.out = append(w.out, walked{path: p})
	case typ&fs.ModeSymlink != 0:
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			w.out = append(w.out, walked{path: p, err: errDangling})
		case err != nil:
			w.out = append(w.out, walked{path: p, err: err})
		case !st.Mode().IsRegular():
		default:
			// Followed only to a file the walk reads by itself, so that
			// no report quotes a file outside the inputs.
			real, err := filepath.EvalSymlinks(p)
			if err != nil || !w.places.reaches(real) {
				w.out = append(w.out, walked{path: p, err: errLinkOut})
				break
			}
			w.out = append(w.out, walked{path: p, real: real})
		}
	}
}

// listDir lists the folder at dir (clean) with os.ReadDir, in its order.
func listDir(dir string) ([]dirent, error) {
	des, err := os.ReadDir(dir)
	ents := make([]dirent, len(des))
	for i, d := range des {
		ents[i] = dirent{path: joinName(dir, d.Name()), typ: d.Type()}
	}
	return ents, err
}

// dirent is an entry of a folder: its path (the folder's, a separator and
// its name) and its type bits (fs.FileMode.Type).
type dirent struct {
	path string
	typ  fs.FileMode
}

// name is the entry's name, its path being joined to dir.
func (e dirent) name(dir string) string {
	if dir == "." {
		return e.path
	}
	return e.path[len(dir)+len(sep(dir)):]
}

// sep is what joins a name to the clean folder dir: nothing after "/" or
// a volume's root, else the separator.
func sep(dir string) string {
	if os.IsPathSeparator(dir[len(dir)-1]) {
		return ""
	}
	return string(filepath.Separator)
}

// joinName is filepath.Join(dir, name) for a clean dir and a name that is
// a plain entry of it, without cleaning the result again.
func joinName(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + sep(dir) + name
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
