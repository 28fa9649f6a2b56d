package cmd

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/n8napi"
	"github.com/stormcheck/stormcheck/report"
)

// pullManifest remembers what pull wrote, so a later pull can tell a file it
// may refresh from one somebody edited since.
const pullManifest = ".stormcheck-pull.json"

type pullOptions struct {
	IO     *IO
	Remote remoteOptions
	Out    string
	Force  bool
}

func newPullCmd(io *IO) *cobra.Command {
	opts := &pullOptions{IO: io}
	c := &cobra.Command{
		Use:   "pull --n8n-url URL --out DIR",
		Short: "Save a live instance's workflows as files, one <id>.json each",
		Long: `Save every workflow of a live n8n as pretty JSON, one <id>.json per workflow like
n8n export:workflow --backup, so they can be committed and audited in CI with SARIF pointing at real files.
The published version (activeVersion) stays inside each file and is what audit reads.

A file that was edited since the last pull is never overwritten without --force; pull says what it wrote.
Exit status: 0 all written or unchanged; 1 some files were kept because they changed locally; 2 usage
error; 3 I/O or API error.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if opts.Remote.URL == "" {
				return usageErrorf("pull needs --n8n-url")
			}
			if opts.Out == "" {
				return usageErrorf("pull needs --out DIR")
			}
			return runPull(opts)
		},
	}
	opts.Remote.addFlags(c.Flags())
	c.Flags().StringVar(&opts.Out, "out", "", "folder to write <id>.json files into")
	c.Flags().BoolVar(&opts.Force, "force", false, "overwrite files that changed since the last pull")
	return c
}

var errKept = errors.New("some files were kept because they changed since the last pull (use --force to overwrite)")

// badID says why a workflow id cannot name a file in --out, or "". A
// leading dot is refused too: the manifest is .stormcheck-pull.json, and
// audit skips hidden files, so a file named so would never be audited.
func badID(id string) string {
	switch {
	case id == "":
		return "it is empty"
	case strings.ContainsAny(id, "/\\\x00"):
		return "it holds a path separator"
	case strings.HasPrefix(id, "."):
		return "it starts with a dot (hidden files are tool state, like " + pullManifest + ")"
	}
	return ""
}

func runPull(o *pullOptions) (err error) {
	sp, err := newSpool(o.IO)
	if err != nil {
		return fmt.Errorf("make a file for the fetched workflows: %w", err)
	}
	defer sp.done()
	wfs, err := o.Remote.fetch(o.IO, sp)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	manifestPath := filepath.Join(o.Out, pullManifest)
	manifest := readManifest(manifestPath)
	var wrote, same, kept int
	var refused []string
	// Whatever stops the loop, the manifest records every file written
	// so far, so the next pull recognises them as its own.
	defer func() {
		if merr := writeManifest(manifestPath, manifest); merr != nil && err == nil {
			err = merr
		}
	}()
	for _, w := range wfs {
		if why := badID(w.id); why != "" {
			fmt.Fprintf(o.IO.Err, "skipped workflow %q: its id %q cannot be a file name: %s\n", report.Redact(w.name), w.id, why)
			refused = append(refused, strconv.Quote(w.id))
			continue
		}
		// One workflow in memory at a time; a page bounded it already.
		raw, err := w.read(n8napi.MaxPageBytes, nil)
		if err != nil {
			return err
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, raw, "", "  "); err != nil {
			return fmt.Errorf("workflow %q: %w", w.id, err)
		}
		pretty.WriteByte('\n')
		name := w.id + ".json"
		path := filepath.Join(o.Out, name)
		old, err := os.ReadFile(path)
		switch {
		case err == nil && bytes.Equal(old, pretty.Bytes()):
			same++
			manifest[name] = digest(old)
			continue
		case err == nil && !o.Force && manifest[name] != digest(old):
			fmt.Fprintf(o.IO.Err, "kept %s: it changed since the last pull (use --force to overwrite)\n", report.Printable(path))
			kept++
			continue
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := writeAtomic(path, pretty.Bytes()); err != nil {
			return err
		}
		manifest[name] = digest(pretty.Bytes())
		// Ids and names are the server's: shown escaped, names redacted.
		fmt.Fprintf(o.IO.Err, "wrote %s (%s)\n", report.Printable(path), report.Printable(report.Redact(w.name)))
		wrote++
	}
	fmt.Fprintf(o.IO.Err, "pulled %d %s from %s: %d written, %d unchanged, %d kept, %d skipped\n",
		len(wfs), plural(len(wfs), "workflow", "workflows"), o.Remote.URL, wrote, same, kept, len(refused))
	if refused != nil {
		return fmt.Errorf("%d %s not saved: %s cannot be a file name", len(refused), plural(len(refused), "workflow was", "workflows were"), strings.Join(refused, ", "))
	}
	if kept > 0 {
		return fmt.Errorf("%w", errKept)
	}
	return nil
}

// writeAtomic replaces path with b through a temporary file in the same
// folder and a rename, so that an interrupted pull leaves the old file or
// the new one, never half of one.
func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".stormcheck-tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename: nothing to remove
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func readManifest(path string) map[string]string {
	m := map[string]string{}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &m) // an unreadable manifest only means more files count as changed
	}
	return m
}

func writeManifest(path string, m map[string]string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		fmt.Fprintf(&b, "  %s: %q", kb, m[k])
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return writeAtomic(path, b.Bytes())
}
