// Command newrule scaffolds a rule, like staticcheck's add-check: the rule
// file, its documentation examples, its first two fixtures and its line in
// the registry. Nothing else changes, so a rule added this way touches only
// its own files and rules/registry.go (docs/rules.md is regenerated from
// them). CONTRIBUTING.md walks through what to fill in.
//
//	go run ./scripts/newrule RS507 shared-quota-exhausted
//
// The new rule reports nothing yet, so `go test ./rules` fails until it
// does what its examples say: that is the first thing to fix.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/newrule RSNNN kebab-case-name")
		os.Exit(2)
	}
	files, err := run(".", os.Args[1], os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "newrule:", err)
		os.Exit(1)
	}
	for _, f := range files {
		fmt.Println(f)
	}
}

var (
	idRE   = regexp.MustCompile(`^RS\d{3}$`)
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// entryRE finds the registry's entries: "\t\trs101,".
	entryRE = regexp.MustCompile(`(?m)^\t\trs(\d{3}),\n`)
)

// run writes the rule RSNNN named name into the repository at root and
// returns the paths it wrote or changed, relative to root.
func run(root, id, name string) ([]string, error) {
	if !idRE.MatchString(id) {
		return nil, fmt.Errorf("%q is no rule ID: want RS and 3 digits, the first the category (RS0xx input, RS1xx attempts, RS2xx writes, RS3xx spend, RS4xx silent failure, RS5xx load)", id)
	}
	if !nameRE.MatchString(name) {
		return nil, fmt.Errorf("%q is no rule name: want kebab-case, e.g. shared-quota-exhausted", name)
	}
	lower := strings.ToLower(id)
	regPath := filepath.Join(root, "rules", "registry.go")
	reg, err := os.ReadFile(regPath)
	if err != nil {
		return nil, err
	}
	newReg, err := register(reg, lower)
	if err != nil {
		return nil, err
	}
	if err := nameFree(root, name); err != nil {
		return nil, err
	}
	files := []struct {
		path, tmpl string
		bad        bool
	}{
		{filepath.Join("rules", lower+"_"+strings.ReplaceAll(name, "-", "_")+".go"), ruleTmpl, false},
		{filepath.Join("rules", "examples", id+".bad.json"), exampleTmpl, true},
		{filepath.Join("rules", "examples", id+".good.json"), exampleTmpl, false},
		{filepath.Join("rules", "testdata", id, "fires_like_the_example.json"), exampleTmpl, true},
		{filepath.Join("rules", "testdata", id, "silent_like_the_example.json"), exampleTmpl, false},
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(root, f.path)); err == nil {
			return nil, fmt.Errorf("%s exists already", f.path)
		}
	}
	var wrote []string
	for _, f := range files {
		p := filepath.Join(root, f.path)
		var b bytes.Buffer
		data := struct {
			ID, Lower, Name string
			Bad             bool
		}{id, lower, name, f.bad}
		if err := template.Must(template.New(f.path).Parse(f.tmpl)).Execute(&b, data); err != nil {
			return wrote, err
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return wrote, err
		}
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			return wrote, err
		}
		wrote = append(wrote, f.path)
	}
	if err := os.WriteFile(regPath, newReg, 0o644); err != nil {
		return wrote, err
	}
	return append(wrote, filepath.Join("rules", "registry.go")), nil
}

// nameFree fails when a rule file already declares the name.
func nameFree(root, name string) error {
	paths, err := filepath.Glob(filepath.Join(root, "rules", "rs*.go"))
	if err != nil {
		return err
	}
	re := regexp.MustCompile(`(?m)^\tName:\s+"` + regexp.QuoteMeta(name) + `",$`)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if re.Match(b) {
			return fmt.Errorf("%s names its rule %s already", filepath.Base(p), name)
		}
	}
	return nil
}

// register adds "\t\trsNNN,\n" to the registry's list, in ID order.
func register(reg []byte, lower string) ([]byte, error) {
	entries := entryRE.FindAllSubmatchIndex(reg, -1)
	if len(entries) == 0 {
		return nil, errors.New("rules/registry.go: no entry like \"\\t\\trs101,\" found")
	}
	at := -1 // before the first entry with a higher ID, else after the last
	for _, e := range entries {
		switch num := string(reg[e[2]:e[3]]); {
		case num == lower[2:]:
			return nil, fmt.Errorf("rules/registry.go registers %s already", strings.ToUpper(lower))
		case num > lower[2:] && at < 0:
			at = e[0]
		}
	}
	if at < 0 {
		at = entries[len(entries)-1][1]
	}
	line := "\t\t" + lower + ",\n"
	return append(append(append([]byte{}, reg[:at]...), line...), reg[at:]...), nil
}

const ruleTmpl = `package rules

import "github.com/stormcheck/stormcheck/analyze"

// {{.Lower}}: replace every placeholder below; CONTRIBUTING.md says what
// each field is for and how the tests check it.
var {{.Lower}} = &analyze.Rule{
	ID:    "{{.ID}}",
	Name:  "{{.Name}}",
	Title: "placeholder: what is wrong, at most 60 characters",
	Doc: ` + "`" + `Placeholder: why it matters. Say what n8n does (with the installed file it was read from, as
docs/n8n-facts.md does), what it costs when it goes wrong, and what the rule leaves out on purpose.` + "`" + `,
	Fix:        "Replace this with what to do, starting with a verb",
	FixDoc:     "None: placeholder, say why there is no repair, or add one in package fix",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"placeholder"},
	Run: func(pass *analyze.Pass) {
		// Read the model and the analysis (liveOps(pass), pass.Set.Graph,
		// the helpers in operations.go, loops.go, paths.go, endpoints.go)
		// and report with pass.Report(analyze.Diagnostic{Node: …, Pos: …,
		// Message: …, Chain: op.Factors}).
	},
}
`

// exampleTmpl is a workflow with one HTTP call: with .Bad, the call's
// notes say the rule must fire there.
const exampleTmpl = `{
  "name": "{{.ID}} example",
  "nodes": [
    {
      "parameters": {},
      "name": "Start",
      "type": "n8n-nodes-base.manualTrigger",
      "typeVersion": 1,
      "position": [200, 300]
    },
    {
      "parameters": {"url": "https://api.example.com/items", "options": {}},
      "name": "Call API",
      "type": "n8n-nodes-base.httpRequest",
      "typeVersion": 4.2,
      "position": [400, 300]{{if .Bad}},
      "notes": "want {{.ID}}: placeholder, say what goes wrong here"{{end}}
    }
  ],
  "connections": {"Start": {"main": [[{"node": "Call API", "type": "main", "index": 0}]]}},
  "settings": {"executionOrder": "v1"}
}
`
