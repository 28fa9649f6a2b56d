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

	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/internal/safewrite"
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
Each file is replaced whole, inside --out only. A workflow whose id cannot be a portable file name (too
long, control characters, names Windows reserves such as CON) is skipped and named; the others are written.
Exit status: 0 all written or unchanged; 1 some files were kept because they changed locally; 2 usage
error; 3 I/O or API error, or a workflow skipped or not written.`,
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

// maxIDBytes keeps <id>.json within the 255 bytes most file systems allow
// a name.
const maxIDBytes = 255 - len(".json")

// badID says why a workflow id cannot name a portable file in --out, or
// "". A leading dot is refused too: the manifest is .stormcheck-pull.json,
// and audit skips hidden files, so a file named so would never be audited.
// Names Windows reserves or cannot hold are refused everywhere, so that a
// folder pulled on Linux can be checked out on Windows.
func badID(id string) string {
	switch {
	case id == "":
		return "it is empty"
	case len(id) > maxIDBytes:
		return fmt.Sprintf("it is %d bytes long; a file name holds at most %d with .json", len(id), maxIDBytes)
	case strings.ContainsAny(id, "/\\\x00"):
		return "it holds a path separator"
	case strings.HasPrefix(id, "."):
		return "it starts with a dot (hidden files are tool state, like " + pullManifest + ")"
	case report.Printable(id) != id:
		return "it holds a control, invisible or invalid character"
	case strings.ContainsAny(id, `<>:"|?*`):
		return `it holds a character Windows refuses in a file name (<>:"|?*)`
	case reservedName(id):
		return "Windows reserves the name (CON, PRN, AUX, NUL, COM1-9, LPT1-9)"
	}
	return ""
}

// reservedName says whether Windows reserves the file name id+".json":
// it looks at the part before the first dot, trailing spaces dropped.
func reservedName(id string) bool {
	base, _, _ := strings.Cut(id, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		return base[3] >= '1' && base[3] <= '9'
	}
	return false
}

func runPull(o *pullOptions) (err error) {
	sp, err := newSpool(o.IO)
	if err != nil {
		return fmt.Errorf("make a file for the fetched workflows: %w", err)
	}
	defer sp.Close()
	wfs, err := o.Remote.fetch(o.IO, sp)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	manifestPath := filepath.Join(o.Out, pullManifest)
	manifest := readManifest(manifestPath)
	// Files are written only inside --out: one that is a link out of it
	// (committed in the folder, say) is refused, not written through.
	within := engine.NewPlaces([]string{o.Out}, "").Resolved()
	var wrote, same, kept int
	var refused, failed []string
	// Whatever stops the loop, the manifest records every file written
	// so far, so the next pull recognises them as its own.
	defer func() {
		if merr := safewrite.Write(manifestPath, manifestBytes(manifest), safewrite.Options{Within: within}); merr != nil && err == nil {
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
		raw, err := w.Read(n8napi.MaxPageBytes)
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
		// Bounded and non-blocking: a named pipe in --out is refused.
		old, err := engine.ReadFile(path, defaultMaxFileSize)
		was := safewrite.Absent()
		switch {
		case err == nil && bytes.Equal(old, pretty.Bytes()):
			same++
			manifest[name] = digest(old)
			continue
		case err == nil && !o.Force && manifest[name] != digest(old):
			fmt.Fprintf(o.IO.Err, "kept %s: it changed since the last pull (use --force to overwrite)\n", report.Printable(path))
			kept++
			continue
		case err == nil:
			was = safewrite.Of(old)
		case !errors.Is(err, fs.ErrNotExist):
			failed = append(failed, report.Printable(name)+" ("+report.Printable(engine.UnreadMessage(err, defaultMaxFileSize))+")")
			continue
		}
		if err := safewrite.Write(path, pretty.Bytes(), safewrite.Options{Within: within, Was: was}); err != nil {
			var se *safewrite.Error
			if errors.As(err, &se) {
				err = se.Err
			}
			failed = append(failed, report.Printable(name)+" ("+report.Printable(err.Error())+")")
			continue
		}
		manifest[name] = digest(pretty.Bytes())
		// Ids and names are the server's: shown escaped, names redacted.
		fmt.Fprintf(o.IO.Err, "wrote %s (%s)\n", report.Printable(path), report.Printable(report.Redact(w.name)))
		wrote++
	}
	fmt.Fprintf(o.IO.Err, "pulled %d %s from %s: %d written, %d unchanged, %d kept, %d skipped\n",
		len(wfs), plural(len(wfs), "workflow", "workflows"), o.Remote.URL, wrote, same, kept, len(refused)+len(failed))
	var errs []error
	if refused != nil {
		errs = append(errs, fmt.Errorf("%d %s not saved: %s cannot be a file name", len(refused), plural(len(refused), "workflow was", "workflows were"), strings.Join(refused, ", ")))
	}
	if failed != nil {
		errs = append(errs, fmt.Errorf("%d %s not written and %s as %s: %s", len(failed), plural(len(failed), "file was", "files were"),
			plural(len(failed), "is", "are"), plural(len(failed), "it was", "they were"), strings.Join(failed, ", ")))
	}
	if errs != nil {
		return errors.Join(errs...)
	}
	if kept > 0 {
		return fmt.Errorf("%w", errKept)
	}
	return nil
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

// manifestBytes renders the manifest, sorted by name.
func manifestBytes(m map[string]string) []byte {
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
	return b.Bytes()
}
