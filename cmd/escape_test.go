package cmd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPullHostileNames: ids and names come from the server; pull's
// messages show them escaped and redacted, one message per line. An id
// with control characters is no file name: skipped and named, escaped.
func TestPullHostileNames(t *testing.T) {
	const token = "s3cr3tT0kenABCDEFGH42"
	hostile := "Orders\n::error file=x,line=1::forged\x1b]0;title\x07\u202e Bearer " + token
	wfs := []any{
		map[string]any{"id": "id\x1b[2J\r\n::error::x", "name": hostile, "nodes": []any{}, "connections": map[string]any{}},
		map[string]any{"id": "good", "name": hostile, "nodes": []any{}, "connections": map[string]any{}},
	}
	page, err := json.Marshal(map[string]any{"data": wfs, "nextCursor": nil})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(page)
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "wf")
	code, _, errOut := runWith(t, map[string]string{"N8N_API_KEY": testAPIKey}, "pull", "--n8n-url", srv.URL, "--out", out)
	if code != ExitFailure {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "wrote ") || !strings.HasPrefix(lines[1], "skipped workflow ") ||
		!strings.HasPrefix(lines[2], "pulled 2 workflows from ") || !strings.HasPrefix(lines[3], "stormcheck: 1 workflow was not saved: ") {
		t.Errorf("want a wrote, a skipped, a pulled and an error line, got %q", errOut)
	}
	if strings.ContainsAny(errOut, "\x1b\r\x07\u202e") || strings.Contains(errOut, token) {
		t.Errorf("pull's messages hold a control character or the token: %q", errOut)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 2 {
		t.Errorf("--out holds %d entries; want good.json and the manifest", len(ents))
	}
}

// TestAPIKeyFileNotEchoed: the key passed where its file belongs is not
// printed back.
func TestAPIKeyFileNotEchoed(t *testing.T) {
	code, out, errOut := runWith(t, nil, "audit", "--n8n-url", "http://127.0.0.1:1", "--api-key-file", testAPIKey)
	if code != ExitFailure || strings.Contains(out+errOut, testAPIKey) || !strings.Contains(errOut, "--api-key-file") {
		t.Errorf("exit %d, stderr %q: want exit %d naming the flag, not the key", code, errOut, ExitFailure)
	}
	empty := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runWith(t, nil, "pull", "--n8n-url", "http://127.0.0.1:1", "--api-key-file", empty, "--out", t.TempDir())
	if code != ExitUsage || !strings.Contains(errOut, "empty") {
		t.Errorf("empty key file: exit %d, stderr %q", code, errOut)
	}
}

// TestSymlinkLoopIsNotFollowed: a folder holding links back to itself (one
// named like a workflow) is walked once: links are not followed into
// folders, so the audit ends and reports the one real file, exit 0.
func TestSymlinkLoopIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(td("clean.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.json"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"loop", "loop.json"} {
		if err := os.Symlink(dir, filepath.Join(dir, name)); err != nil {
			t.Skipf("cannot make a symlink: %v", err)
		}
	}
	r := run(t, "audit", "--format", "json", "--fail-on", "never", dir)
	var doc struct {
		Summary   struct{ Workflows int }
		Workflows []struct{ File string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("exit %d, stderr %q: %v", r.code, r.stderr, err)
	}
	if r.code != ExitOK || r.stderr != "" || doc.Summary.Workflows != 1 || len(doc.Workflows) != 1 || !strings.HasSuffix(doc.Workflows[0].File, "a.json") {
		t.Errorf("exit %d: want the one real workflow once, got %+v (stderr %q)", r.code, doc, r.stderr)
	}
}

// TestConfigAliasBomb: a config whose anchors nest nine deep (9^9 strings
// once expanded, the "billion laughs") is refused with its lines, exit 2:
// the decoder wants a string where the first alias gives a list, and stops.
func TestConfigAliasBomb(t *testing.T) {
	lines := []string{`x0: &x0 ["RS101","RS101","RS101","RS101","RS101","RS101","RS101","RS101","RS101"]`}
	for i := 1; i < 9; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*x%d,", i-1), 9), ",")
		lines = append(lines, fmt.Sprintf("x%d: &x%d [%s]", i, i, refs))
	}
	lines = append(lines, "rules:", "  enable: *x8")
	cfg := filepath.Join(t.TempDir(), "bomb.yaml")
	if err := os.WriteFile(cfg, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "audit", "--config", cfg, td("clean.json"))
	if r.code != ExitUsage || !strings.Contains(r.stderr, "bomb.yaml:") {
		t.Errorf("exit %d, stderr %q: want exit %d naming the config's line", r.code, r.stderr, ExitUsage)
	}
}
