package cmd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
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

// invisible matches what a viewer shows raw but a reader cannot see or
// that reorders text: bidi controls, zero-width marks, C1 controls.
var invisible = regexp.MustCompile("[\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\u061c\ufeff\u0080-\u009f]")

// TestInvisiblesEscapedInJSONAndSARIF: names holding bidi, zero-width and
// C1 characters reach message text (chains, related places) escaped, as in
// text; SARIF, which GitHub's code scanning shows, escapes every string.
// JSON keeps names as data in their own fields.
func TestInvisiblesEscapedInJSONAndSARIF(t *testing.T) {
	bad := "\u202eevil\u200b\u2060\u0085\u061c\u2066"
	node := func(name, typ string, params map[string]any) map[string]any {
		return map[string]any{"parameters": params, "name": name + bad, "type": typ, "typeVersion": 4.2, "position": []int{0, 0},
			"retryOnFail": true, "maxTries": 3}
	}
	link := func(to ...string) map[string]any {
		var outs []any
		for _, n := range to {
			outs = append(outs, map[string]any{"node": n + bad, "type": "main", "index": 0})
		}
		return map[string]any{"main": []any{outs}}
	}
	wf := map[string]any{"id": "x1", "name": "WF" + bad,
		"nodes": []any{
			node("Webhook", "n8n-nodes-base.webhook", map[string]any{}),
			node("Create", "n8n-nodes-base.httpRequest", map[string]any{"method": "POST", "url": "https://api.stripe.com/v1/charges"}),
			node("Again", "n8n-nodes-base.executeWorkflow", map[string]any{"workflowId": map[string]any{"__rl": true, "value": "x1", "mode": "id"}}),
		},
		"connections": map[string]any{"Webhook" + bad: link("Create"), "Create" + bad: link("Gone", "Again")}}
	b, err := json.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "wf.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// strs calls f with every string in a decoded document and its path.
	var strs func(v any, path string, f func(path, s string))
	strs = func(v any, path string, f func(path, s string)) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				strs(x, path+"."+k, f)
			}
		case []any:
			for _, x := range v {
				strs(x, path+"[]", f)
			}
		case string:
			f(path, v)
		}
	}
	for _, format := range []string{"json", "sarif"} {
		r := run(t, "audit", "--format", format, "--fail-on", "never", p)
		var doc any
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", format, err, r.stderr)
		}
		messages := 0
		strs(doc, "", func(path, s string) {
			text := format == "sarif" || strings.HasSuffix(path, ".message") || strings.HasSuffix(path, ".fix") || strings.HasSuffix(path, ".description")
			if text && invisible.MatchString(s) {
				t.Errorf("%s %s holds an invisible character raw: %q", format, path, s)
			}
			if text && strings.Contains(s, `evil\u200b\u2060\u0085\u061c\u2066`) {
				messages++
			}
		})
		if messages == 0 {
			t.Errorf("%s: no message text names a node: the workflow does not test what it means", format)
		}
	}
}
