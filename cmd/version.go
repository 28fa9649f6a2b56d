package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// n8nVersionFlag adds --n8n-version, the n8n release the figures are for
// (as ruff's target-version).
func n8nVersionFlag(f *pflag.FlagSet, v *string) {
	f.StringVar(v, "n8n-version", "", "n8n release the figures are for, e.g. 2.8.4 (default: the config's n8n_version, else "+n8nschema.NewestKnown().String()+", the newest the facts were checked on)")
}

// n8nVersion resolves the n8n release: the flag, then the config's
// n8n_version, then the newest known. The public API of an instance
// (--n8n-url) does not say its version: n8n serves it only in
// /rest/settings to a signed-in browser session, so it is never read
// there. A release older than the facts were checked on gets a warning
// on w, as the chat-model layer may differ there.
func n8nVersion(flag string, cfg *Config, w io.Writer) (n8nschema.Version, error) {
	s, from := flag, "--n8n-version"
	if s == "" && cfg != nil && cfg.N8nVersion != "" {
		s, from = cfg.N8nVersion, cfg.Path+": n8n_version"
	}
	if s == "" {
		return n8nschema.NewestKnown(), nil
	}
	v, err := n8nschema.ParseVersion(s)
	if err != nil {
		return v, usageErrorf("%s %v", from, err)
	}
	if !n8nschema.Checked(v) && w != nil {
		known := make([]string, len(n8nschema.KnownVersions))
		for i, k := range n8nschema.KnownVersions {
			known[i] = k.String()
		}
		fmt.Fprintf(w, "stormcheck: warning: n8n %s is older than the releases its facts were checked on (%s); figures are those of %s\n",
			v, strings.Join(known, ", "), n8nschema.KnownVersions[0])
	}
	return v, nil
}
