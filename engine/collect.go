package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// An ArgError is an argument that names no input (no file, folder or glob
// match, a glob that cannot be read) or a config that cannot be told
// apart: a front end reports it as a usage error.
type ArgError struct{ msg string }

func (e *ArgError) Error() string { return e.msg }

// Collect expands arguments into inputs: files as named, folders walked
// recursively for *.json, globs, and "-" for stdin (read now, up to limit
// bytes). The result is sorted by name and free of duplicates, so
// argument order never changes the output. An input that cannot be read
// is kept with its error, to be reported with the others.
func Collect(args []string, stdin io.Reader, n *Namer, limit int64) ([]Input, error) {
	var ins []Input
	seen := map[string]int{} // name → index in ins
	pl := NewPlaces(args, n.wd)
	add := func(in Input) {
		if i, ok := seen[in.Name]; ok {
			// Named on its own and met in a folder: explicit, whatever
			// the argument order.
			ins[i].Explicit = ins[i].Explicit || in.Explicit
			return
		}
		seen[in.Name] = len(ins)
		ins = append(ins, in)
	}
	// Paths are read against the working folder (which tests set) and
	// named as the user wrote them when outside the repository root.
	addFile := func(p string, explicit bool, err error) {
		abs := n.Abs(p)
		add(fileInput(n.nameAt(abs, p), abs, abs, explicit, err))
	}
	addDir := func(dir string) {
		abs := n.Abs(dir)
		clean := filepath.Clean(dir)
		ws, dirs := walkJSON(abs, pl)
		n.learnTops(dirs)
		ins = slices.Grow(ins, len(ws))
		for _, w := range ws {
			// Named as given (dir joined with the rest) outside the root.
			name, ok := n.rooted(w.path)
			if !ok {
				if rest, in := below(abs, w.path); in && clean == dir && dir != "." && plainDir(dir) && filepath.VolumeName(dir) != dir {
					name = filepath.ToSlash(dir + string(filepath.Separator) + rest) // filepath.Join's answer
				} else {
					rel, _ := filepath.Rel(abs, w.path)
					name = filepath.ToSlash(filepath.Join(dir, rel))
				}
			}
			switch {
			case w.err == errLinkOut:
				add(Input{Name: name, At: w.path, Skip: w.err.Error(), Read: func(int64) ([]byte, error) { return nil, nil }})
			case w.real != "":
				add(fileInput(name, w.path, w.real, false, w.err)) // a link: read where the walk saw it lead
			default:
				add(fileInput(name, w.path, w.path, false, w.err))
			}
		}
	}
	for _, arg := range args {
		if arg == "-" {
			b, err := ReadAll(stdin, limit)
			if err != nil && !errors.Is(err, ErrTooLarge) {
				err = fmt.Errorf("read stdin: %w", err)
			}
			name, at := n.stdinInput()
			add(Input{Name: name, At: at, Explicit: true, Stdin: true, Read: func(int64) ([]byte, error) {
				if err != nil {
					return nil, err
				}
				return b, nil // read once, as it can be
			}})
			continue
		}
		info, err := os.Stat(n.Abs(arg))
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(n.Abs(arg)); lerr == nil {
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
			matches, gerr := filepath.Glob(n.Abs(arg))
			if gerr != nil {
				return nil, &ArgError{fmt.Sprintf("bad glob %q: %v", arg, gerr)}
			}
			if len(matches) == 0 {
				return nil, noInput(arg)
			}
			for _, m := range matches {
				if !filepath.IsAbs(arg) {
					m, _ = filepath.Rel(n.wd, m)
				}
				if st, err := os.Stat(n.Abs(m)); err == nil && st.IsDir() {
					addDir(m)
					continue
				}
				addFile(m, true, nil)
			}
		case errors.Is(err, fs.ErrNotExist):
			return nil, noInput(arg)
		default:
			addFile(arg, true, err)
		}
	}
	return SortInputs(ins), nil
}

