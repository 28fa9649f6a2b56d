package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func filterRules() []*Rule {
	mk := func(id, name string, sev Severity) *Rule {
		return &Rule{ID: id, Name: name, Title: name, Severity: sev, Confidence: High, Run: func(*Pass) {}}
	}
	return []*Rule{
		mk("RS006", "unused-ignore", Note),
		mk("RS101", "attempt-budget", Warning),
		mk("RS102", "self-trigger-loop", Error),
		mk("RS201", "retried-write-without-idempotency", Error),
		mk("RS402", "silent-failure", Warning),
	}
}

func ids(rs []*Rule) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestSelectRules(t *testing.T) {
	all := filterRules()
	tests := []struct {
		enable, disable []string
		want            []string
		err             string
	}{
		{want: []string{"RS006", "RS101", "RS102", "RS201", "RS402"}},
		{enable: []string{"RS1*"}, want: []string{"RS101", "RS102"}},
		{enable: []string{"all", "-RS102"}, want: []string{"RS006", "RS101", "RS201", "RS402"}},
		{enable: []string{"RS1*", "-self-trigger-loop", "RS201"}, want: []string{"RS101", "RS201"}},
		{disable: []string{"RS1*", "silent-failure"}, want: []string{"RS006", "RS201"}},
		{disable: []string{"-RS006"}, want: []string{"RS101", "RS102", "RS201", "RS402"}},
		{enable: []string{"rs101"}, want: []string{"RS101"}},
		{enable: []string{"RS9*"}, err: `unknown rule "RS9*"`},
		{disable: []string{"attempt-budgets"}, err: `unknown rule "attempt-budgets"`},
	}
	for _, tt := range tests {
		got, err := SelectRules(all, tt.enable, tt.disable)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("SelectRules(%q, %q) error = %v, want %q", tt.enable, tt.disable, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("SelectRules(%q, %q): %v", tt.enable, tt.disable, err)
			continue
		}
		if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
			t.Errorf("SelectRules(%q, %q) mismatch (-want +got):\n%s", tt.enable, tt.disable, diff)
		}
	}
}

func TestResolveSeverities(t *testing.T) {
	got, err := ResolveSeverities(filterRules(), map[string]Severity{"RS1*": Note, "self-trigger-loop": Warning})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Severity{"RS101": Note, "RS102": Warning}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if _, err := ResolveSeverities(filterRules(), map[string]Severity{"RS999": Note}); err == nil {
		t.Error("an unknown rule resolved")
	}
	rs := WithSeverities(filterRules(), got)
	if rs[1].Severity != Note || rs[2].Severity != Warning || rs[3].Severity != Error {
		t.Errorf("WithSeverities: %v %v %v", rs[1].Severity, rs[2].Severity, rs[3].Severity)
	}
}

func TestMatchPath(t *testing.T) {
	for _, tt := range []struct {
		glob, name string
		want       bool
	}{
		{"workflows/*.json", "workflows/a.json", true},
		{"workflows/*.json", "workflows/sub/a.json", false},
		{"workflows/**/*.json", "workflows/sub/deep/a.json", true},
		{"workflows/**/*.json", "workflows/a.json", true},
		{"**/legacy/**", "x/legacy/y/z.json", true},
		{"legacy/*", "other/a.json", false},
	} {
		if got := MatchPath(tt.glob, tt.name); got != tt.want {
			t.Errorf("MatchPath(%q, %q) = %v, want %v", tt.glob, tt.name, got, tt.want)
		}
	}
}

