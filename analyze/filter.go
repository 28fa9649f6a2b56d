package analyze

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// UnusedIgnoreID is the rule under which Filter reports ignore directives
// that are malformed, match nothing, or have expired. The rule itself lives
// in package rules (its Run does nothing: rules never read notes); Filter
// reports its findings only when the rule is in FilterOptions.Rules.
const UnusedIgnoreID = "RS006"

// Ignore is one ignore entry of the config file: it suppresses the findings
// that match every field it sets.
type Ignore struct {
	Rule     string // rule ID, name or glob ("RS1*"); empty: any rule
	Path     string // glob over the finding's file ("workflows/**/*.json"); empty: any
	Workflow string // workflow name or id; empty: any
	Node     string // node name; empty: any
	Reason   string
	// Expires is the last day the entry works (UTC); zero: never expires.
	Expires time.Time
	// File and Pos locate the entry in the config file, for reports.
	File string
	Pos  n8nschema.Pos
}

// FilterOptions say what Filter keeps.
type FilterOptions struct {
	// Rules are the enabled rules (SelectRules). Findings
	// of other rules are dropped, and directives naming only rules that are
	// not enabled are never reported as unused.
	Rules []*Rule
	// All are every registered rule, to tell an unknown rule name from a
	// disabled one in directives; nil means Rules.
	All []*Rule
	// Severities override the severity of every finding of a rule, by ID
	// (ResolveSeverities).
	Severities map[string]Severity
	// MinConfidence drops findings below it; zero keeps all.
	MinConfidence Confidence
	// Ignores are the config file's entries.
	Ignores []Ignore
	// PathOf gives a finding's file as Ignore.Path globs see it: relative
	// to the config file's folder. Nil: the file as reported.
	PathOf func(file string) string
	// NoIgnores disables inline directives and config ignores alike.
	NoIgnores bool
	// Baseline holds fingerprints whose findings are not reported.
	Baseline map[string]bool
	// Now decides whether an ignore has expired; Filter never reads the clock.
	Now time.Time
	// Directives are the inline directives of the whole set when
	// DirectivesCollected is true: collected per group before its release
	// (CollectDirectives) and joined in set order (MergeDirectives). Filter
	// then reads no workflow, so it works on a released set. Else Filter
	// collects them from the set.
	Directives          []Directive
	DirectivesCollected bool
}

// Filtered is what Filter kept and how many findings each stage dropped.
type Filtered struct {
	Findings []Finding
	// Current are the findings before the baseline stage: what a new
	// baseline records.
	Current         []Finding
	Ignored         int
	Baselined       int
	BelowConfidence int
}

// Filter runs after the rules: it applies severity overrides, ignore
// directives (inline in node notes and sticky notes, and the config's
// ignore list), the confidence floor and the baseline, and reports bad or
// unused directives as findings of UnusedIgnoreID. It is pure.
//
// Order: ignores first (so a directive counts as used even when its finding
// would also be dropped for confidence or by the baseline), then the
// confidence floor, then Fold (findings that say one thing several times
// become one), then the baseline.
func Filter(set *Set, findings []Finding, opts FilterOptions) Filtered {
	return FilterOwned(set, slices.Clone(findings), opts)
}

