package main

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedTableIsGenerated fails when n8nschema/zz_nodes_generated.go
// is not what the generator makes from the installed n8n. It needs the n8n
// that scripts/e2e-n8n.sh installs; .ci/run also runs `gencatalog -check`
// after that script, where the package is always there.
func TestCommittedTableIsGenerated(t *testing.T) {
	dir := defaultModules()
	if _, err := os.Stat(filepath.Join(dir, "n8n-nodes-base", "dist", "types", "nodes.json")); err != nil {
		t.Skipf("n8n %s is not installed in %s (scripts/e2e-n8n.sh installs it): %v", n8nVersion, dir, err)
	}
	got, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", out))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from what the generator makes from %s: run go run ./scripts/gencatalog", out, dir)
	}
}

func TestShown(t *testing.T) {
	gte := func(v float64) any { return map[string]any{"_cnd": map[string]any{"gte": v}} }
	params := map[string]any{"resource": "message", "tags": []any{}, "mode": "=expr"}
	for _, c := range []struct {
		name string
		do   *displayOptions
		v    float64
		want bool
	}{
		{"no options", nil, 1, true},
		{"show matches", &displayOptions{Show: map[string][]any{"resource": {"draft", "message"}}}, 1, true},
		{"show misses", &displayOptions{Show: map[string][]any{"resource": {"draft"}}}, 1, false},
		{"absent parameter hides", &displayOptions{Show: map[string][]any{"operation": {"send"}}}, 1, false},
		{"empty list hides", &displayOptions{Show: map[string][]any{"tags": {gte(0)}}}, 1, false},
		{"expression shows", &displayOptions{Show: map[string][]any{"mode": {"list"}}}, 1, true},
		{"version condition", &displayOptions{Show: map[string][]any{"@version": {gte(2)}}}, 2.1, true},
		{"version condition misses", &displayOptions{Show: map[string][]any{"@version": {gte(2)}}}, 1, false},
		{"version list", &displayOptions{Show: map[string][]any{"@version": {1.0}}}, 1, true},
		{"hide matches", &displayOptions{Hide: map[string][]any{"@version": {1.0}}}, 1, false},
		{"hide misses", &displayOptions{Hide: map[string][]any{"@version": {1.0}}}, 2, true},
	} {
		if got := shown(c.do, c.v, params); got != c.want {
			t.Errorf("%s: shown = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestKind(t *testing.T) {
	for _, c := range []struct{ node, value, action, want string }{
		{"gmail", "send", "Send a message", kindSend},
		{"slack", "post", "Send a message", kindSend},
		{"googleDrive", "upload", "Upload a file", kindCreate},
		{"hubspot", "upsert", "Create or update a contact", kindUpdate},
		{"gmail", "addLabels", "Add label to message", kindUpdate},
		{"notion", "archive", "Archive a page", kindUpdate},
		{"gmail", "delete", "Delete a message", kindDelete},
		{"postgres", "executeQuery", "Execute a SQL query", kindExecute},
		{"gmail", "getAll", "Get many messages", ""},
		{"redis", "incr", "Atomically increment a key by 1. Creates the key if it does not exist.", kindCreate},
		{"sms77", "send", "Convert text to voice", kindSend},
		{"openAi", "complete", "Create a Completion", ""},
		{"bannerbear", "create", "Create an image", kindCreate},
		{"microsoftOutlook", "getAll", "", ""},
		{"n8n", "activate", "Publish a workflow", kindUpdate},
		{"awsSns", "publish", "Publish a message to a topic", kindSend},
	} {
		if got := kind(c.node, c.value, c.action, ""); got != c.want {
			t.Errorf("%s %s (%q): kind %q, want %q", c.node, c.value, c.action, got, c.want)
		}
	}
}

func TestCredentials(t *testing.T) {
	type cred = struct {
		Name           string          `json:"name"`
		Required       bool            `json:"required"`
		DisplayOptions *displayOptions `json:"displayOptions"`
	}
	auth := func(vals ...any) *displayOptions {
		return &displayOptions{Show: map[string][]any{"authentication": vals}}
	}
	for _, c := range []struct {
		name       string
		creds      []cred
		base       map[string]any
		want, auth string
	}{
		{"slack", []cred{{"slackApi", true, auth("accessToken")}, {"slackOAuth2Api", true, auth("oAuth2")}},
			map[string]any{"authentication": "accessToken"}, "slackApi:accessToken slackOAuth2Api:oAuth2", "accessToken"},
		{"several values", []cred{{"b", true, auth("x", "y")}, {"a", true, nil}},
			map[string]any{"authentication": "y"}, "a b:x,y", "y"},
		{"not required", []cred{{"a", false, auth("x")}}, map[string]any{"authentication": "x"}, "a?", ""},
		{"another key decides too", []cred{{"a", true, &displayOptions{Show: map[string][]any{"authentication": {"x"}, "resource": {"r"}}}}},
			map[string]any{"authentication": "x"}, "a?", ""},
		{"shown for another parameter", []cred{{"mySql", true, &displayOptions{Show: map[string][]any{"dataSource": {"mysql"}}}}, {"postgres", true, &displayOptions{Show: map[string][]any{"dataSource": {"postgres"}}}}},
			map[string]any{}, "mySql? postgres?", ""},
		{"shown unconditionally elsewhere", []cred{{"a", true, auth("x")}, {"a", true, nil}}, map[string]any{"authentication": "x"}, "a", ""},
		{"no credentials", nil, map[string]any{}, "", ""},
	} {
		d := description{Name: c.name, Credentials: c.creds}
		if got, a := d.credentials(c.base); got != c.want || a != c.auth {
			t.Errorf("%s: credentials %q auth %q, want %q %q", c.name, got, a, c.want, c.auth)
		}
	}
}

func TestOldDefaults(t *testing.T) {
	v := func(f float64) *float64 { return &f }
	descs := []description{
		{Name: "kafka", Version: []byte(`1`), DefaultVersion: v(1)},
		{Name: "kafka", Version: []byte(`2`), DefaultVersion: v(1)},
		{Name: "loop", Version: []byte(`3`)},
		{Name: "loop", Version: []byte(`2`)},
		{Name: "agent", Version: []byte(`[2, 2.1]`), DefaultVersion: v(2.1)},
		{Name: "agent", Version: []byte(`[1, 1.9]`), DefaultVersion: v(2.1)},
		{Name: "plain", Version: []byte(`[1, 1.1]`), DefaultVersion: v(1)},
	}
	got, err := oldDefaults(descs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"kafka": 1, "plain": 1}
	if !maps.Equal(got, want) {
		t.Errorf("oldDefaults = %v, want %v", got, want)
	}
}