// fileInput is the file at path, named name for the path at; it is read
// each time Read is called (err instead, when set).
func fileInput(name, at, path string, explicit bool, err error) Input {
	return Input{Name: name, At: at, Path: path, Explicit: explicit, Read: func(limit int64) ([]byte, error) {
		if err != nil {
			return nil, err
		}
		return ReadFile(path, limit)
	}}
}

func noInput(arg string) error {
	return &ArgError{fmt.Sprintf("%s: no such file or folder, and no file matches it as a glob", arg)}
}

// SortInputs orders inputs by name so argument order never changes output.
func SortInputs(ins []Input) []Input {
	slices.SortFunc(ins, func(a, b Input) int { return strings.Compare(a.Name, b.Name) })
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

// listed is a folder a walk listed, and whether it holds .git as
// Namer.gitTop's stat sees it.
type listed struct {
	path string
	git  bool
}

// walkJSON lists the regular .json files below dir in sorted order,
// skipping hidden files and folders and node_modules. Symlinks count by
// their target; one that points nowhere, and a folder that cannot be
// listed, come back with their error so that the report names them. A
// link to a file the walk of pl would not read by itself (outside the
// inputs, hidden, not .json) comes back with errLinkOut, unread.
// Named pipes, devices and sockets are not files anyone exported: a FIFO
// named x.json would block the run, /dev/zero would never end. dirs are
// the folders listed, parents first: .git is looked for only where a
// listing holds it (Namer.learnTops).
func walkJSON(dir string, pl *Places) (out []walked, dirs []listed) {
	at := map[string]int{} // dirs' index by path: a .git entry's folder, found in one look-up
	walkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// An unlistable folder hides only itself.
			out = append(out, walked{path: p, err: err})
			if len(dirs) > 0 && dirs[len(dirs)-1].path == p {
				dirs = dirs[:len(dirs)-1] // not listed whole
				delete(at, p)
			}
			return nil
		}
		if strings.EqualFold(d.Name(), ".git") {
			up := dirOf(p)
			if i, ok := at[up]; ok {
				if _, err := os.Stat(filepath.Join(up, ".git")); err == nil {
					dirs[i].git = true
				}
			}
		}
		if d.IsDir() {
			if p != dir && !WalkEnters(d.Name()) {
				return filepath.SkipDir
			}
			at[p] = len(dirs)
			dirs = append(dirs, listed{path: p})
			return nil
		}
		if !WalkReads(d.Name()) {
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
	return out, dirs
}

// walkDir is filepath.WalkDir for a clean root and a fn that returns only
// nil or SkipDir (for a folder), without Join: a clean folder, a
// separator and an entry's name are a clean path, which Join cleans again.
func walkDir(root string, fn fs.WalkDirFunc) {
	info, err := os.Lstat(root)
	if err != nil {
		fn(root, nil, err)
		return
	}
	walkFrom(root, fs.FileInfoToDirEntry(info), fn)
}

func walkFrom(p string, d fs.DirEntry, fn fs.WalkDirFunc) {
	if fn(p, d, nil) != nil || !d.IsDir() {
		return
	}
	ents, err := os.ReadDir(p)
	if err != nil && fn(p, d, err) != nil {
		return
	}
	sep := string(filepath.Separator)
	if os.IsPathSeparator(p[len(p)-1]) {
		sep = "" // the root folder
	}
	for _, e := range ents {
		walkFrom(p+sep+e.Name(), e, fn)
	}
}

// WalkEnters says whether a folder walk goes into the folder named name:
// not a hidden one, nor node_modules.
func WalkEnters(name string) bool {
	return !strings.HasPrefix(name, ".") && name != "node_modules"
}

// WalkReads says whether a folder walk reads the file named name: a .json
// file, not a hidden one (tool state such as .stormcheck-pull.json).
func WalkReads(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".json") && !strings.HasPrefix(name, ".")
}

var errDangling = errors.New("broken symbolic link: its target does not exist")