// FilterOwned is Filter on findings the caller owns and does not read
// again: it compacts them in place rather than copy them (a set's
// findings are a large share of what an audit holds at the end).
func FilterOwned(set *Set, fs []Finding, opts FilterOptions) Filtered {
	enabled := make(map[string]*Rule, len(opts.Rules))
	for _, r := range opts.Rules {
		enabled[r.ID] = r
	}
	all := opts.All
	if all == nil {
		all = opts.Rules
	}

	// Each stage compacts fs in place.
	fs = slices.DeleteFunc(fs, func(f Finding) bool { return enabled[f.RuleID] == nil })
	if len(opts.Severities) > 0 {
		for i := range fs {
			if s, ok := opts.Severities[fs[i].RuleID]; ok {
				fs[i].Severity = s
			}
		}
	}

	var out Filtered
	var meta []Finding // findings about directives
	if !opts.NoIgnores {
		dirs := opts.Directives
		if !opts.DirectivesCollected {
			dirs = CollectDirectives(set, all)
		}
		used := make([]bool, len(dirs))
		fs = slices.DeleteFunc(fs, func(f Finding) bool {
			if ignoredInline(dirs, used, &f) || ignoredByConfig(opts, &f) {
				out.Ignored++
				return true
			}
			return false
		})
		if rs006 := enabled[UnusedIgnoreID]; rs006 != nil {
			meta = directiveFindings(rs006, dirs, used, enabled)
			meta = append(meta, expiredIgnoreFindings(rs006, opts)...)
			for i := range meta {
				if s, ok := opts.Severities[UnusedIgnoreID]; ok {
					meta[i].Severity = s
				}
			}
			// A config entry may silence RS006 itself (for a legacy folder).
			meta = slices.DeleteFunc(meta, func(f Finding) bool {
				if ignoredByConfig(opts, &f) {
					out.Ignored++
					return true
				}
				return false
			})
		}
	}
	fs = append(fs, meta...)

	fs = slices.DeleteFunc(fs, func(f Finding) bool {
		if opts.MinConfidence != 0 && f.Confidence < opts.MinConfidence {
			out.BelowConfidence++
			return true
		}
		return false
	})
	// Run and Unique give sorted findings: only directive findings
	// need sorting in, and then rarely.
	if !slices.IsSortedFunc(fs, func(a, b Finding) int { return compareFindings(&a, &b) }) {
		SortFindings(fs)
	}
	out.Current = Fold(fs, all)
	// The findings folded away stay in the array past Current's end:
	// cleared, so they hold no source alive (DeleteFunc clears its own).
	clear(fs[len(out.Current):])
	if out.Current == nil {
		out.Current = []Finding{}
	}
	// Without a baselined finding, Findings is Current itself.
	out.Findings = out.Current
	if slices.ContainsFunc(out.Current, func(f Finding) bool { return opts.Baseline[f.Fingerprint] }) {
		out.Findings = []Finding{}
		for _, f := range out.Current {
			if opts.Baseline[f.Fingerprint] {
				out.Baselined++
				continue
			}
			out.Findings = append(out.Findings, f)
		}
	}
	return out
}

// ResolveSeverities turns severity overrides keyed by rule ID, name or glob
// into overrides by rule ID. An exact ID or name beats a glob; among globs
// the last in sorted order wins. A key that names no rule is an error.
func ResolveSeverities(rules []*Rule, overrides map[string]Severity) (map[string]Severity, error) {
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	// Globs first, exact names last, so exact ones win.
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(-cmp.Compare(b2i(isGlob(a)), b2i(isGlob(b))), strings.Compare(a, b))
	})
	byID := map[string]Severity{}
	for _, k := range keys {
		matched := false
		for _, r := range rules {
			if matchRule(k, r) {
				byID[r.ID] = overrides[k]
				matched = true
			}
		}
		if !matched {
			return nil, fmt.Errorf("unknown rule %q", k)
		}
	}
	return byID, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// WithSeverities returns copies of rules whose default severity is replaced
// by the override for their ID, for reports that list rules (SARIF).
func WithSeverities(rules []*Rule, byID map[string]Severity) []*Rule {
	out := make([]*Rule, len(rules))
	for i, r := range rules {
		if s, ok := byID[r.ID]; ok {
			c := *r
			c.Severity = s
			r = &c
		}
		out[i] = r
	}
	return out
}

// SelectRules returns the rules that run, in registry order. enable lists
// the rules to run (default "all"), evaluated in order: an ID, a name, "all"
// or a glob such as "RS1*" adds, and the same prefixed with "-" removes.
// disable then removes what it names. An entry that names no rule is an
// error.
func SelectRules(rules []*Rule, enable, disable []string) ([]*Rule, error) {
	if len(enable) == 0 {
		enable = []string{"all"}
	}
	on := map[string]bool{}
	apply := func(sel string, add bool) error {
		matched := false
		for _, r := range rules {
			if matchRule(sel, r) {
				on[r.ID] = add
				matched = true
			}
		}
		if !matched {
			return fmt.Errorf("unknown rule %q (want an ID like RS101, a name like attempt-budget, a glob like RS1*, or all)", sel)
		}
		return nil
	}
	for _, sel := range enable {
		sel = strings.TrimSpace(sel)
		if rest, ok := strings.CutPrefix(sel, "-"); ok {
			if err := apply(rest, false); err != nil {
				return nil, err
			}
			continue
		}
		if err := apply(sel, true); err != nil {
			return nil, err
		}
	}
	for _, sel := range disable {
		if err := apply(strings.TrimPrefix(strings.TrimSpace(sel), "-"), false); err != nil {
			return nil, err
		}
	}
	var out []*Rule
	for _, r := range rules {
		if on[r.ID] {
			out = append(out, r)
		}
	}
	return out, nil
}

