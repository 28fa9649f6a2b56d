package mcpserver

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/stormcheck/stormcheck/engine"
)

// Workflow is a workflow sent as text.
type Workflow struct {
	Name string `json:"name,omitempty" jsonschema:"what reports call it, like a file name (default workflow-N.json)"`
	JSON string `json:"json" jsonschema:"the workflow export as JSON text"`
}

// Inputs are the workflows a tool reads: sent as text, or read from files
// under the working folder. Workflows given together form one set, so
// calls between them (Execute Workflow, error workflows) are followed.
type Inputs struct {
	Workflow  string     `json:"workflow,omitempty" jsonschema:"one n8n workflow export as JSON text (reports call it workflow.json)"`
	Workflows []Workflow `json:"workflows,omitempty" jsonschema:"several workflows as JSON text, audited together: a workflow and the sub-workflows and error workflow it calls"`
	Paths     []string   `json:"paths,omitempty" jsonschema:"files or folders under the server's working folder; folders are walked for *.json"`
}

// maxNameLen bounds a workflow's name as sent.
const maxNameLen = 255

// inputs gathers the inputs, sorted by name so that the order they are
// given in never changes the output. Files are read when the engine asks
// (an audit reads them in two passes, holding few at once); one that
// cannot be read is an RS001 finding, as on the command line. A path
// outside the working folder, a missing one or a bad name is the call's
// error.
func (s *server) inputs(in Inputs) ([]engine.Input, error) {
	var out []engine.Input
	if in.Workflow != "" {
		out = append(out, engine.InputsOf([]engine.Source{{Name: "workflow.json", Src: []byte(in.Workflow)}})...)
	}
	for i, w := range in.Workflows {
		name := w.Name
		if name == "" {
			name = fmt.Sprintf("workflow-%d.json", i+1)
		}
		if err := checkName(name); err != nil {
			return nil, fmt.Errorf("workflows[%d].name: %w", i, err)
		}
		out = append(out, engine.InputsOf([]engine.Source{{Name: name, Src: []byte(w.JSON)}})...)
	}
	for _, p := range in.Paths {
		found, err := s.readPath(p)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	if len(out) == 0 {
		return nil, errors.New("no workflow given: send workflow (JSON text), workflows, or paths under the working folder")
	}
	out = engine.SortInputs(out)
	for i := 1; i < len(out); i++ {
		if out[i].Name == out[i-1].Name {
			return nil, fmt.Errorf("two inputs are named %q: give each workflow its own name", out[i].Name)
		}
	}
	return out, nil
}

// reading is how the engine reads the server's inputs.
func (s *server) reading() engine.Reading { return engine.Reading{Limit: s.cfg.MaxFileSize} }

// checkName refuses names a report could not show as they are.
func checkName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("empty")
	case len(name) > maxNameLen:
		return fmt.Errorf("longer than %d bytes", maxNameLen)
	case strings.ContainsFunc(name, func(r rune) bool { return unicode.IsControl(r) || r == '\uFFFD' }):
		return fmt.Errorf("%q holds a control character", name)
	}
	return nil
}

// readPath reads a file, or the *.json files of a folder, under the
// working folder. os.Root refuses a path that leaves it, by "..", an
// absolute path elsewhere or a symbolic link.
func (s *server) readPath(p string) ([]engine.Input, error) {
	rel, err := s.relative(p)
	if err != nil {
		return nil, err
	}
	info, err := s.root.Stat(rel)
	if err != nil {
		return nil, fmt.Errorf("path %q: %w", p, unwrapPath(err))
	}
	if !info.IsDir() {
		return []engine.Input{s.fileInput(rel)}, nil
	}
	var out []engine.Input
	err = fs.WalkDir(s.root.FS(), rel, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if name == rel {
				return err
			}
			out = append(out, engine.InputsOf([]engine.Source{{Name: name, Err: unwrapPath(err)}})...)
			return nil
		}
		if d.IsDir() {
			if name != rel && !engine.WalkEnters(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		// As the command line's walk: .json files and links to them.
		if !engine.WalkReads(d.Name()) {
			return nil
		}
		if d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0 {
			out = append(out, s.fileInput(name))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("path %q: %w", p, unwrapPath(err))
	}
	return out, nil
}

// relative is p as a slash path relative to the working folder.
func (s *server) relative(p string) (string, error) {
	if p == "" {
		return "", errors.New("an empty path")
	}
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(s.cfg.Root, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("path %q is outside the working folder %s", p, s.cfg.Root)
		}
		p = r
	}
	p = filepath.ToSlash(filepath.Clean(p))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("path %q is outside the working folder %s", p, s.cfg.Root)
	}
	return p, nil
}

// fileInput is one regular file under the root, read when the engine
// asks, at most limit bytes.
func (s *server) fileInput(name string) engine.Input {
	return engine.Input{Name: name, Explicit: true, Read: func(limit int64) ([]byte, error) {
		f, err := s.root.OpenFile(name, openFlags, 0)
		if err != nil {
			return nil, unwrapPath(err)
		}
		defer f.Close()
		info, err := f.Stat()
		switch {
		case err != nil:
			return nil, unwrapPath(err)
		case !info.Mode().IsRegular():
			return nil, errors.New("not a regular file")
		case info.Size() > limit:
			return nil, engine.ErrTooLarge
		}
		b, err := io.ReadAll(io.LimitReader(f, limit+1))
		if err == nil && int64(len(b)) > limit {
			return nil, engine.ErrTooLarge
		}
		return b, unwrapPath(err)
	}}
}

// unwrapPath drops the path an fs.PathError repeats: the report names the
// file already, and an absolute path would say where the server runs.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