const filterWorkflow = `{
  "id": "wf1",
  "name": "Orders",
  "nodes": [
    {"name": "Hook", "type": "n8n-nodes-base.webhook", "position": [0, 0], "parameters": {}},
    {"name": "Charge", "type": "n8n-nodes-base.stripe", "position": [200, 0], "parameters": {},
     "notes": "stormcheck:ignore RS201 -- Idempotency-Key is set upstream"},
    {"name": "Post", "type": "n8n-nodes-base.httpRequest", "position": [400, 0], "parameters": {},
     "notes": "stormcheck:ignore RS101, self-trigger-loop -- reviewed in #42"},
    {"name": "Far", "type": "n8n-nodes-base.httpRequest", "position": [2000, 2000], "parameters": {},
     "notes": "stormcheck:ignore RS201"},
    {"name": "Typo", "type": "n8n-nodes-base.noOp", "position": [2200, 2000], "parameters": {},
     "notes": "stormcheck:ignore RS777 -- no such rule"},
    {"name": "Sticky", "type": "n8n-nodes-base.stickyNote", "position": [-50, -50],
     "parameters": {"content": "## Intake\nstormcheck:ignore RS402 -- the gateway alerts", "width": 300, "height": 200}}
  ],
  "connections": {}
}`

func filterSet(t *testing.T) (*Set, *n8nschema.Workflow) {
	t.Helper()
	f := n8nschema.Parse(n8nschema.NewSource("flows/orders.json", []byte(filterWorkflow)))
	if len(f.Workflows) != 1 {
		t.Fatalf("fixture parsed into %d workflows", len(f.Workflows))
	}
	w := f.Workflows[0]
	return &Set{Files: []*n8nschema.File{f}, Workflows: f.Workflows}, w
}

func mkFinding(w *n8nschema.Workflow, rule *Rule, node string, conf Confidence) Finding {
	f := Finding{RuleID: rule.ID, RuleName: rule.Name, Severity: rule.Severity, Confidence: conf,
		File: w.Source.Name, Source: w.Source, Workflow: w.Name, WorkflowID: w.ID, Node: node, Message: rule.ID + " on " + node}
	if n := w.Node(node); n != nil {
		f.Pos = n.Pos
	}
	f.Fingerprint = Fingerprint(&f)
	return f
}

// got summarises filtered findings as "RULE node: message-start".
func got(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		msg := f.Message
		if i := strings.Index(msg, ";"); i > 0 {
			msg = msg[:i]
		}
		out = append(out, f.RuleID+" "+f.Node+" "+f.Severity.String()+": "+msg)
	}
	return out
}

