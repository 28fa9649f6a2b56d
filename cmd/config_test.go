package cmd

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/rules"
)

const fullConfig = `# every key of docs/design.md#configuration
max_attempts: 6
fail_on: warning
items: 50
fleet:
  workers: 2
  concurrency: 5
rules:
  enable: [all]
  disable: ["RS10*"]
  severity:
    RS101: error
    duplicate-node-name: note
instance:
  base_urls: ["https://n8n.example.com"]
spend:
  prices:
    gpt-4o: {input_per_m: 2.5, output_per_m: 10}
  caps:
    - {provider: openai, usd: 50, period: day}
dependencies:
  api.stripe.com: {max_in_flight: 25}
ignore:
  - rule: RS004
    path: "workflows/legacy/**"
    reason: idempotency handled by the gateway
    expires: 2027-01-31
  - workflow: Nightly
    node: Restart
    reason: "reviewed in #42"
`

func TestParseConfigFull(t *testing.T) {
	cfg, err := parseConfig([]byte(fullConfig), ".stormcheck.yaml", rules.All())
	if err != nil {
		t.Fatal(err)
	}
	if *cfg.MaxAttempts != 6 || cfg.FailOn != "warning" || *cfg.Items != 50 || *cfg.Fleet.Workers != 2 || *cfg.Fleet.Concurrency != 5 {
		t.Errorf("scalars: %d %q %d %d %d", *cfg.MaxAttempts, cfg.FailOn, *cfg.Items, *cfg.Fleet.Workers, *cfg.Fleet.Concurrency)
	}
	var opts analyze.Options
	cfg.options(&opts)
	want := analyze.Options{
		BaseURLs:    []string{"https://n8n.example.com"},
		Prices:      map[string]analyze.ModelPrice{"gpt-4o": {InputPerM: 2.5, OutputPerM: 10}},
		SpendCaps:   []analyze.SpendCap{{Provider: "openai", USD: 50, Period: "day"}},
		MaxInFlight: map[string]int{"api.stripe.com": 25},
	}
	if diff := cmp.Diff(want, opts); diff != "" {
		t.Errorf("options mismatch (-want +got):\n%s", diff)
	}
	cfg.Path = ".stormcheck.yaml"
	wantIgnores := []analyze.Ignore{
		{Rule: "RS004", Path: "workflows/legacy/**", Reason: "idempotency handled by the gateway",
			Expires: time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), File: ".stormcheck.yaml", Pos: n8nschema.Pos{Line: 24, Col: 5}},
		{Workflow: "Nightly", Node: "Restart", Reason: "reviewed in #42", File: ".stormcheck.yaml", Pos: n8nschema.Pos{Line: 28, Col: 5}},
	}
	if diff := cmp.Diff(wantIgnores, cfg.ignores()); diff != "" {
		t.Errorf("ignores mismatch (-want +got):\n%s", diff)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown top-level key", "max_attempts: 3\nmax_attempt: 4\n", `c.yaml:2: unknown key "max_attempt"; did you mean "max_attempts"?`},
		{"unknown nested key", "fleet:\n  workers: 2\n  worker: 3\n", `c.yaml:3: unknown key "worker"; did you mean "workers"?`},
		{"unknown ignore key", "ignore:\n  - rule: RS004\n    reason: x\n    because: y\n", `c.yaml:4: unknown key "because"`},
		{"unknown key far from any", "itmes: 3\nfrobnicate: 1\n", "c.yaml:1: unknown key \"itmes\"; did you mean \"items\"?\nc.yaml:2: unknown key \"frobnicate\""},
		{"wrong type", "items: many\n", `c.yaml:1: items: want a whole number, got "many"`},
		{"list for a number", "fleet:\n  workers: [1, 2]\n", `c.yaml:2: fleet.workers: want a whole number, got a list`},
		{"number for a list", "rules:\n  enable: 5\n", `c.yaml:2: rules.enable: want a list, got 5`},
		{"list for a section", "fleet: [1]\n", `c.yaml:1: fleet: want a mapping, got a list`},
		{"syntax", "items: 2\nfail_on: a: b\n", `c.yaml:2: mapping values are not allowed in this context`},
		{"fail_on", "\nfail_on: critical\n", `c.yaml:2: fail_on "critical": want error, warning, note or never`},
		{"max_attempts", "max_attempts: 0\n", `c.yaml:1: max_attempts 0: want a whole number from 1 to 1000000`},
		{"enable", "rules:\n  enable:\n    - RS1*\n    - RS999\n", `c.yaml:4: rules.enable: unknown rule "RS999" (want an ID like RS101, a name like attempt-budget, a glob like RS1*, or all); did you mean "RS009"?`},
		{"severity value", "rules:\n  severity:\n    RS101: fatal\n", `c.yaml:3: rules.severity.RS101 "fatal": want error, warning or note`},
		{"severity rule", "rules:\n  severity:\n    RS999: note\n", `c.yaml:3: rules.severity: unknown rule "RS999"`},
		{"no reason", "ignore:\n  - rule: RS004\n  - rule: RS003\n    reason: ''\n", `c.yaml:2: ignore[0]: reason is required: say why the finding is safe to ignore`},
		{"matches all", "ignore:\n  - reason: everything\n", `c.yaml:2: ignore[0]: set at least one of rule, path, workflow and node`},
		{"expires", "ignore:\n  - rule: RS004\n    reason: r\n    expires: next week\n", `c.yaml:4: ignore[0]: expires "next week": want a date like 2026-12-31`},
		{"cap period", "spend:\n  caps:\n    - {provider: openai, usd: 5, period: month}\n", `c.yaml:3: spend.caps[0]: period "month": want day or execution`},
		{"base url", "instance:\n  base_urls: [n8n.example.com]\n", `c.yaml:2: instance.base_urls: "n8n.example.com" is not an absolute URL`},
		{"in flight", "dependencies:\n  api.x.com: {max_in_flight: 0}\n", `c.yaml:2: dependencies.api.x.com.max_in_flight 0: want a whole number from 1 to 1000000`},
		// Numbers that wrap around or are not numbers.
		{"workers overflow", "fleet:\n  workers: 4294967296\n", `c.yaml:2: fleet.workers 4294967296: want a whole number from 1 to 1000000`},
		{"int64 overflow", "items: 99999999999999999999\n", `c.yaml:1: items: want a whole number, got 99999999999999999999`},
		{"in flight overflow", "dependencies:\n  api.x.com: {max_in_flight: 9223372036854775807}\n", `c.yaml:2: dependencies.api.x.com.max_in_flight 9223372036854775807: want a whole number from 1 to 1000000`},
		{"cap NaN", "spend:\n  caps:\n    - provider: openai\n      usd: .nan\n      period: day\n", `c.yaml:4: spend.caps[0]: usd NaN: want a number of dollars more than 0 and at most 1000000000`},
		{"cap Inf", "spend:\n  caps:\n    - {provider: openai, usd: .inf, period: day}\n", `c.yaml:3: spend.caps[0]: usd +Inf: want a number of dollars more than 0 and at most 1000000000`},
		{"price NaN", "spend:\n  prices:\n    gpt-4o:\n      input_per_m: 2.5\n      output_per_m: .NaN\n", `c.yaml:5: spend.prices.gpt-4o.output_per_m NaN: want a number of dollars from 0 to 1000000000`},
		{"price -Inf", "spend:\n  prices:\n    gpt-4o: {input_per_m: -.inf, output_per_m: 1}\n", `c.yaml:3: spend.prices.gpt-4o.input_per_m -Inf: want a number of dollars from 0 to 1000000000`},
		{"second document", "items: 2\n---\nitems: 1000\n", `c.yaml:2: a second YAML document; put every setting in one document`},
		{"second document, empty first", "---\n---\nfail_on: never\n", `c.yaml:2: a second YAML document; put every setting in one document`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseConfig([]byte(tt.src), "c.yaml", rules.All())
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q\nwant    %q", err, tt.want)
			}
		})
	}
}