// matchRule reports whether a selector (ID, name, "all", or a glob over
// either) names the rule. IDs compare without regard to case.
func matchRule(sel string, r *Rule) bool {
	switch {
	case sel == "all" || sel == "*":
		return true
	case strings.EqualFold(sel, r.ID) || sel == r.Name:
		return true
	case isGlob(sel):
		ok1, _ := path.Match(strings.ToUpper(sel), r.ID)
		ok2, _ := path.Match(sel, r.Name)
		return ok1 || ok2
	}
	return false
}

func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// MatchPath reports whether a slash-separated file name matches a glob in
// which "**" stands for any number of folders.
func MatchPath(glob, name string) bool {
	return matchSegs(strings.Split(glob, "/"), strings.Split(name, "/"))
}

func matchSegs(g, n []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(n); i++ {
				if matchSegs(g[1:], n[i:]) {
					return true
				}
			}
			return false
		}
		if len(n) == 0 {
			return false
		}
		if ok, _ := path.Match(g[0], n[0]); !ok {
			return false
		}
		g, n = g[1:], n[1:]
	}
	return len(n) == 0
}

// expired reports whether an ignore has passed its last day.
func (ig *Ignore) expired(now time.Time) bool {
	return !ig.Expires.IsZero() && !now.Before(ig.Expires.AddDate(0, 0, 1))
}

func ignoredByConfig(opts FilterOptions, f *Finding) bool {
	for i := range opts.Ignores {
		ig := &opts.Ignores[i]
		if ig.expired(opts.Now) {
			continue
		}
		if ig.Rule != "" && !matchRule(ig.Rule, &Rule{ID: f.RuleID, Name: f.RuleName}) {
			continue
		}
		if ig.Path != "" {
			name := f.File
			if opts.PathOf != nil {
				name = opts.PathOf(name)
			}
			if !MatchPath(ig.Path, name) {
				continue
			}
		}
		if ig.Workflow != "" && ig.Workflow != f.Workflow && ig.Workflow != f.WorkflowID {
			continue
		}
		if ig.Node != "" && ig.Node != f.Node {
			continue
		}
		return true
	}
	return false
}

func expiredIgnoreFindings(rule *Rule, opts FilterOptions) []Finding {
	var out []Finding
	for _, ig := range opts.Ignores {
		if !ig.expired(opts.Now) {
			continue
		}
		f := metaFinding(rule, fmt.Sprintf("ignore entry expired on %s and no longer suppresses anything (reason was %q)",
			ig.Expires.Format(time.DateOnly), ig.Reason))
		f.File, f.Pos = ig.File, ig.Pos
		f.Detail = "expired\x00" + strings.Join([]string{ig.Rule, ig.Path, ig.Workflow, ig.Node}, "\x00")
		f.Fix = "Fix the findings the entry covered, or extend its expires date with a fresh reason"
		f.Fingerprint = Fingerprint(&f)
		out = append(out, f)
	}
	return out
}

// Inline directives.

// directiveRE finds a directive in notes: `stormcheck:ignore RULES -- reason`.
// RULES are IDs or names separated by commas or spaces.
var directiveRE = lazyregexp.New(directiveWord + `\b([^\n]*)`)

// directiveWord is the literal every directive starts with.
const directiveWord = "stormcheck:ignore"

// hasDirective is strings.Contains(s, directiveWord), stepping from colon
// to colon: strings.Index looks for the word's first byte and would stop
// at every "s" of a note, where markdown holds few colons.
func hasDirective(s string) bool {
	const colon = len("stormcheck")
	for i := colon; i < len(s); i++ {
		j := strings.IndexByte(s[i:], ':')
		if j < 0 {
			return false
		}
		i += j
		if strings.HasPrefix(s[i-colon:], directiveWord) {
			return true
		}
	}
	return false
}

