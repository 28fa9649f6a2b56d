package ruledoc

import (
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

var rule = &analyze.Rule{
	ID: "RS999", Name: "demo-rule", Title: "a demo title", Severity: analyze.Warning, Confidence: analyze.High,
	Doc: "Why it matters.", Fix: "Do the fix", FixDoc: "None: a demo.", Tags: []string{"demo"},
	ReadExamples: func() analyze.Examples {
		return analyze.Examples{
			Bad: "{\"bad\": true}\n", Good: "{\"bad\": false}\n", Output: "RS999.bad.json:1:1: fires\n",
			Config: "items: 5\n",
		}
	},
}

// Markdown (docs/rules.md, SARIF help) and Text (explain) say the same
// things in the same order.
func TestMarkdownAndTextAgree(t *testing.T) {
	md, txt := Markdown(rule), Text(rule)
	wantMD := []string{
		"**`demo-rule`**: a demo title", "| Fix safety | none |", "### Why", "Why it matters.",
		"### Example that fires", "With this `.stormcheck.yaml` beside it:", "```yaml\nitems: 5\n```",
		"`RS999.bad.json`:", "```json\n{\"bad\": true}\n```",
		"### Output", "`stormcheck audit --enable RS999 RS999.bad.json` prints:", "```\nRS999.bad.json:1:1: fires\n```",
		"### Fixed", "`RS999.good.json`, on which RS999 is silent:", "```json\n{\"bad\": false}\n```",
		"### Fix", "Do the fix", "### Fix safety (`audit --fix`)", "None: a demo.",
	}
	wantText := []string{
		"RS999 demo-rule: a demo title\nseverity: warning, confidence: high, fix safety: none, tags: demo\n", "Why:", "Why it matters.",
		"Example that fires:", "With this .stormcheck.yaml beside it:", "    items: 5\n",
		"RS999.bad.json:", "    {\"bad\": true}\n",
		"Output:", "stormcheck audit --enable RS999 RS999.bad.json prints:", "    RS999.bad.json:1:1: fires\n",
		"Fixed:", "RS999.good.json, on which RS999 is silent:", "    {\"bad\": false}\n",
		"Fix:", "Do the fix", "Fix safety (audit --fix):", "None: a demo.", "Help: " + rule.HelpURI(),
	}
	inOrder(t, "Markdown", md, wantMD)
	inOrder(t, "Text", txt, wantText)
}

func TestFenceOutgrowsBackticks(t *testing.T) {
	if got, want := fence("a ``` b", ""), "````\na ``` b\n````\n"; got != want {
		t.Errorf("fence = %q, want %q", got, want)
	}
}

func inOrder(t *testing.T, name, s string, parts []string) {
	t.Helper()
	at := 0
	for _, p := range parts {
		i := strings.Index(s[at:], p)
		if i < 0 {
			t.Errorf("%s lacks %q after byte %d:\n%s", name, p, at, s)
			return
		}
		at += i + len(p)
	}
}
