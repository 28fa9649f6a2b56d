package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

// GitHub renders GitHub Actions workflow commands: one annotation per
// finding (`::error file=…,line=…,col=…,title=…::message`), at most
// githubLimit per level because GitHub shows no more than that per step;
// the rest are summarised on one plain line.
type GitHub struct{}

// githubLimit is GitHub's cap on annotations per level and step.
const githubLimit = 10

// Render writes the annotations.
func (GitHub) Render(w io.Writer, r *Result) error {
	var b strings.Builder
	shown := map[analyze.Severity]int{}
	hidden := map[analyze.Severity]int{}
	for i := range r.Findings {
		f := &r.Findings[i]
		if shown[f.Severity] == githubLimit {
			hidden[f.Severity]++
			continue
		}
		shown[f.Severity]++
		b.WriteString(githubAnnotation(f))
	}
	if n := hidden[analyze.Error] + hidden[analyze.Warning] + hidden[analyze.Note]; n > 0 {
		var parts []string
		for _, s := range []analyze.Severity{analyze.Error, analyze.Warning, analyze.Note} {
			if hidden[s] > 0 {
				parts = append(parts, count(hidden[s], s.String()))
			}
		}
		fmt.Fprintf(&b, "stormcheck: %s not annotated (%s): GitHub shows %d annotations of each level per step; see the code scanning alerts or the step summary\n",
			count(n, "more finding"), strings.Join(parts, ", "), githubLimit)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func githubAnnotation(f *analyze.Finding) string {
	cmd := "notice"
	switch f.Severity {
	case analyze.Error:
		cmd = "error"
	case analyze.Warning:
		cmd = "warning"
	}
	var props []string
	if uri := artifactURI(f.File); uri != "" && f.File != "<stdin>" && !strings.Contains(uri, "://") {
		props = append(props, "file="+githubProperty(Printable(f.File)))
		if f.Pos.IsValid() {
			props = append(props, fmt.Sprintf("line=%d", f.Pos.Line), fmt.Sprintf("col=%d", f.Pos.Col))
		}
	}
	props = append(props, "title="+githubProperty(f.RuleID+" "+f.RuleName))
	// Each part is made printable before the parts are joined by the
	// newlines the runner shows: a name cannot add a line of its own.
	msg := printableLines(Redact(f.Message))
	if f.File != "" && !strings.HasPrefix(props[0], "file=") {
		msg = Printable(f.File) + ": " + msg
	}
	if len(f.Chain) > 0 {
		msg += "\nchain: " + Printable(Chain(f.Chain))
	}
	if f.Fix != "" {
		msg += "\nfix: " + printableLines(Redact(f.Fix))
	}
	msg += "\nhelp: " + f.URL
	return "::" + cmd + " " + strings.Join(props, ",") + "::" + githubData(msg) + "\n"
}

// printableLines is Printable line by line: a message of ours may span
// lines, which githubData keeps inside the one annotation.
func printableLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Printable(l)
	}
	return strings.Join(lines, "\n")
}

// githubData escapes a command's message the way the Actions runner
// unescapes it (toolkit/packages/core/src/command.ts escapeData).
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a property value (escapeProperty): also : and ,.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