// Directive is one `stormcheck:ignore` found in a node's notes or a sticky
// note: what Filter reads of it, so that it can be collected before the
// workflow is released. Its strings are copies: they hold no source.
type Directive struct {
	Source     *n8nschema.Source
	Workflow   string // the workflow's name
	WorkflowID string
	Node       string // the node whose notes hold it, or the sticky note
	Sticky     bool
	Pos        n8nschema.Pos
	Text       string
	Rules      []*Rule // resolved; empty when malformed
	Problem    string  // why it is malformed
	// Covers are the names of the nodes it speaks for.
	Covers map[string]bool

	file int // the index of its file in the set it was collected from
}

// Sticky notes default to 240×160 on the canvas when width/height are absent.
const stickyWidth, stickyHeight = 240, 160

// CollectDirectives finds the inline directives of a set, in set order,
// resolving rule names against all (what Filter resolves them against:
// FilterOptions.All, else Rules). The two-pass audit calls it on each
// group's set before releasing it.
func CollectDirectives(set *Set, all []*Rule) []Directive {
	if set == nil {
		return nil
	}
	var out []Directive
	for fi, f := range set.Files {
		for _, w := range f.Workflows {
			out = appendDirectives(out, fi, w, all)
		}
	}
	return out
}

// MergeDirectives joins the directives CollectDirectives found in the sets
// of the groups Components made (perGroup[i] from the set of groups[i]) in
// set order, for FilterOptions.Directives.
func MergeDirectives(perGroup [][]Directive, groups [][]int) []Directive {
	var out []Directive
	for i, ds := range perGroup {
		for _, d := range ds {
			d.file = groups[i][d.file]
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b Directive) int { return cmp.Compare(a.file, b.file) })
	return out
}

func appendDirectives(out []Directive, fi int, w *n8nschema.Workflow, all []*Rule) []Directive {
	// A directive can only be in a sticky note's content or another node's
	// notes: look there, not through the whole text of each workflow.
	for _, n := range w.Nodes {
		var v n8nschema.Value
		if n.IsSticky() {
			v, _ = n.Param("content")
		} else {
			if !hasDirective(n.Notes) {
				continue // the notes as the parse read them (Str of the same member)
			}
			v = n.Field("notes")
		}
		// Only a \u escape spells a letter of the directive other than as
		// itself, so a string whose JSON text holds neither the directive
		// nor one is not unescaped: most notes hold none and many have
		// escapes, whose unescaping allocates. The parse saw the \u
		// escapes (UnicodeEscaped): no search of the text for one, which
		// stopped at every \n of a note's markdown.
		if !v.UnicodeEscaped() && !hasDirective(v.Raw()) {
			continue
		}
		text := v.Str()
		if !hasDirective(text) {
			continue
		}
		// Positions and the nodes a sticky note covers are worked out
		// only for text that holds a directive: most notes hold none.
		var covers map[string]bool
		if n.IsSticky() {
			covers = coveredBy(w, n)
		} else {
			covers = map[string]bool{strings.Clone(n.Name): true}
		}
		pos := v.Pos()
		if !pos.IsValid() {
			pos = n.Pos
		}
		for _, m := range directiveRE.FindAllStringSubmatch(text, -1) {
			d := Directive{Source: w.Source, Workflow: strings.Clone(w.Name), WorkflowID: strings.Clone(w.ID),
				Node: strings.Clone(n.Name), Sticky: n.IsSticky(), Pos: (*Texts)(nil).pos(pos),
				Text: strings.Clone(strings.TrimSpace(m[0])), Covers: covers, file: fi}
			d.Rules, d.Problem = parseDirective(m[1], all)
			out = append(out, d)
		}
	}
	return out
}

