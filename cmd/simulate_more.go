package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/simulate"
)

// noWorkflow is simulate's usage error when the inputs hold no workflow:
// it says why, with the findings audit would report on them (RS001
// invalid JSON, RS002 not a workflow), at most maxWhy of them.
func noWorkflow(files []*n8nschema.File, set *analyze.Set, rules []*analyze.Rule) error {
	const maxWhy = 5
	var input []*analyze.Rule
	for _, r := range rules {
		if r.ID == "RS001" || r.ID == "RS002" {
			input = append(input, r)
		}
	}
	fs := analyze.Run(set, input)
	msg := fmt.Sprintf("no workflow found in the inputs (%d %s read)", len(files), plural(len(files), "file", "files"))
	if len(fs) == 0 {
		return usageErrorf("%s", msg)
	}
	var b strings.Builder
	b.WriteString(msg + ":")
	for i := range fs {
		if i == maxWhy {
			fmt.Fprintf(&b, "\n  and %d more; stormcheck audit lists them all", len(fs)-maxWhy)
			break
		}
		f := &fs[i]
		at := report.Printable(f.File)
		if f.Pos.IsValid() {
			at += fmt.Sprintf(":%d:%d", f.Pos.Line, f.Pos.Col)
		}
		fmt.Fprintf(&b, "\n  %s: %s: %s [%s %s]", at, f.Severity, report.Printable(report.Redact(f.Message)), f.RuleID, f.RuleName)
	}
	return usageErrorf("%s", b.String())
}

// simulateSchema is where the simulate JSON document's schema is published.
const simulateSchema = "https://github.com/stormcheck/stormcheck/blob/main/docs/simulate.schema.json"

// simulateJSON writes simulate.JSON's document with its version and the
// schema it follows first: version 1 is the document docs/simulate.md
// describes; a change that breaks a reader gets a new number.
func simulateJSON(w io.Writer, runs []simulate.Labelled) error {
	var b bytes.Buffer
	if err := simulate.JSON(&b, runs); err != nil {
		return err
	}
	rest, ok := bytes.CutPrefix(b.Bytes(), []byte("{\n"))
	if !ok {
		return errors.New("simulate: the JSON document is not an object")
	}
	if _, err := fmt.Fprintf(w, "{\n  \"version\": 1,\n  \"schema\": %q,\n", simulateSchema); err != nil {
		return err
	}
	_, err := w.Write(rest)
	return err
}
