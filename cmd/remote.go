package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/n8napi"
)

// remoteOptions select a live n8n instance to read workflows from.
type remoteOptions struct {
	URL        string
	APIKeyFile string
	Insecure   bool
}

func (r *remoteOptions) addFlags(f *pflag.FlagSet) {
	f.StringVar(&r.URL, "n8n-url", "", "read every workflow of a live n8n through its public API (key in N8N_API_KEY or --api-key-file)")
	f.StringVar(&r.APIKeyFile, "api-key-file", "", "file holding the n8n API key (never pass the key itself as a flag)")
	f.BoolVar(&r.Insecure, "insecure", false, "skip TLS certificate verification for --n8n-url")
}

// maxKeyFileSize bounds the key file: n8n API keys are a few hundred bytes.
const maxKeyFileSize = 64 << 10

// apiKey reads the key from --api-key-file, else N8N_API_KEY. A key is
// never a flag value: flags end up in shell history and process lists.
func (r *remoteOptions) apiKey(io *IO) (string, error) {
	if r.APIKeyFile != "" {
		// The flag's value is never echoed: given the key itself by
		// mistake, an error quoting it would print the key.
		// Bounded and non-blocking like every other read: a named pipe
		// or /dev/zero given here must not hang or fill memory.
		b, err := engine.ReadFile(r.APIKeyFile, maxKeyFileSize)
		if errors.Is(err, engine.ErrTooLarge) {
			return "", usageErrorf("--api-key-file names a file larger than %s: not a key file", formatSize(maxKeyFileSize))
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return "", fmt.Errorf("read --api-key-file: %w (the flag takes the path of a file holding the key)", err)
		}
		if k := strings.TrimSpace(string(b)); k != "" {
			return k, nil
		}
		return "", usageErrorf("--api-key-file names an empty file")
	}
	if k := strings.TrimSpace(io.Getenv("N8N_API_KEY")); k != "" {
		return k, nil
	}
	return "", usageErrorf("no n8n API key: set N8N_API_KEY or pass --api-key-file (create one in n8n under Settings > n8n API)")
}

// fetched is one workflow of a live instance, its bytes as fetched in a
// spool.
type fetched struct {
	id, name string
	engine.Spooled
}

// fetch lists the instance's workflows page by page into sp, holding no
// more than one page, with a progress line on stderr only when stderr is
// a terminal. The result is sorted by id (numbers by value); the spool is
// let go if the listing fails.
func (r *remoteOptions) fetch(io *IO, sp *engine.Spool) ([]fetched, error) {
	key, err := r.apiKey(io)
	if err != nil {
		return nil, err
	}
	opts := n8napi.Options{BaseURL: r.URL, APIKey: key, Insecure: r.Insecure}
	if io.ErrIsTTY {
		opts.Progress = func(page, n int) {
			fmt.Fprintf(io.Err, "\rfetching workflows from %s: page %d, %d workflows", n8napi.Host(r.URL), page, n)
		}
	}
	c, err := n8napi.New(opts)
	if err != nil {
		return nil, usageErrorf("--n8n-url: %v", err)
	}
	var wfs []fetched
	err = c.Each(context.Background(), func(w n8napi.Workflow) error {
		at, err := sp.Put(w.Raw)
		if err != nil {
			return fmt.Errorf("keep a fetched workflow on disk: %w", err)
		}
		wfs = append(wfs, fetched{id: w.ID, name: w.Name, Spooled: at})
		return nil
	})
	if io.ErrIsTTY {
		fmt.Fprint(io.Err, "\r\x1b[K")
	}
	if err != nil {
		sp.Close()
		return nil, err
	}
	slices.SortFunc(wfs, func(a, b fetched) int { return n8napi.CompareIDs(a.id, b.id) })
	return wfs, nil
}

// remoteInputs turns the instance's workflows into inputs named by the
// editor's URL of each (https://HOST/workflow/ID, where a person opens it),
// read from a spool when parsed; positions are inside the JSON as fetched,
// which the text formats leave out (the API's JSON is one line). The spool goes when the command ends.
func remoteInputs(r *remoteOptions, io *IO) ([]engine.Input, error) {
	sp, err := newSpool(io)
	if err != nil {
		return nil, fmt.Errorf("make a file for the fetched workflows: %w", err)
	}
	wfs, err := r.fetch(io, sp)
	if err != nil {
		return nil, err
	}
	ins := make([]engine.Input, 0, len(wfs))
	for i, w := range wfs {
		ins = append(ins, engine.Input{Name: n8napi.EditorURL(r.URL, w.id), Explicit: true, Read: wfs[i].Spooled.Read})
	}
	return ins, nil
}
