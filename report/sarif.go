package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/internal/ruledoc"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// SARIF renders SARIF 2.1.0 for GitHub code scanning: one run, every enabled
// rule in tool.driver.rules (so alerts of rules that stop firing close),
// results on the node's key in the JSON, fingerprints that ignore canvas
// positions, and the amplification chain as a code flow.
type SARIF struct{}

const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	toolInfoURI  = "https://github.com/stormcheck/stormcheck"
	fingerprintK = "primaryLocationLineHash"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifHelp      `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifRuleConf  `json:"defaultConfiguration"`
	Properties           sarifRuleProps `json:"properties"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags      []string `json:"tags"`
	Precision string   `json:"precision"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	CodeFlows           []sarifCodeFlow   `json:"codeFlows,omitempty"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
	Properties          sarifResultProps  `json:"properties"`
}

// sarifFix is a proposed fix (SARIF 2.1.0 §3.55): replacements of regions
// of one or more artifacts.
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	Properties      sarifFixProps         `json:"properties"`
}

type sarifFixProps struct {
	Safety string `json:"safety"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion       `json:"deletedRegion"`
	InsertedContent *sarifTextContent `json:"insertedContent,omitempty"`
}

type sarifTextContent struct {
	Text string `json:"text"`
}

type sarifResultProps struct {
	Confidence string `json:"confidence"`
	Workflow   string `json:"workflow,omitempty"`
	Node       string `json:"node,omitempty"`
	Fix        string `json:"fix,omitempty"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	Message          *sarifText             `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	// The end and the byte range are set on the regions of fixes only.
	EndLine    int  `json:"endLine,omitempty"`
	EndColumn  int  `json:"endColumn,omitempty"`
	ByteOffset *int `json:"byteOffset,omitempty"`
	ByteLength *int `json:"byteLength,omitempty"`
}

type sarifCodeFlow struct {
	Message     sarifText         `json:"message"`
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifThreadFlow struct {
	Locations []sarifThreadFlowLocation `json:"locations"`
}

type sarifThreadFlowLocation struct {
	Location sarifLocation `json:"location"`
}

// Render writes the log, indented, with a trailing newline.
func (SARIF) Render(w io.Writer, r *Result) error {
	driver := sarifDriver{
		Name:            r.Tool.Name,
		Version:         r.Tool.Version,
		SemanticVersion: semanticVersion(r.Tool.Version),
		InformationURI:  toolInfoURI,
		Rules:           []sarifRule{},
	}
	index := map[string]int{}
	addRule := func(rule *analyze.Rule) {
		index[rule.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(rule))
	}
	for _, rule := range r.Rules {
		addRule(rule)
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	seen := map[string]bool{}
	occurrences := map[string]int{}
	red := memo{}
	for i := range r.Findings {
		f := &r.Findings[i]
		if _, ok := index[f.RuleID]; !ok {
			// A finding of a rule the caller did not list: describe it from
			// the finding, so ruleIndex stays valid.
			addRule(&analyze.Rule{ID: f.RuleID, Name: f.RuleName, Title: f.RuleTitle, Fix: f.Fix, Severity: f.Severity})
		}
		res := sarifResultOf(f, index[f.RuleID], r.Capture.nodeOf(f), red)
		key := f.RuleID + "\x00" + f.Fingerprint + "\x00" + f.File + "\x00" + f.Pos.String() + "\x00" + res.Message.Text
		if seen[key] {
			continue
		}
		seen[key] = true
		// Findings that share a fingerprint stay apart the way GitHub's own
		// line hashes do: by occurrence.
		occurrences[f.Fingerprint]++
		res.PartialFingerprints = map[string]string{fingerprintK: f.Fingerprint + ":" + strconv.Itoa(occurrences[f.Fingerprint])}
		run.Results = append(run.Results, res)
	}
	run.Tool.Driver.Rules = driver.Rules
	doc := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

func sarifRuleOf(rule *analyze.Rule) sarifRule {
	tags := append([]string{}, rule.Tags...)
	if tags == nil {
		tags = []string{}
	}
	full := unwrap(rule.Doc)
	if full == "" {
		full = sentence(rule.Title)
	}
	text := full
	if rule.Fix != "" {
		text += "\n\nFix: " + sentence(rule.Fix)
	}
	return sarifRule{
		ID:                   rule.ID,
		Name:                 rule.Name,
		ShortDescription:     sarifText{Text: sentence(rule.Title)},
		FullDescription:      sarifText{Text: full},
		Help:                 sarifHelp{Text: text, Markdown: helpMarkdown(rule)},
		HelpURI:              rule.HelpURI(),
		DefaultConfiguration: sarifRuleConf{Level: level(rule.Severity)},
		Properties:           sarifRuleProps{Tags: tags, Precision: precision(rule.Confidence)},
	}
}

// helpMarkdown is the rule's page of docs/rules.md and a link to it.
func helpMarkdown(rule *analyze.Rule) string {
	return ruledoc.Markdown(rule) + fmt.Sprintf("\n[Documentation](%s)", rule.HelpURI())
}

// sarifResultOf builds a result; node is the finding's node when the set
// knows it, so the alert sits on the node's key.
func sarifResultOf(f *analyze.Finding, ruleIndex int, node nodePlace, red memo) sarifResult {
	res := sarifResult{
		RuleID:    f.RuleID,
		RuleIndex: ruleIndex,
		Level:     level(f.Severity),
		// Message text is escaped as in text (Printable): GitHub's code
		// scanning shows bidi, zero-width and C1 characters raw.
		Message: sarifText{Text: Printable(resultMessage(f, red))},
		Properties: sarifResultProps{
			Confidence: f.Confidence.String(), Workflow: Printable(red.Redact(f.Workflow)), Node: Printable(red.Redact(f.Node)), Fix: Printable(red.Redact(f.Fix)),
		},
	}
	// Move to the node's key only from a place inside that node (two nodes
	// may share a name: RS004 points at the second one).
	primary := f.Pos
	if node.found && node.pos.IsValid() && (!f.Pos.IsValid() || strings.HasPrefix(f.Pos.Path, node.path+".")) {
		primary = node.pos
	}
	if loc := physical(f.File, primary); loc != nil {
		res.Locations = []sarifLocation{{PhysicalLocation: loc}}
	}
	var related []analyze.Related
	if primary != f.Pos && f.Pos.IsValid() {
		// The finding is about one setting of the node: point at it too.
		what := strings.TrimPrefix(strings.TrimPrefix(f.Pos.Path, node.path), ".")
		if what == "" {
			what = "the value"
		}
		related = append(related, analyze.Related{File: f.File, Pos: f.Pos, Message: "`" + what + "` of node " + strconv.Quote(f.Node)})
	}
	for i, rel := range append(related, f.Related...) {
		if loc := physical(rel.File, rel.Pos); loc != nil {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id, PhysicalLocation: loc, Message: &sarifText{Text: Printable(red.Redact(rel.Message))}})
		}
	}
	if fx, ok := sarifFixOf(f.Repair, red); ok {
		res.Fixes = []sarifFix{fx}
	}
	if len(f.Chain) > 0 {
		tf := sarifThreadFlow{}
		for _, fac := range f.Chain {
			msg := &sarifText{Text: Printable(factorText(fac))}
			loc := sarifLocation{Message: msg}
			if fac.Source != nil {
				loc.PhysicalLocation = physical(fac.Source.Name, fac.Pos)
			}
			tf.Locations = append(tf.Locations, sarifThreadFlowLocation{Location: loc})
		}
		res.CodeFlows = []sarifCodeFlow{{Message: sarifText{Text: Printable("amplification: " + Chain(f.Chain))}, ThreadFlows: []sarifThreadFlow{tf}}}
	}
	return res
}

// sarifFixOf turns a repair into a fix, its edits grouped by artifact in
// the repair's order; false when a source is not a file (stdin).
func sarifFixOf(r *analyze.Repair, red memo) (sarifFix, bool) {
	if r == nil {
		return sarifFix{}, false
	}
	fx := sarifFix{Description: sarifText{Text: Printable(sentence(red.Redact(r.Description)))}, Properties: sarifFixProps{Safety: r.Safety.String()}}
	for _, e := range r.Edits {
		uri := artifactURI(e.Source.Name)
		if uri == "" || red.Redact(e.Text) != e.Text {
			return sarifFix{}, false // stdin, or an edit that would show a secret
		}
		off, n := e.Offset, e.Len
		rep := sarifReplacement{DeletedRegion: sarifRegion{StartLine: e.Start.Line, StartColumn: e.Start.Col,
			EndLine: e.End.Line, EndColumn: e.End.Col, ByteOffset: &off, ByteLength: &n}}
		if e.Text != "" {
			rep.InsertedContent = &sarifTextContent{Text: e.Text}
		}
		if k := len(fx.ArtifactChanges); k > 0 && fx.ArtifactChanges[k-1].ArtifactLocation.URI == uri {
			fx.ArtifactChanges[k-1].Replacements = append(fx.ArtifactChanges[k-1].Replacements, rep)
			continue
		}
		fx.ArtifactChanges = append(fx.ArtifactChanges, sarifArtifactChange{ArtifactLocation: sarifArtifact{URI: uri}, Replacements: []sarifReplacement{rep}})
	}
	return fx, len(fx.ArtifactChanges) > 0
}

// resultMessage starts with the rule's title as its own sentence, since
// GitHub shows the first sentence as the alert's title, then the finding.
func resultMessage(f *analyze.Finding, red memo) string {
	msg := sentence(f.RuleTitle)
	if m := strings.TrimSpace(red.Redact(f.Message)); m != "" {
		if msg != "" {
			msg += " "
		}
		msg += sentence(m)
	}
	if len(f.Chain) > 0 {
		msg += " Chain: " + Chain(f.Chain) + "."
	}
	return msg
}

// physical locates a file position; nil when there is no file name.
func physical(file string, pos n8nschema.Pos) *sarifPhysicalLocation {
	uri := artifactURI(file)
	if uri == "" {
		return nil
	}
	loc := &sarifPhysicalLocation{ArtifactLocation: sarifArtifact{URI: uri}}
	if pos.IsValid() {
		loc.Region = &sarifRegion{StartLine: pos.Line, StartColumn: max(pos.Col, 1)}
	}
	return loc
}

// artifactURI turns a report file name into a URI reference: repo-relative
// names stay relative (forward slashes, no "./", segments escaped), absolute
// paths become file URIs, a live workflow's editor URL stays as it is.
func artifactURI(name string) string {
	switch {
	case name == "":
		return ""
	case name == "<stdin>":
		// GitHub rejects an upload with a result that has no location;
		// --stdin-filename gives the real path.
		return "stdin"
	case strings.Contains(name, "://"):
		return name
	}
	name = strings.ReplaceAll(name, `\`, "/")
	abs := strings.HasPrefix(name, "/")
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	segs := strings.Split(strings.TrimPrefix(name, "/"), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	if abs {
		return "file:///" + strings.Join(segs, "/")
	}
	if len(segs) > 0 && strings.Contains(segs[0], ":") {
		segs[0] = strings.ReplaceAll(segs[0], ":", "%3A") // not a scheme
	}
	return strings.Join(segs, "/")
}

func level(s analyze.Severity) string {
	switch s {
	case analyze.Error:
		return "error"
	case analyze.Warning:
		return "warning"
	}
	return "note"
}

func precision(c analyze.Confidence) string {
	switch c {
	case analyze.High:
		return "high"
	case analyze.Low:
		return "low"
	}
	return "medium"
}

var semverRE = lazyregexp.New(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$`)