func TestFilterInline(t *testing.T) {
	set, w := filterSet(t)
	rules := filterRules()
	r := map[string]*Rule{}
	for _, x := range rules {
		r[x.ID] = x
	}
	findings := []Finding{
		mkFinding(w, r["RS201"], "Charge", High),  // ignored by its notes
		mkFinding(w, r["RS101"], "Post", High),    // ignored by its notes (list)
		mkFinding(w, r["RS402"], "Hook", High),    // ignored by the sticky covering Hook
		mkFinding(w, r["RS402"], "Far", High),     // outside the sticky: kept
		mkFinding(w, r["RS201"], "Far", High),     // its directive has no reason: kept
		mkFinding(w, r["RS102"], "Charge", High),  // no directive for it: kept
		mkFinding(w, r["RS101"], "Hook", Low),     // below the floor
		mkFinding(w, r["RS102"], "Hook", Medium),  // in the baseline
		mkFinding(w, r["RS201"], "Ghost", Medium), // a node that does not exist: kept
	}
	SortFindings(findings)
	res := Filter(set, findings, FilterOptions{
		Rules: rules, MinConfidence: Medium,
		Baseline: map[string]bool{findings[slicesIndex(findings, "RS102", "Hook")].Fingerprint: true},
	})
	// Sorted by position: a finding on a missing node has none, so it comes first.
	want := []string{
		`RS201 Ghost error: RS201 on Ghost`,
		`RS102 Charge error: RS102 on Charge`,
		`RS201 Far error: RS201 on Far`,
		`RS402 Far warning: RS402 on Far`,
		`RS006 Far note: malformed ignore directive "stormcheck:ignore RS201" has no reason`,
		`RS006 Typo note: malformed ignore directive "stormcheck:ignore RS777 -- no such rule" names unknown rule "RS777"`,
	}
	if diff := cmp.Diff(want, got(res.Findings)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if res.Ignored != 3 || res.BelowConfidence != 1 || res.Baselined != 1 {
		t.Errorf("ignored %d, below confidence %d, baselined %d; want 3, 1, 1", res.Ignored, res.BelowConfidence, res.Baselined)
	}
	if len(res.Current) != len(res.Findings)+1 {
		t.Errorf("Current holds %d findings, want the %d reported plus the baselined one", len(res.Current), len(res.Findings))
	}
}

func slicesIndex(fs []Finding, rule, node string) int {
	for i, f := range fs {
		if f.RuleID == rule && f.Node == node {
			return i
		}
	}
	return -1
}

func TestFilterUnusedOnlyWhenRulesRan(t *testing.T) {
	set, _ := filterSet(t)
	all := filterRules()
	enabled, err := SelectRules(all, []string{"RS006", "RS201"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := Filter(set, nil, FilterOptions{Rules: enabled, All: all})
	// The Post directive names RS101 and RS102, which did not run, and the
	// sticky's RS402 did not run either: neither is called unused. The
	// Charge directive's RS201 ran and matched nothing.
	want := []string{
		`RS006 Charge note: ignore directive "stormcheck:ignore RS201 -- Idempotency-Key is set upstream" matches no RS201 finding on node "Charge"`,
		`RS006 Far note: malformed ignore directive "stormcheck:ignore RS201" has no reason`,
		`RS006 Typo note: malformed ignore directive "stormcheck:ignore RS777 -- no such rule" names unknown rule "RS777"`,
	}
	if diff := cmp.Diff(want, got(res.Findings)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	// With RS006 disabled, nothing is said about directives.
	res = Filter(set, nil, FilterOptions{Rules: enabled[1:], All: all})
	if len(res.Findings) != 0 {
		t.Errorf("RS006 disabled, got %q", got(res.Findings))
	}
}

func TestFilterConfigIgnores(t *testing.T) {
	set, w := filterSet(t)
	rules := filterRules()
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	findings := []Finding{
		mkFinding(w, rules[1], "Hook", High),  // RS101: by rule glob and path
		mkFinding(w, rules[2], "Hook", High),  // RS102: by workflow id and node
		mkFinding(w, rules[3], "Hook", High),  // RS201: only an expired entry
		mkFinding(w, rules[4], "Post", High),  // RS402: entry expires today, still works
		mkFinding(w, rules[4], "Other", High), // RS402: wrong node
	}
	opts := FilterOptions{
		Rules: rules, Now: now, NoIgnores: false, PathOf: func(f string) string { return "repo/" + f },
		Ignores: []Ignore{
			{Rule: "RS1*", Path: "repo/flows/*.json", Reason: "tuned later"},
			{Rule: "self-trigger-loop", Workflow: "wf1", Node: "Hook", Reason: "guarded upstream"},
			{Rule: "RS201", Workflow: "Orders", Reason: "old", Expires: day("2026-11-29"), File: ".stormcheck.yaml", Pos: n8nschema.Pos{Line: 12, Col: 5}},
			{Rule: "RS402", Node: "Post", Reason: "today", Expires: day("2026-11-30")},
		},
	}
	// Directives in notes are not what this test is about.
	set.Workflows[0].Nodes = set.Workflows[0].Nodes[:1]
	res := Filter(set, findings, opts)
	want := []string{
		`RS006  note: ignore entry expired on 2026-11-29 and no longer suppresses anything (reason was "old")`,
		`RS402 Other warning: RS402 on Other`,
		`RS201 Hook error: RS201 on Hook`,
	}
	if diff := cmp.Diff(want, got(res.Findings)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if res.Ignored != 3 {
		t.Errorf("ignored %d, want 3", res.Ignored)
	}
	for _, f := range res.Findings {
		if f.RuleID == "RS006" && (f.File != ".stormcheck.yaml" || f.Pos.Line != 12) {
			t.Errorf("expired entry reported at %s:%d, want .stormcheck.yaml:12", f.File, f.Pos.Line)
		}
	}

	opts.NoIgnores = true
	res = Filter(set, findings, opts)
	if len(res.Findings) != len(findings) || res.Ignored != 0 {
		t.Errorf("--no-ignores kept %d of %d findings and ignored %d", len(res.Findings), len(findings), res.Ignored)
	}
}

func TestFilterSeverityAndDisabled(t *testing.T) {
	set, w := filterSet(t)
	set.Workflows[0].Nodes = nil
	all := filterRules()
	enabled, _ := SelectRules(all, nil, []string{"RS402"})
	findings := []Finding{mkFinding(w, all[1], "Hook", High), mkFinding(w, all[4], "Hook", High)}
	res := Filter(set, findings, FilterOptions{Rules: enabled, Severities: map[string]Severity{"RS101": Error}})
	want := []string{`RS101 Hook error: RS101 on Hook`}
	if diff := cmp.Diff(want, got(res.Findings)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
}

// A directive is read only from a sticky note's content and another node's
// notes, unescaped: a \u escape may spell it.
func TestCollectDirectivesWhereAndEscaped(t *testing.T) {
	const wf = `{"name": "Esc", "nodes": [
	{"name": "Charge", "type": "n8n-nodes-base.httpRequest", "position": [0, 0], "parameters": {},
	 "notes": "line one\n\u0073tormcheck:\u0069gnore RS201 -- key set upstream"},
	{"name": "Plain", "type": "n8n-nodes-base.httpRequest", "position": [900, 900], "notes": "tab\there, \"quoted\", no directive"},
	{"name": "Param", "type": "n8n-nodes-base.set", "position": [900, 900],
	 "parameters": {"content": "stormcheck:ignore RS201 -- a parameter, not notes"}},
	{"name": "Note", "type": "n8n-nodes-base.stickyNote", "position": [-10, -10],
	 "parameters": {"content": "## Why\nstormcheck:ignore RS402 -- alerts go elsewhere"}},
	{"name": "Quiet", "type": "n8n-nodes-base.stickyNote", "position": [900, 900],
	 "notes": "stormcheck:ignore RS402 -- a sticky's notes are not read", "parameters": {"content": "nothing"}}
	], "connections": {}}`
	f := n8nschema.Parse(n8nschema.NewSource("esc.json", []byte(wf)))
	set := &Set{Files: []*n8nschema.File{f}, Workflows: f.Workflows}
	var gotDirs []string
	for _, d := range CollectDirectives(set, filterRules()) {
		var covers []string
		for n := range d.Covers {
			covers = append(covers, n)
		}
		slices.Sort(covers)
		gotDirs = append(gotDirs, fmt.Sprintf("%s sticky=%v %q rules=%v covers=%v line=%d", d.Node, d.Sticky, d.Text, ids(d.Rules), covers, d.Pos.Line))
	}
	want := []string{
		`Charge sticky=false "stormcheck:ignore RS201 -- key set upstream" rules=[RS201] covers=[Charge] line=3`,
		`Note sticky=true "stormcheck:ignore RS402 -- alerts go elsewhere" rules=[RS402] covers=[Charge] line=8`,
	}
	if diff := cmp.Diff(want, gotDirs); diff != "" {
		t.Errorf("directives mismatch (-want +got):\n%s", diff)
	}
}

// TestHasDirectiveAsContains holds hasDirective to strings.Contains of
// the directive word, on random strings of its pieces and colons.
func TestHasDirectiveAsContains(t *testing.T) {
	parts := []string{directiveWord, "stormcheck", ":ignore", ":", "s", "stormcheck:", "ck:ignore", "x", "::", "\n"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if got, want := hasDirective(s), strings.Contains(s, directiveWord); got != want {
			t.Fatalf("hasDirective(%q) = %v, want %v", s, got, want)
		}
	}
}
