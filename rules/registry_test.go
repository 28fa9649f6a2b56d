package rules

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/analyze"
)

var (
	idRE   = regexp.MustCompile(`^RS\d{3}$`)
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// TestRegistry checks every rule's metadata (docs/style.md#rules), the way
// x/tools' analysis.Validate checks analyzers.
func TestRegistry(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("All() returns no rule")
	}
	ids, names := map[string]bool{}, map[string]bool{}
	prev := ""
	for i, r := range all {
		if r == nil {
			t.Errorf("All()[%d] is nil", i)
			continue
		}
		if !idRE.MatchString(r.ID) {
			t.Errorf("rule %q: ID does not match %s", r.ID, idRE)
		}
		if ids[r.ID] {
			t.Errorf("rule %s: ID registered twice", r.ID)
		}
		ids[r.ID] = true
		if r.ID <= prev {
			t.Errorf("rule %s comes after %s: All() must be sorted by ID", r.ID, prev)
		}
		prev = r.ID
		if !nameRE.MatchString(r.Name) {
			t.Errorf("rule %s: Name %q is not kebab-case", r.ID, r.Name)
		}
		if names[r.Name] {
			t.Errorf("rule %s: Name %q is used by another rule", r.ID, r.Name)
		}
		names[r.Name] = true
		switch n := utf8.RuneCountInString(r.Title); {
		case n == 0:
			t.Errorf("rule %s: empty Title", r.ID)
		case n > 60:
			t.Errorf("rule %s: Title has %d characters, want at most 60: %q", r.ID, n, r.Title)
		}
		if strings.HasSuffix(r.Title, ".") || strings.Contains(r.Title, "\n") {
			t.Errorf("rule %s: Title %q must be one line without a trailing period", r.ID, r.Title)
		}
		for field, v := range map[string]string{"Doc": r.Doc, "Fix": r.Fix, "FixDoc": r.FixDoc} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("rule %s: empty %s", r.ID, field)
			}
		}
		if first, _, _ := strings.Cut(r.Fix, " "); first == "" || !startsWithCapitalWord(first) {
			t.Errorf("rule %s: Fix %q must start with a capitalised verb", r.ID, r.Fix)
		}
		if (r.Run == nil) == (r.RunSet == nil) {
			t.Errorf("rule %s: want Run or RunSet, one of them", r.ID)
		}
		if r.Severity < analyze.Note || r.Severity > analyze.Error {
			t.Errorf("rule %s: Severity %d is not note, warning or error", r.ID, r.Severity)
		}
		if r.Confidence < analyze.Low || r.Confidence > analyze.High {
			t.Errorf("rule %s: Confidence %d is not low, medium or high", r.ID, r.Confidence)
		}
		if r.Scope != analyze.PerWorkflow && r.Scope != analyze.PerFile {
			t.Errorf("rule %s: unknown Scope %d", r.ID, r.Scope)
		}
		if want := strings.ToLower(r.ID); !strings.HasSuffix(r.HelpURI(), "#"+want) {
			t.Errorf("rule %s: HelpURI %q does not end in #%s", r.ID, r.HelpURI(), want)
		}
	}
}

// startsWithCapitalWord reports whether w is a word of letters that starts
// with an upper-case letter ("Rename", "Set"), as a verb in the imperative.
func startsWithCapitalWord(w string) bool {
	for i, r := range w {
		if i == 0 && !unicode.IsUpper(r) || !unicode.IsLetter(r) && r != '\'' && r != '-' {
			return false
		}
	}
	return true
}

// TestDocsCitePublicSources: what users read (docs, fixes) cites public n8n
// source paths, never the project's notes or line numbers that move with
// every n8n release.
func TestDocsCitePublicSources(t *testing.T) {
	private := regexp.MustCompile(`n8n-semantics|DESIGN\.md|STYLE\.md|\.ts:? ?L?\d|§`)
	rfc := regexp.MustCompile(`RFC \d+ §\d+`) // a public standard's section is fine
	for _, r := range All() {
		for _, text := range []string{r.Doc, r.Fix, r.FixDoc, r.Title} {
			if m := private.FindString(rfc.ReplaceAllString(text, "RFC")); m != "" {
				t.Errorf("%s cites %q, which users do not have: %s", r.ID, m, text)
			}
		}
	}
}
