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
	"syscall"

	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// defaultMaxFileSize bounds one input (a file or stdin).
const defaultMaxFileSize = engine.DefaultMaxFileSize

// input is one thing to parse: a file, stdin, or a fetched workflow. Only
// stdin is held in memory (it can be read once only); a file and a fetched
// workflow are read each time read is called.
type input struct {
	name     string   // what reports show
	path     string   // the file it is; "" for stdin and fetched workflows
	spool    *spooled // a fetched workflow's place on disk
	src      []byte   // stdin as read
	at       string   // the absolute path the name stands for; "" for fetched workflows
	explicit bool     // named on the command line, not found in a folder
	stdin    bool     // read from stdin ("-")
	err      error    // why it could not be read, when that is known already
	skip     string   // why a file met in a folder is not read (a link out of the inputs)
}

// read returns the input's bytes: a file or a fetched workflow is read now,
// at most limit bytes, every time read is called; stdin comes as it was
// read at collection. Errors are those unreadMessage words.
func (in *input) read(limit int64) ([]byte, error) {
	switch {
	case in.err != nil:
		return nil, in.err
	case in.path != "":
		return readRegular(in.path, limit)
	case in.spool != nil:
		return in.spool.read(limit)
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
			b, err := readLimited(stdin, limit)
			if err != nil && !errors.Is(err, errTooLarge) {
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

var (
	errTooLarge = errors.New("larger than --max-file-size")
	errDangling = errors.New("broken symbolic link: its target does not exist")
)

// notRegularError refuses a path that is not a regular file: reading a
// named pipe waits for a writer, a device like /dev/zero never ends.
type notRegularError struct{ mode fs.FileMode }

func (e notRegularError) Error() string {
	what := "not a regular file"
	switch t := e.mode.Type(); {
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe, not a regular file"
	case t&fs.ModeDevice != 0 || t&fs.ModeCharDevice != 0:
		what = "a device, not a regular file"
	case t&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	case t&fs.ModeDir != 0:
		what = "a folder"
	}
	return what
}

// readRegular reads a regular file of at most limit bytes. It opens without
// blocking, so that a named pipe is refused instead of waited on.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	mode, size := st.Mode(), st.Size()
	if !mode.IsRegular() {
		return nil, notRegularError{mode}
	}
	if size > limit {
		return nil, errTooLarge
	}
	return readSized(f, limit, size)
}

// readLimited reads r to its end, or fails with errTooLarge after limit
// bytes without reading further (stdin may be /dev/zero).
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	return readSized(r, limit, -1)
}

// readSized is readLimited with the size fstat gave (-1 for a pipe). The
// buffer starts at the size, so a file is read into one allocation of its
// size (io.ReadAll grew from 512 bytes: a 200 MB file took 435 MB of RSS,
// now 219 MB), and it doubles from there but never past limit+1.
func readSized(r io.Reader, limit, size int64) ([]byte, error) {
	return readInto(r, limit, make([]byte, 0, min(max(size+1, 512), limit+1)), size)
}

// readInto is readSized appending to b, an empty slice with room for the
// size and more. A read that stops short of the room at exactly size
// bytes is the whole file, as fstat saw it: a regular file's read returns
// less than asked only at its end, so the read that would meet the end is
// not made. Any other count reads on to the end (a file that grew or
// shrank, a pipe).
func readInto(r io.Reader, limit int64, b []byte, size int64) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, int(min(int64(cap(b)), limit+1-int64(cap(b)))))
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, errTooLarge
		}
		if err == io.EOF || (err == nil && n > 0 && int64(len(b)) == size && len(b) < cap(b)) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// unreadMessage is the finding text for an input that could not be read.
func unreadMessage(err error, limit int64) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the report names the file already
	}
	if errors.Is(err, errTooLarge) {
		return fmt.Sprintf("not read: larger than --max-file-size (%s)", formatSize(limit))
	}
	if nr := (notRegularError{}); errors.As(err, &nr) && nr.mode.Type()&fs.ModeNamedPipe != 0 {
		return "not read: " + nr.Error() + " (pipe the data to - instead)"
	}
	return "not read: " + err.Error()
}

// parse is n8nschema.Parse; a test swaps in a parser that panics.
var parse = n8nschema.Parse

// parseInputs reads and parses every input on all cores, holding them all
// (graph, simulate and --fix need the whole set at once; audit reads in
// two passes, auditInputs). Results keep the order of ins. An input that
// cannot be read becomes a file whose only problem says why (RS001); the
// error then lists them all. A panic in the parser is raised again here by
// pool.Each, so Run reports it as an internal error (exit 3), as it does a
// rule's.
func parseInputs(ins []input, limit int64, skipNonWorkflow bool) ([]*n8nschema.File, error) {
	files := make([]*n8nschema.File, len(ins))
	pool.Each(len(ins), func(i int) { files[i] = parseInput(ins[i], limit, skipNonWorkflow) })
	return files, unreadOf(files)
}