// semanticVersion gives the version as SemVer 2.0 (without a leading v);
// a development build is 0.0.0-dev.
func semanticVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if semverRE.MatchString(v) {
		return v
	}
	return "0.0.0-dev"
}

// sentence capitalises s and ends it with a period.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// unwrap joins the hard-wrapped lines of a Go raw string into paragraphs.
func unwrap(s string) string {
	paras := strings.Split(strings.TrimSpace(s), "\n\n")
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		for j := range lines {
			lines[j] = strings.TrimSpace(lines[j])
		}
		paras[i] = strings.Join(lines, " ")
	}
	return strings.Join(paras, "\n\n")
}

// nodeIndex finds the workflow of a finding in the analysis set.
type nodeIndex map[wfKey]*n8nschema.Workflow

type wfKey struct {
	src      *n8nschema.Source
	name, id string
}

// nodeKey names a node as a finding does.
type nodeKey struct {
	src          *n8nschema.Source
	wf, id, node string
}

func newNodeIndex(set *analyze.Set) nodeIndex {
	idx := nodeIndex{}
	if set == nil {
		return idx
	}
	for _, w := range set.Workflows {
		k := wfKey{w.Source, w.Name, w.ID}
		if _, dup := idx[k]; !dup {
			idx[k] = w
		}
	}
	return idx
}

// place reads the place of a node from the set, for Capture.
func (idx nodeIndex) place(k nodeKey) nodePlace {
	w := idx[wfKey{k.src, k.wf, k.id}]
	if w == nil {
		return nodePlace{}
	}
	n := w.Node(k.node)
	if n == nil {
		return nodePlace{}
	}
	pos := n.Pos
	pos.Path = strings.Clone(pos.Path)
	return nodePlace{found: true, pos: pos, path: strings.Clone(n.Value.Path())}
}
