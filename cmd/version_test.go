package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestN8nVersion: --n8n-version and the config's n8n_version are checked,
// the flag wins, and a release older than the facts were checked on is
// audited with a warning.
func TestN8nVersion(t *testing.T) {
	wf := filepath.Join("..", "testdata", "engine", "chain-openai.json")
	if r := run(t, "audit", "--n8n-version", "2.x", wf); r.code != ExitUsage || !strings.Contains(r.stderr, `--n8n-version "2.x": want an n8n version like 2.8.4`) {
		t.Errorf("bad version: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, "audit", "--n8n-version", "1.90.0", "--fail-on", "never", wf); r.code != ExitOK ||
		!strings.Contains(r.stderr, "warning: n8n 1.90.0 is older than the releases its facts were checked on (1.123.81, 2.8.4, 2.41.1)") {
		t.Errorf("old version: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, "audit", "--n8n-version", "2.41.1", "--fail-on", "never", wf); r.code != ExitOK || r.stderr != "" {
		t.Errorf("known version: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, "graph", "--n8n-version", "two", wf); r.code != ExitUsage {
		t.Errorf("graph, bad version: exit %d, stderr %q", r.code, r.stderr)
	}

	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("n8n_version: 2.8\nitems: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, "audit", "--config", cfg, "--fail-on", "never", wf); r.code != ExitOK || r.stderr != "" {
		t.Errorf("config version: exit %d, stderr %q", r.code, r.stderr)
	}
	if err := os.WriteFile(cfg, []byte("items: 2\nn8n_version: latest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, "audit", "--config", cfg, wf); r.code != ExitUsage || !strings.Contains(r.stderr, `:2: n8n_version "latest": want an n8n version like 2.8.4`) {
		t.Errorf("bad config version: exit %d, stderr %q", r.code, r.stderr)
	}
	// The flag wins over the config.
	if err := os.WriteFile(cfg, []byte("n8n_version: 1.80.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, "audit", "--config", cfg, "--fail-on", "never", wf); !strings.Contains(r.stderr, "n8n 1.80.0 is older") {
		t.Errorf("old config version: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, "audit", "--config", cfg, "--n8n-version", "2.8.4", "--fail-on", "never", wf); r.code != ExitOK || r.stderr != "" {
		t.Errorf("flag over config: exit %d, stderr %q", r.code, r.stderr)
	}
}
