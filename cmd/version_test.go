package cmd

import (
	"os"
	"path/filepath"
	"runtime/debug"
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

// TestRevision: a source build names the commit it was built from and
// whether the checkout had changes; a build without VCS settings says
// nothing more.
func TestRevision(t *testing.T) {
	set := func(kv ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{}
		for i := 0; i+1 < len(kv); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return bi
	}
	for _, tt := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{nil, ""},
		{set("-trimpath", "true"), ""},
		{set("vcs", "git", "vcs.revision", "f00f5c1e3a9b2c4d5e6f7a8b9c0d1e2f3a4b5c6d", "vcs.modified", "false"), " (commit f00f5c1e3a9b)"},
		{set("vcs.revision", "f00f5c1e3a9b2c4d5e6f7a8b9c0d1e2f3a4b5c6d", "vcs.modified", "true"), " (commit f00f5c1e3a9b, modified)"},
	} {
		if got := revision(tt.bi); got != tt.want {
			t.Errorf("revision(%v) = %q, want %q", tt.bi, got, tt.want)
		}
	}
}
