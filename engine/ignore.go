package engine

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Files a folder walk leaves out: the config's exclude globs and what git
// ignores (.gitignore files from the repository's top down, and
// .git/info/exclude), as ruff does. A file named on the command line is
// read whatever they say.

// MaxConfigSize bounds a config or ignore file read: a real one is a few
// KB, and a file found upward from the inputs may be anybody's (a named
// pipe or a link to /dev/zero must not hang or fill memory).
const MaxConfigSize = 1 << 20

// CheckGlob reports a glob that path.Match rejects, segment by segment.
func CheckGlob(g string) error {
	if strings.TrimSpace(g) == "" {
		return errors.New("empty")
	}
	for _, seg := range strings.Split(strings.Trim(g, "/"), "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

// globMatch matches a slash-separated path against a glob whose segments
// are path.Match patterns and "**", any number of folders (none too).
func globMatch(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				// A trailing "**" matches what is inside, not the
				// folder itself ("abc/**" leaves "!abc/keep" possible).
				return len(name) > 0
			}
			for i := range name {
				if globMatch(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// excluded: the path (relative to the config's folder, slash-separated)
// or a folder above it matches one of the globs. A glob with no slash
// matches a name at any depth ("*.bak.json"), one with a slash from the
// config's folder ("archive/**", "legacy/old.json").
func excluded(globs []string, rel string) bool {
	parts := strings.Split(rel, "/")
	for _, g := range globs {
		g = strings.TrimPrefix(strings.TrimSuffix(g, "/"), "./")
		pat := strings.Split(g, "/")
		if !strings.Contains(g, "/") {
			pat = append([]string{"**"}, pat...)
		}
		for i := 1; i <= len(parts); i++ {
			if globMatch(pat, parts[:i]) {
				return true
			}
		}
	}
	return false
}

// gitignoreRule is one pattern line of a .gitignore file.
type gitignoreRule struct {
	pat     []string // segments; a pattern with no slash is "**" and its name
	negate  bool     // "!pattern": re-includes
	dirOnly bool     // "pattern/": matches folders only
}

// parseGitignore reads a .gitignore file as gitignore(5) says: blank lines
// and "#" comments skipped, "\#" and "\!" literal, trailing spaces dropped
// unless escaped, "!" negates, a trailing "/" matches folders only, a slash
// at the start or in the middle anchors the pattern to the file's folder,
// "**" matches any number of folders.
func parseGitignore(src []byte) []gitignoreRule {
	var rules []gitignoreRule
	for _, line := range bytes.Split(src, []byte("\n")) {
		l := strings.TrimSuffix(string(line), "\r")
		for strings.HasSuffix(l, " ") && !strings.HasSuffix(l, `\ `) {
			l = l[:len(l)-1]
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		var r gitignoreRule
		if strings.HasPrefix(l, "!") {
			r.negate, l = true, l[1:]
		} else if strings.HasPrefix(l, `\!`) || strings.HasPrefix(l, `\#`) {
			l = l[1:]
		}
		if strings.HasSuffix(l, "/") {
			r.dirOnly, l = true, strings.TrimRight(l, "/")
		}
		if l == "" {
			continue
		}
		anchored := strings.Contains(l, "/")
		l = strings.TrimPrefix(l, "/")
		for _, seg := range strings.Split(l, "/") {
			if seg != "**" {
				// fnmatch's [!...] is path.Match's [^...]
				seg = strings.ReplaceAll(seg, "[!", "[^")
				if _, err := path.Match(seg, ""); err != nil {
					r.pat = nil // git skips a pattern it cannot read
					break
				}
			}
			r.pat = append(r.pat, seg)
		}
		if r.pat == nil {
			continue
		}
		if !anchored {
			r.pat = append([]string{"**"}, r.pat...)
		}
		rules = append(rules, r)
	}
	return rules
}

// gitignores answers whether git ignores a path of one repository, reading
// each folder's .gitignore once.
type gitignores struct {
	top   string
	files map[string][]gitignoreRule // by folder, relative to top ("" the top)
	dirs  map[string]bool            // folders (relative) known ignored or not
}

func newGitignores(top string) *gitignores {
	g := &gitignores{top: top, files: map[string][]gitignoreRule{}, dirs: map[string]bool{}}
	// .git/info/exclude comes first: the top's .gitignore overrides it.
	if b, err := ReadFile(filepath.Join(top, ".git", "info", "exclude"), MaxConfigSize); err == nil {
		g.files["\x00exclude"] = parseGitignore(b)
	}
	return g
}

// rules are the patterns of the .gitignore in the folder rel.
func (g *gitignores) rules(rel string) []gitignoreRule {
	if r, ok := g.files[rel]; ok {
		return r
	}
	b, err := ReadFile(filepath.Join(g.top, filepath.FromSlash(rel), ".gitignore"), MaxConfigSize)
	var r []gitignoreRule
	if err == nil {
		r = parseGitignore(b)
	} else if !errors.Is(err, fs.ErrNotExist) {
		r = nil // unreadable: as git, which warns and reads on
	}
	g.files[rel] = r
	return r
}

// ignored: git ignores the file at rel (slash-separated, relative to the
// top), itself or through a folder above it (whose files a later "!"
// cannot re-include).
func (g *gitignores) ignored(rel string) bool {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		d := strings.Join(parts[:i], "/")
		ign, ok := g.dirs[d]
		if !ok {
			ign = g.match(parts[:i], true)
			g.dirs[d] = ign
		}
		if ign {
			return true
		}
	}
	return g.match(parts, false)
}

// match applies the patterns that see the path: .git/info/exclude, then
// each .gitignore from the top down to the path's folder; the last one
// that matches decides.
func (g *gitignores) match(parts []string, isDir bool) bool {
	ign := false
	apply := func(rules []gitignoreRule, sub []string) {
		for _, r := range rules {
			if (!r.dirOnly || isDir) && globMatch(r.pat, sub) {
				ign = !r.negate
			}
		}
	}
	apply(g.files["\x00exclude"], parts)
	for d := 0; d < len(parts); d++ {
		apply(g.rules(strings.Join(parts[:d], "/")), parts[d:])
	}
	return ign
}

// Ignoring says which inputs a folder walk found are left out.
type Ignoring struct {
	// Exclude are the config's exclude globs, relative to Dir, its folder.
	Exclude []string
	Dir     string
	// NoGitignore reads what git ignores too.
	NoGitignore bool
	// Named leaves out named files too (--skip-non-workflow: pre-commit
	// names the files), as ruff's --force-exclude does.
	Named bool
}

// DropIgnored leaves out the inputs a folder walk found that the exclude
// globs or git ignore.
func DropIgnored(ins []Input, ig Ignoring, n *Namer) []Input {
	tops := map[string]*gitignores{}
	return slices.DeleteFunc(ins, func(in Input) bool {
		if (in.Explicit && !ig.Named) || in.At == "" || in.Stdin {
			return false
		}
		if len(ig.Exclude) > 0 && ig.Dir != "" {
			if rel, err := filepath.Rel(ig.Dir, in.At); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) &&
				excluded(ig.Exclude, filepath.ToSlash(rel)) {
				return true
			}
		}
		if ig.NoGitignore {
			return false
		}
		top := n.gitTop(dirOf(in.At))
		if top == "" {
			return false // git ignores nothing outside a repository
		}
		g := tops[top]
		if g == nil {
			g = newGitignores(top)
			tops[top] = g
		}
		rel, err := filepath.Rel(top, in.At)
		return err == nil && g.ignored(filepath.ToSlash(rel))
	})
}
