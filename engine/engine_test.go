package engine

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

func seed(t *testing.T) []Source {
	t.Helper()
	var out []Source
	for _, n := range []string{"catalog-enrichment.json", "error-summary.json"} {
		b, err := os.ReadFile("../testdata/examples/" + n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Source{Name: n, Src: b})
	}
	return out
}

// TestParseRefusesWhatTheCommandLineRefuses: a source over the limit, or
// one that could not be read, is an RS001 problem, not parsed.
func TestParseRefusesWhatTheCommandLineRefuses(t *testing.T) {
	files := Parse(InputsOf([]Source{
		{Name: "big.json", Src: []byte(`{"nodes":[],"connections":{}}`)},
		{Name: "gone.json", Err: errors.New("permission denied")},
		{Name: "ok.json", Src: []byte(`{"name":"ok","nodes":[],"connections":{}}`)},
	}), Reading{Limit: 20})
	want := []string{"not read: larger than --max-file-size (20 bytes)", "not read: permission denied"}
	for i, w := range want {
		f := files[i]
		if len(f.Problems) != 1 || f.Problems[0].Kind != n8nschema.Unreadable || f.Problems[0].Message != w || !f.Explicit {
			t.Errorf("%s: problems %+v, want one saying %q", f.Source.Name, f.Problems, w)
		}
	}
	files = Parse(InputsOf([]Source{{Name: "ok.json", Src: []byte(`{"name":"ok","nodes":[],"connections":{}}`)}}), Reading{Limit: DefaultMaxFileSize})
	if len(files[0].Workflows) != 1 || len(files[0].Problems) != 0 || !files[0].Explicit {
		t.Errorf("ok.json: %d workflows, problems %+v", len(files[0].Workflows), files[0].Problems)
	}
}

func TestResolveNamesTheBadOption(t *testing.T) {
	for _, c := range []struct {
		option string
		change func(*Options)
	}{
		{"rules", func(o *Options) { o.Enable = []string{"RS999"} }},
		{"severity", func(o *Options) { o.Severities = map[string]analyze.Severity{"no-such-rule": analyze.Error} }},
		{"n8n_version", func(o *Options) { o.N8nVersion = "2.8.4\n::error::x" }},
	} {
		o := DefaultOptions()
		c.change(&o)
		var oe *OptionError
		if _, err := Resolve(o); !errors.As(err, &oe) || oe.Option != c.option {
			t.Errorf("%s: got %v", c.option, err)
		}
	}
	o := DefaultOptions()
	for _, v := range []string{"", n8nschema.N8nVersion} {
		o.N8nVersion = v
		if st, err := Resolve(o); err != nil || st.VersionNote() != "" {
			t.Errorf("n8n %q: %v, note %q", v, err, st.VersionNote())
		}
	}
	o.N8nVersion = "1.90"
	if st, err := Resolve(o); err != nil || !strings.Contains(st.VersionNote(), "n8n 1.90") {
		t.Errorf("n8n 1.90: %v, want a note naming it", err)
	}
}

// TestResultHidesBelowMinSeverity: the findings below MinSeverity leave
// the result but stay counted, and their repairs count as fixable, since
// --fix repairs them too.
func TestResultHidesBelowMinSeverity(t *testing.T) {
	o := DefaultOptions()
	all, err := Resolve(o)
	if err != nil {
		t.Fatal(err)
	}
	every := all.Audit(InputsOf(seed(t)), Reading{Limit: DefaultMaxFileSize})
	o.MinSeverity = analyze.Error
	errs, err := Resolve(o)
	if err != nil {
		t.Fatal(err)
	}
	res := errs.Audit(InputsOf(seed(t)), Reading{Limit: DefaultMaxFileSize})
	s := res.Summary
	if s.Findings != every.Summary.Errors || s.BelowSeverity != every.Summary.Findings-every.Summary.Errors || s.Errors != s.Findings {
		t.Errorf("summary %+v, all %+v", s, every.Summary)
	}
	// What --min-severity hides is neither counted as fixable nor repaired.
	var shown report.Summary
	shown.Count(res.Findings)
	if s.Fixable != shown.Fixable || s.FixableUnsafe != shown.FixableUnsafe || every.Summary.Fixable+every.Summary.FixableUnsafe == 0 {
		t.Errorf("fixable %d/%d, want the shown findings' %d/%d (the whole set has %d/%d)", s.Fixable, s.FixableUnsafe, shown.Fixable, shown.FixableUnsafe, every.Summary.Fixable, every.Summary.FixableUnsafe)
	}
	for _, f := range res.Findings {
		if f.Severity != analyze.Error {
			t.Errorf("a %s finding shown at min severity error: %s", f.Severity, f.RuleID)
		}
	}
}
