package cmd

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testAPIKey = "n8n_api_e2e_0123456789abcdefSECRET"

// fakeN8N serves two pages of the public API: a workflow with a broken
// connection (an RS003 finding) and one whose published version differs
// from its draft.
func fakeN8N(t *testing.T) *httptest.Server {
	t.Helper()
	page1 := `{"data":[{"id":"wfA","name":"Broken","active":false,"nodes":[{"id":"1","name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}}],"connections":{"Start":{"main":[[{"node":"Missing","type":"main","index":0}]]}}}],"nextCursor":"Y3Vyc29yMg=="}`
	page2 := `{"data":[{"id":"wfB","name":"Published","active":true,"nodes":[],"connections":{},"activeVersion":{"versionId":"v1","nodes":[{"id":"1","name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},{"id":"2","name":"Start","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[200,0],"parameters":{}}],"connections":{}}}],"nextCursor":null}`
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-N8N-API-KEY") != testAPIKey {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"message":"unauthorized"}`))
			return
		}
		if r.URL.Path != "/api/v1/workflows" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("cursor") == "Y3Vyc29yMg==" {
			w.Write([]byte(page2))
			return
		}
		w.Write([]byte(page1))
	}))
}

func runWith(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	wd, _ := os.Getwd()
	code := Run(args, &IO{In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(k string) string { return env[k] }, Getwd: func() (string, error) { return wd, nil }})
	return code, out.String(), errb.String()
}

func TestAuditN8nURL(t *testing.T) {
	srv := fakeN8N(t)
	defer srv.Close()
	env := map[string]string{"N8N_API_KEY": testAPIKey}
	code, out, errOut := runWith(t, env, "audit", "--n8n-url", srv.URL, "--format", "json", "--fail-on", "warning")
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitFindings, errOut)
	}
	var doc struct {
		Workflows []struct{ File, ID, Name string }
		Findings  []struct {
			Rule, File, Node string
			Line, Column     int
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	want := []string{"http://" + host + "/workflow/wfA RS003", "http://" + host + "/workflow/wfB RS004"}
	var got []string
	for _, f := range doc.Findings {
		got = append(got, f.File+" "+f.Rule)
		if f.Line != 1 || f.Column < 1 {
			t.Errorf("%s %s at %d:%d, want line 1 of the compact JSON as fetched", f.File, f.Rule, f.Line, f.Column)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(doc.Workflows) != 2 {
		t.Errorf("got %d workflows, want 2", len(doc.Workflows))
	}
	if strings.Contains(out+errOut, testAPIKey) {
		t.Error("the API key appears in the output")
	}
}

func TestAuditN8nURLNeedsKey(t *testing.T) {
	srv := fakeN8N(t)
	defer srv.Close()
	code, _, errOut := runWith(t, nil, "audit", "--n8n-url", srv.URL)
	if code != ExitUsage || !strings.Contains(errOut, "N8N_API_KEY") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming N8N_API_KEY", code, errOut)
	}
	code, _, errOut = runWith(t, map[string]string{"N8N_API_KEY": "wrong-key-value"}, "audit", "--n8n-url", srv.URL)
	if code != ExitFailure || !strings.Contains(errOut, "401") || strings.Contains(errOut, "wrong-key-value") {
		t.Errorf("exit %d, stderr %q; want exit 3 with the 401 and without the key", code, errOut)
	}
}

func TestPull(t *testing.T) {
	srv := fakeN8N(t)
	defer srv.Close()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte(testAPIKey+"\n"), 0o600)
	out := filepath.Join(dir, "wf")
	pull := func(extra ...string) (int, string) {
		code, stdout, errOut := runWith(t, nil, append([]string{"pull", "--n8n-url", srv.URL, "--api-key-file", keyFile, "--out", out}, extra...)...)
		if stdout != "" {
			t.Errorf("pull wrote to stdout: %q", stdout)
		}
		if strings.Contains(errOut, testAPIKey) {
			t.Error("the API key appears in pull's output")
		}
		return code, errOut
	}
	if code, errOut := pull(); code != ExitOK || !strings.Contains(errOut, "2 written, 0 unchanged, 0 kept") {
		t.Fatalf("first pull: exit %d, %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(out, "wfA.json"))
	if err != nil || !strings.HasPrefix(string(b), "{\n  \"id\": \"wfA\",") || !strings.HasSuffix(string(b), "}\n") {
		t.Fatalf("wfA.json is not pretty JSON as fetched: %v\n%s", err, b)
	}
	if code, errOut := pull(); code != ExitOK || !strings.Contains(errOut, "0 written, 2 unchanged, 0 kept") {
		t.Errorf("second pull: exit %d, %s", code, errOut)
	}
	os.WriteFile(filepath.Join(out, "wfA.json"), []byte("{\"edited\": true}\n"), 0o644)
	if code, errOut := pull(); code != ExitFindings || !strings.Contains(errOut, "0 written, 1 unchanged, 1 kept") {
		t.Errorf("pull over a local edit: exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "wfA.json")); string(b) != "{\"edited\": true}\n" {
		t.Error("a locally edited file was overwritten without --force")
	}
	if code, errOut := pull("--force"); code != ExitOK || !strings.Contains(errOut, "1 written, 1 unchanged, 0 kept") {
		t.Errorf("pull --force: exit %d, %s", code, errOut)
	}
	// The pulled files audit like the API answers: same findings, real files.
	code, stdout, _ := runWith(t, nil, "audit", "--format", "json", "--fail-on", "never", out)
	if code != ExitOK || !strings.Contains(stdout, `"rule": "RS003"`) || !strings.Contains(stdout, `"rule": "RS004"`) {
		t.Errorf("audit of pulled files: exit %d\n%s", code, stdout)
	}
}
