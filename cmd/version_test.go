package cmd

import (
	"runtime/debug"
	"testing"
)

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