// TestParseConfigTrailingSeparator: a "---" or "..." after the only
// document holds no setting, so nothing is ignored.
func TestParseConfigTrailingSeparator(t *testing.T) {
	for _, src := range []string{"items: 2\n---\n", "items: 2\n---\n# end\n", "items: 2\n...\n", "---\nitems: 2\n"} {
		cfg, err := parseConfig([]byte(src), "c.yaml", rules.All())
		if err != nil || cfg.Items == nil || *cfg.Items != 2 {
			t.Errorf("%q: %v; want items 2", src, err)
		}
	}
}

func TestParseConfigEmpty(t *testing.T) {
	for _, src := range []string{"", "# nothing yet\n"} {
		if _, err := parseConfig([]byte(src), "c.yaml", rules.All()); err != nil {
			t.Errorf("parseConfig(%q): %v", src, err)
		}
	}
}

func TestFindConfigUpward(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(root, "a", configName)
	if err := os.WriteFile(want, []byte("items: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := engine.NewNamer(root, "", "")
	got, err := n.FindConfig(deep, configNames...)
	if err != nil || got != want {
		t.Errorf("findConfig = %q, %v; want %q", got, err, want)
	}
	// The search stops at the repository root: a config above it belongs
	// to something else.
	if err := os.Mkdir(filepath.Join(root, "a", "b", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err = engine.NewNamer(root, "", "").FindConfig(deep, configNames...)
	if err != nil || got != "" {
		t.Errorf("findConfig from a repository root below the config = %q, %v; want none", got, err)
	}
}
