package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/rules"
)

func TestRulesMarkdownDeterministic(t *testing.T) {
	a := RulesMarkdown(rules.All())
	b := RulesMarkdown(rules.All())
	if a != b {
		t.Fatal("two runs of the generator differ")
	}
	for _, r := range rules.All() {
		sec := "\n## " + r.ID + "\n"
		i := strings.Index(a, sec)
		if i < 0 {
			t.Errorf("%s has no section", r.ID)
			continue
		}
		body := a[i+len(sec):]
		if j := strings.Index(body, "\n## "); j >= 0 {
			body = body[:j]
		}
		for _, want := range []string{"| Default severity | " + r.Severity.String() + " |", "### Why", "### Example that fires", "### Fixed", "### Fix"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s section lacks %q", r.ID, want)
			}
		}
	}
}

func TestRulesFormats(t *testing.T) {
	code, out, _ := runWith(t, nil, "rules")
	if code != ExitOK || !strings.HasPrefix(out, "ID") || !strings.Contains(out, "RS201") {
		t.Errorf("rules (text): exit %d, output %q", code, out)
	}
	code, out, _ = runWith(t, nil, "rules", "--format", "json")
	var doc struct {
		Version int
		Rules   []struct {
			ID, Name, Bad, Good, Fix string
			HelpURI                  string `json:"help_uri"`
		}
	}
	if code != ExitOK {
		t.Fatalf("rules --format json: exit %d", code)
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 || len(doc.Rules) != len(rules.All()) {
		t.Errorf("json: version %d, %d rules; want 1, %d", doc.Version, len(doc.Rules), len(rules.All()))
	}
	if code, _, errOut := runWith(t, nil, "rules", "--format", "yaml"); code != ExitUsage || !strings.Contains(errOut, `--format "yaml"`) {
		t.Errorf("rules --format yaml: exit %d, stderr %q; want %d", code, errOut, ExitUsage)
	}
}

func TestExplain(t *testing.T) {
	for _, key := range []string{"RS201", "rs201", "retried-write-without-idempotency"} {
		code, out, errOut := runWith(t, nil, "explain", key)
		if code != ExitOK {
			t.Fatalf("explain %s: exit %d: %s", key, code, errOut)
		}
		for _, want := range []string{
			"RS201 retried-write-without-idempotency: a retried write carries no idempotency key\n",
			"severity: error, confidence: high",
			"\nExample that fires:\n\nRS201.bad.json:\n\n    {\n      \"name\": \"Invoice orders\",\n",
			"\nOutput:\n\nstormcheck audit --enable RS201 RS201.bad.json prints:\n\n    RS201.bad.json:20:7: ",
			"error: node \"Create invoice\" sends POST up to 3 times",
			"\nFixed:\n\nRS201.good.json, on which RS201 is silent:\n\n",
			"Idempotency-Key",
			"\nFix:\n\nSend an idempotency key",
			"Help: https://github.com/stormcheck/stormcheck/blob/main/docs/rules.md#rs201",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("explain %s lacks %q:\n%s", key, want, out)
			}
		}
		if strings.Contains(out, "\x1b[") {
			t.Errorf("explain %s printed escape sequences", key)
		}
	}
	if code, _, errOut := runWith(t, nil, "explain", "RS999"); code != ExitUsage || !strings.Contains(errOut, `no rule "RS999"`) {
		t.Errorf("explain RS999: exit %d, stderr %q; want exit %d", code, errOut, ExitUsage)
	}
	if code, _, _ := runWith(t, nil, "explain"); code != ExitUsage {
		t.Errorf("explain without a rule: exit %d, want %d", code, ExitUsage)
	}
}
