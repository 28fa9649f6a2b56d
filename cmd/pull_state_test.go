package cmd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// onePageN8N serves one page of workflows with the given ids.
func onePageN8N(t *testing.T, ids ...string) *httptest.Server {
	t.Helper()
	var rows []string
	for _, id := range ids {
		b, _ := json.Marshal(id)
		rows = append(rows, `{"id":`+string(b)+`,"name":"W","nodes":[],"connections":{}}`)
	}
	page := `{"data":[` + strings.Join(rows, ",") + `],"nextCursor":null}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-N8N-API-KEY") != testAPIKey {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestPullStateSurvivesBadIDs: an id ".stormcheck-pull" used to overwrite
// the manifest, and a bad id mid-list stopped the pull after some files
// were written but before the manifest was, so the next pull refused the
// files it had written itself. Bad ids are now skipped (exit 3 naming
// them), every good file is written, and the manifest always records them.
func TestPullStateSurvivesBadIDs(t *testing.T) {
	srv := onePageN8N(t, "wfA", ".stormcheck-pull", "a/b", "wfC")
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte(testAPIKey), 0o600)
	out := filepath.Join(dir, "wf")
	pull := func() (int, string) {
		code, _, errOut := runWith(t, nil, "pull", "--n8n-url", srv.URL, "--api-key-file", keyFile, "--out", out)
		return code, errOut
	}
	code, errOut := pull()
	if code != ExitFailure || !strings.Contains(errOut, "pulled 4 workflows from "+srv.URL+": 2 written, 0 unchanged, 0 kept, 2 skipped\n") ||
		!strings.HasSuffix(errOut, "stormcheck: 2 workflows were not saved: \".stormcheck-pull\", \"a/b\" cannot be a file name\n") {
		t.Fatalf("first pull: exit %d, want %d:\n%s", code, ExitFailure, errOut)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{".stormcheck-pull.json", "wfA.json", "wfC.json"}; !slices.Equal(names, want) {
		t.Errorf("--out holds %v, want %v (no temporary file left behind)", names, want)
	}
	var manifest map[string]string
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, pullManifest))), &manifest); err != nil || len(manifest) != 2 ||
		manifest["wfA.json"] == "" || manifest["wfC.json"] == "" {
		t.Errorf("manifest %v (%v); want the digests of wfA.json and wfC.json", manifest, err)
	}
	// The next pull recognises its own files.
	if code, errOut := pull(); code != ExitFailure || !strings.Contains(errOut, "0 written, 2 unchanged, 0 kept, 2 skipped") {
		t.Errorf("second pull: exit %d:\n%s", code, errOut)
	}
}

// TestPullManifestIsWrittenAfterAFailure: a write that fails mid-list (a
// folder in the way of one file) still leaves a manifest of the files
// written before it, so the next pull does not refuse them.
func TestPullManifestIsWrittenAfterAFailure(t *testing.T) {
	srv := onePageN8N(t, "wfA", "wfB")
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte(testAPIKey), 0o600)
	out := filepath.Join(dir, "wf")
	if err := os.MkdirAll(filepath.Join(out, "wfB.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runWith(t, nil, "pull", "--n8n-url", srv.URL, "--api-key-file", keyFile, "--out", out)
	if code != ExitFailure {
		t.Fatalf("exit %d, want %d:\n%s", code, ExitFailure, errOut)
	}
	var manifest map[string]string
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, pullManifest))), &manifest); err != nil || len(manifest) != 1 || manifest["wfA.json"] == "" {
		t.Errorf("manifest %v (%v); want wfA.json's digest", manifest, err)
	}
	os.Remove(filepath.Join(out, "wfB.json"))
	code, _, errOut = runWith(t, nil, "pull", "--n8n-url", srv.URL, "--api-key-file", keyFile, "--out", out)
	if code != ExitOK || !strings.Contains(errOut, "1 written, 1 unchanged, 0 kept") {
		t.Errorf("second pull: exit %d:\n%s", code, errOut)
	}
}

// TestPullSkipsUnportableIDs: an id that cannot be a portable file name
// (too long, a control or invisible character, a name Windows reserves or
// a character it refuses) is skipped and named, escaped; every other
// workflow is written. A 300-character id used to stop the whole pull.
func TestPullSkipsUnportableIDs(t *testing.T) {
	bad := []string{strings.Repeat("x", 300), strings.Repeat("7", 400), "CON", "nul", "Com1.v2", "lpt9",
		"a\x01b", "a\u202eb", "zero\u200bwidth", "c1\u0085", "..", "a:b", "what?"}
	good := []string{"wfA", strings.Repeat("y", maxIDBytes), "COM0", "console", "wfZ"}
	srv := onePageN8N(t, append(slices.Clone(bad), good...)...)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte(testAPIKey), 0o600)
	out := filepath.Join(dir, "wf")
	code, _, errOut := runWith(t, nil, "pull", "--n8n-url", srv.URL, "--api-key-file", keyFile, "--out", out)
	if code != ExitFailure || !strings.Contains(errOut, fmt.Sprintf("%d written, 0 unchanged, 0 kept, %d skipped\n", len(good), len(bad))) {
		t.Fatalf("exit %d, want %d:\n%s", code, ExitFailure, errOut)
	}
	for _, id := range good {
		if _, err := os.Stat(filepath.Join(out, id+".json")); err != nil {
			t.Errorf("%.20s…: not written: %v", id, err)
		}
	}
	last := errOut[strings.LastIndex(strings.TrimSuffix(errOut, "\n"), "\n")+1:]
	for _, id := range bad {
		if !strings.Contains(last, strconv.Quote(id)) {
			t.Errorf("the error does not name %q:\n%s", id, last)
		}
	}
	if strings.ContainsAny(errOut, "\x01\u202e\u200b\u0085") {
		t.Errorf("an id reached stderr unescaped: %q", errOut)
	}
}

// TestPullNeverWritesOutsideOut: a file in --out that is a link out of it
// is not written through, even with --force; the others are.
func TestPullNeverWritesOutsideOut(t *testing.T) {
	srv := onePageN8N(t, "wfA", "wfB")
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte(testAPIKey), 0o600)
	rc := filepath.Join(dir, "bashrc")
	os.WriteFile(rc, []byte("export PATH=/bin\n"), 0o644)
	out := filepath.Join(dir, "wf")
	os.MkdirAll(out, 0o755)
	if err := os.Symlink(rc, filepath.Join(out, "wfA.json")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	code, _, errOut := runWith(t, nil, "pull", "--force", "--n8n-url", srv.URL, "--api-key-file", keyFile, "--out", out)
	if got := readFile(t, rc); got != "export PATH=/bin\n" {
		t.Errorf("the file the link points to was overwritten:\n%s", got)
	}
	if code != ExitFailure || !strings.Contains(errOut, "wfA.json (it is reached through a symbolic link that leads out of the inputs") {
		t.Errorf("exit %d, want %d naming wfA.json:\n%s", code, ExitFailure, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "wfB.json")); err != nil {
		t.Errorf("wfB.json not written: %v", err)
	}
}
