package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Places are the folders and files named on the command line, their links
// resolved: where a folder walk may follow a link, and what --fix may
// write. A link in a folder of workflows (a pull request's) may point
// anywhere; reading or writing through it would quote or overwrite a file
// nobody asked stormcheck to touch.
type Places struct {
	args []string
	wd   string
	list []string
	done bool
}

// NewPlaces are the places args name, relative ones in the folder wd.
func NewPlaces(args []string, wd string) *Places {
	return &Places{args: args, wd: wd}
}

// errLinkOut marks a link met in a folder that leads out of the inputs: it
// is skipped, not read.
var errLinkOut = errors.New("a symbolic link that leads out of the inputs, or to a file a folder walk skips (hidden, not .json); not followed")

// Resolved lists the places, resolved on first use: most runs meet no link.
func (p *Places) Resolved() []string {
	if p.done {
		return p.list
	}
	p.done = true
	p.list = []string{}
	add := func(path string) {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			p.list = append(p.list, real)
		}
	}
	for _, arg := range p.args {
		if arg == "-" {
			continue
		}
		abs := arg
		if !filepath.IsAbs(abs) {
			if p.wd != "" {
				abs = filepath.Join(p.wd, abs)
			} else if a, err := filepath.Abs(abs); err == nil {
				abs = a
			}
		}
		if _, err := os.Lstat(abs); err == nil || !strings.ContainsAny(arg, "*?[") {
			add(abs)
			continue
		}
		matches, _ := filepath.Glob(abs)
		for _, m := range matches {
			add(m)
		}
	}
	return p.list
}

// reaches says whether a folder walk reads the file at real (a link's
// target, resolved) by itself: a place named on the command line, or a
// .json file below a named folder with no hidden entry or node_modules on
// the way.
func (p *Places) reaches(real string) bool {
	for _, root := range p.Resolved() {
		if real == root {
			return true
		}
		rest, ok := strings.CutPrefix(real, root)
		if !ok || rest == "" {
			continue
		}
		if !os.IsPathSeparator(root[len(root)-1]) {
			if !os.IsPathSeparator(rest[0]) {
				continue
			}
			rest = rest[1:]
		}
		if walkable(rest) {
			return true
		}
	}
	return false
}

// walkable says whether a walk reads the file at rel below its folder.
func walkable(rel string) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, part := range parts[:len(parts)-1] {
		if part == "" || !WalkEnters(part) {
			return false
		}
	}
	return WalkReads(parts[len(parts)-1])
}
