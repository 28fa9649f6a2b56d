package rules

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// auditFolder audits every *.json file of a testdata folder as one
// analysis set, as `stormcheck audit FOLDER` does.
func auditFolder(t *testing.T, dir string) []analyze.Finding {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in testdata/%s: %v", dir, err)
	}
	sort.Strings(paths)
	var files []*n8nschema.File
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := n8nschema.Parse(n8nschema.NewSource(filepath.Base(p), src))
		f.Explicit = true
		files = append(files, f)
	}
	return analyze.Run(analyze.Build(files, analyze.DefaultOptions()), All())
}

// myFamilies are the rule categories of what retries break (RS2xx–RS5xx).
func myFamilies(id string) bool { return id >= "RS200" && id < "RS600" }

// TestSeedIncident is docs/design.md#the-attempt-model's seed: the nightly catalog enrichment
// (OpenAI with 5 node tries, an error output that POSTs to the workflow's
// own webhook, a progress post on the success path, no executionTimeout)
// and its error workflow, which asks OpenAI to summarise each failure. Its
// "Save description" PATCHes fields of one product by sku: a repeat sets
// the same fields, so RS201 is silent there.
func TestSeedIncident(t *testing.T) {
	fs := auditFolder(t, "seed")
	got := map[string]bool{}
	msgs := map[string]string{}
	for _, f := range fs {
		if f.RuleID == "RS302" && f.Node == "OpenAI" {
			// Its loop is RS301's error; the missing cap itself is a note.
			msgs["RS302 OpenAI"] = f.Severity.String() + ": " + f.Message
		}
		if f.Severity < analyze.Warning {
			continue
		}
		if myFamilies(f.RuleID) || f.RuleID == "RS102" {
			k := f.RuleID + " " + f.Node
			got[k] = true
			msgs[k] = f.Message
		}
	}
	want := map[string]bool{
		"RS102 Restart from last batch":     true,
		"RS301 OpenAI":                      true,
		"RS304 Summarise failure":           true,
		"RS401 Post progress: batch N of M": true,
		"RS504 OpenAI":                      true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("seed findings at warning and above (-want +got):\n%s", diff)
	}
	// The figures each message must carry.
	figures := map[string][]string{
		"RS301 OpenAI":                      {"gpt-4o", "re-starts itself", `"Restart from last batch"`, "5 attempts per trip", "one restart per failed item", "16384 output tokens ($0.164)", "no spend cap"},
		"RS302 OpenAI":                      {"note: ", "gpt-4o", "16384 output tokens", "its attempts have no bound", "the loop that repeats it is a finding of its own"},
		"RS304 Summarise failure":           {"gpt-4o", "error workflow", `"Nightly catalog enrichment"`, "$0.164 per failure"},
		"RS401 Post progress: batch N of M": {`"progress"`, `"Save description"`},
		"RS504 OpenAI":                      {"no executionTimeout", "re-starts itself", "new execution"},
	}
	for k, subs := range figures {
		for _, s := range subs {
			if !strings.Contains(msgs[k], s) {
				t.Errorf("%s: message %q lacks %q", k, msgs[k], s)
			}
		}
	}
}

// TestCarefulCounterpart is the seed done right (one retry owner, a stable
// idempotency key, a page limit, executionTimeout, a dead-man's-switch
// ping, a plain error workflow): nothing at warning or above.
func TestCarefulCounterpart(t *testing.T) {
	var loud []string
	for _, f := range auditFolder(t, "careful") {
		if f.Severity >= analyze.Warning {
			loud = append(loud, f.RuleID+" "+f.Node+": "+f.Message)
		}
	}
	if len(loud) > 0 {
		t.Errorf("careful workflows got findings at warning or above:\n%s", strings.Join(loud, "\n"))
	}
}