func parseDirective(rest string, all []*Rule) ([]*Rule, string) {
	list, reason, ok := strings.Cut(rest, "--")
	if !ok || strings.TrimSpace(reason) == "" {
		return nil, `has no reason; add one after " -- "`
	}
	fields := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) == 0 {
		return nil, "names no rule; write `stormcheck:ignore RS201 -- reason`"
	}
	var rules []*Rule
	for _, fld := range fields {
		i := slices.IndexFunc(all, func(r *Rule) bool { return strings.EqualFold(fld, r.ID) || fld == r.Name })
		if i < 0 {
			return nil, fmt.Sprintf("names unknown rule %q", fld)
		}
		rules = append(rules, all[i])
	}
	return rules, ""
}

// coveredBy returns the names of the nodes whose canvas position lies in
// the sticky note's rectangle.
func coveredBy(w *n8nschema.Workflow, sticky *n8nschema.Node) map[string]bool {
	sx, sy, ok := position(sticky)
	if !ok {
		return nil
	}
	width, height := float64(stickyWidth), float64(stickyHeight)
	if v, ok := sticky.Param("width"); ok {
		if f, ok := v.Num(); ok {
			width = f
		}
	}
	if v, ok := sticky.Param("height"); ok {
		if f, ok := v.Num(); ok {
			height = f
		}
	}
	covers := map[string]bool{}
	for _, n := range w.Nodes {
		if n == sticky || n.IsSticky() {
			continue
		}
		if x, y, ok := position(n); ok && x >= sx && x <= sx+width && y >= sy && y <= sy+height {
			covers[strings.Clone(n.Name)] = true
		}
	}
	return covers
}

func position(n *n8nschema.Node) (x, y float64, ok bool) {
	e := n.Field("position").Elems()
	if len(e) != 2 {
		return 0, 0, false
	}
	x, ok1 := e[0].Num()
	y, ok2 := e[1].Num()
	return x, y, ok1 && ok2
}

func ignoredInline(dirs []Directive, used []bool, f *Finding) bool {
	if f.Node == "" {
		return false
	}
	for i := range dirs {
		d := &dirs[i]
		if d.Problem != "" || !d.Covers[f.Node] || d.Source != f.Source || d.Workflow != f.Workflow || d.WorkflowID != f.WorkflowID {
			continue
		}
		if slices.ContainsFunc(d.Rules, func(r *Rule) bool { return r.ID == f.RuleID }) {
			used[i] = true
			return true
		}
	}
	return false
}

func directiveFindings(rule *Rule, dirs []Directive, used []bool, enabled map[string]*Rule) []Finding {
	var out []Finding
	for i := range dirs {
		d := &dirs[i]
		var msg, fix string
		switch {
		case d.Problem != "":
			msg = fmt.Sprintf("malformed ignore directive %q %s; it ignores nothing", d.Text, d.Problem)
			fix = "Add the reason after \" -- \", and name rules by ID or name"
		case used[i]:
			continue
		default:
			// Only report a directive whose rules all ran: with some of them
			// disabled, it may match in a full run.
			if slices.ContainsFunc(d.Rules, func(r *Rule) bool { return enabled[r.ID] == nil }) {
				continue
			}
			ids := make([]string, len(d.Rules))
			for i, r := range d.Rules {
				ids[i] = r.ID
			}
			where := fmt.Sprintf("node %q", d.Node)
			if d.Sticky {
				where = "the nodes this sticky note covers"
			}
			msg = fmt.Sprintf("ignore directive %q matches no %s finding on %s; should it be removed?", d.Text, strings.Join(ids, "/"), where)
			fix = "Remove the directive; the finding it was written for is gone"
		}
		f := metaFinding(rule, msg)
		f.File, f.Source, f.Pos = d.Source.Name, d.Source, d.Pos
		f.Workflow, f.WorkflowID, f.Node = d.Workflow, d.WorkflowID, d.Node
		f.Fix = fix
		f.Detail = d.Text
		f.Fingerprint = Fingerprint(&f)
		out = append(out, f)
	}
	return slices.CompactFunc(out, func(a, b Finding) bool { return a.Fingerprint == b.Fingerprint && a.Message == b.Message })
}

func metaFinding(r *Rule, msg string) Finding {
	return Finding{
		RuleID: r.ID, RuleName: r.Name, RuleTitle: r.Title, URL: r.HelpURI(),
		Severity: r.Severity, Confidence: cmp.Or(r.Confidence, High), Message: msg, Fix: r.Fix,
	}
}
