package cmd

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stormcheck/stormcheck/internal/schematest"
	"github.com/stormcheck/stormcheck/report"
)

// plantedSecret replaces every "@SECRET@" in a fuzzed input: a token of a
// well-known form (a Stripe live key) that no report may show, wherever
// the mutations moved it (a header value, a URL, a code string, a key).
const plantedSecret = "sk_live_Zq8fP2xKv7LmN4rT9wYbC3hJ"

// fuzzSeeds are small workflows with the secret marker in the places
// credentials live; the testdata workflows join them as seeds.
var fuzzSeeds = []string{
	strings.NewReplacer("Sk9Xq2Lm4Np7Rt1Vw3", "@SECRET@", "k3y-Zq9Wx8Vy7Ut6", "@SECRET@").Replace(secretWorkflow),
	strings.NewReplacer("Hunter2Hunter2", "@SECRET@", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIzNA", "@SECRET@").Replace(secretPretty),
	`{"name":"w","nodes":[{"name":"Code","type":"n8n-nodes-base.code","parameters":{"jsCode":"const key = '@SECRET@';\nreturn [];"}}],"connections":{}}`,
	`[{"name":"a","nodes":[],"connections":{}},{"name":"b","nodes":[{"name":"X","type":"n8n-nodes-base.httpRequest","retryOnFail":true,"parameters":{"url":"https://h.example/?token=@SECRET@"}}],"connections":{}}]`,
	`{"data":[{"id":"1","nodes":[{"name":"A","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","parameters":{"options":{"apiKey":"@SECRET@"}}}],"connections":{}}],"nextCursor":null}`,
}

// FuzzAudit runs the whole audit (parse, analysis, every rule, every
// renderer) on one input from stdin: it must never fail internally (Run
// turns a panic into exit 3), the JSON and SARIF reports must be valid
// (SARIF against the official schema when ../shared is beside the
// repository), and no report may show the planted secret.
func FuzzAudit(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, dir := range []string{"testdata", "../testdata", "../rules/testdata", "../report/testdata/workflows"} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
				if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
					f.Add(b)
				}
			}
			return nil
		})
	}
	sarifSchema := fuzzSARIFSchema(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		src = bytes.ReplaceAll(src, []byte("@SECRET@"), []byte(plantedSecret))
		dir := t.TempDir()
		args := []string{"audit", "--fail-on", "never", "--color", "always", "--format", "text"}
		for _, format := range report.Formats {
			if format != "text" {
				args = append(args, "--format", format+"="+filepath.Join(dir, "report."+format))
			}
		}
		var out, errb bytes.Buffer
		code := Run(append(args, "-"), &IO{
			In: bytes.NewReader(src), Out: &out, Err: &errb,
			Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil },
		})
		if code != ExitOK && !(code == ExitUsage && strings.HasPrefix(errb.String(), "stormcheck: no workflow found")) {
			t.Fatalf("exit %d:\n%s", code, errb.String())
		}
		outputs := map[string][]byte{"text": out.Bytes(), "stderr": errb.Bytes()}
		for _, format := range report.Formats {
			if format != "text" {
				b, err := os.ReadFile(filepath.Join(dir, "report."+format))
				if err != nil {
					t.Fatal(err)
				}
				outputs[format] = b
			}
		}
		for _, format := range []string{"json", "sarif"} {
			if !json.Valid(outputs[format]) {
				t.Fatalf("%s report is not valid JSON:\n%s", format, outputs[format])
			}
		}
		if sarifSchema != nil {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(outputs["sarif"]))
			if err != nil {
				t.Fatal(err)
			}
			if err := sarifSchema.Validate(doc); err != nil {
				t.Fatalf("SARIF does not validate: %v", err)
			}
		}
		for name, b := range outputs {
			if bytes.Contains(b, []byte(plantedSecret)) {
				t.Fatalf("the %s output shows the planted secret:\n%s", name, b)
			}
		}
	})
}

// fuzzSARIFSchema compiles the SARIF 2.1.0 schema from ../shared, or
// returns nil when it is absent outside CI (the JSON is still checked).
func fuzzSARIFSchema(f *testing.F) *jsonschema.Schema {
	p := filepath.Join("..", "..", "shared", "reference", "sarif-schema-2.1.0.json")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			f.Fatalf("%s: %v", p, err)
		}
		return nil
	}
	return schematest.Compile(f, p, false)
}
