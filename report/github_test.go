package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestGitHubEscaping(t *testing.T) {
	if got, want := githubData("100% done\r\nnext: a, b"), "100%25 done%0D%0Anext: a, b"; got != want {
		t.Errorf("githubData = %q, want %q", got, want)
	}
	if got, want := githubProperty("dir,x/a:b%.json\n"), "dir%2Cx/a%3Ab%25.json%0A"; got != want {
		t.Errorf("githubProperty = %q, want %q", got, want)
	}
	f := analyze.Finding{
		RuleID: "RS101", RuleName: "attempt-budget", Severity: analyze.Warning, File: "flows/a,b.json",
		Pos: n8nschema.Pos{Line: 3, Col: 7}, Message: "50% over: 15 attempts\nsecond line", URL: "https://x/#rs101",
	}
	want := "::warning file=flows/a%2Cb.json,line=3,col=7,title=RS101 attempt-budget::50%25 over: 15 attempts%0Asecond line%0Ahelp: https://x/#rs101\n"
	if got := githubAnnotation(&f); got != want {
		t.Errorf("annotation:\n got %q\nwant %q", got, want)
	}
	f.File, f.Pos = "<stdin>", n8nschema.Pos{}
	want = "::warning title=RS101 attempt-budget::<stdin>: 50%25 over: 15 attempts%0Asecond line%0Ahelp: https://x/#rs101\n"
	if got := githubAnnotation(&f); got != want {
		t.Errorf("annotation without a file:\n got %q\nwant %q", got, want)
	}
}

func TestGitHubLimit(t *testing.T) {
	var fs []analyze.Finding
	add := func(n int, sev analyze.Severity) {
		for i := range n {
			fs = append(fs, analyze.Finding{RuleID: "RS101", RuleName: "attempt-budget", Severity: sev,
				File: "a.json", Pos: n8nschema.Pos{Line: len(fs) + 1, Col: 1}, Message: fmt.Sprintf("%s %d", sev, i)})
		}
	}
	add(12, analyze.Error)
	add(11, analyze.Warning)
	add(2, analyze.Note)
	out := string(render(t, "github", Options{}, &Result{Findings: fs}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	count := map[string]int{}
	for _, l := range lines[:len(lines)-1] {
		count[strings.SplitN(l, " ", 2)[0]]++
	}
	if diff := cmp.Diff(map[string]int{"::error": 10, "::warning": 10, "::notice": 2}, count); diff != "" {
		t.Errorf("annotations per level (-want +got):\n%s", diff)
	}
	want := "stormcheck: 3 more findings not annotated (2 errors, 1 warning): GitHub shows 10 annotations of each level per step; see the code scanning alerts or the step summary"
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("summary line:\n got %q\nwant %q", got, want)
	}
	// Within a level, the first findings in report order are the ones shown.
	if !strings.Contains(lines[0], "::error ") || !strings.Contains(lines[0], "::error 0%0A") ||
		!strings.Contains(out, "::error 9%0A") || strings.Contains(out, "::error 10%0A") {
		t.Errorf("wrong errors annotated:\n%s", out)
	}
}

func TestGitHubUnderLimitHasNoSummary(t *testing.T) {
	res := fixture(t)
	out := string(render(t, "github", Options{}, res))
	if strings.Contains(out, "not annotated") {
		t.Errorf("summary line with only %d findings:\n%s", len(res.Findings), out)
	}
}

func TestMarkdownCapsRows(t *testing.T) {
	var fs []analyze.Finding
	for i := range markdownRows + 5 {
		fs = append(fs, analyze.Finding{RuleID: "RS101", RuleName: "attempt-budget", Severity: analyze.Warning,
			File: "a.json", Pos: n8nschema.Pos{Line: i + 1, Col: 1}, Message: "m|" + fmt.Sprint(i)})
	}
	out := string(render(t, "markdown", Options{}, &Result{Findings: fs, Summary: Summary{Findings: len(fs)}}))
	if n := strings.Count(out, "\n| warning |"); n != markdownRows {
		t.Errorf("%d table rows, want %d", n, markdownRows)
	}
	if !strings.Contains(out, "…and 5 more findings;") || !strings.Contains(out, `m\|0`) {
		t.Errorf("no overflow line or unescaped pipe:\n%s", out)
	}
}
