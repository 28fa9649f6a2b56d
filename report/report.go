// Package report renders an analysis for people and machines: text for the
// terminal, JSON as a versioned API, and the CI formats. It is the only
// package that styles output.
package report

import (
	"fmt"
	"io"

	"github.com/stormcheck/stormcheck/analyze"
)

// Tool identifies stormcheck in machine-readable output.
type Tool struct {
	Name    string
	Version string
}

// Result is everything a renderer needs.
type Result struct {
	Tool Tool
	// Workflows are what the audit kept of every workflow, in set order.
	Workflows []analyze.WorkflowSummary
	// Rules are every registered rule, with configured severities: SARIF
	// lists them all, so alerts of rules that no longer fire are closed.
	Rules    []*analyze.Rule
	Findings []analyze.Finding
	Summary  Summary
	// Capture holds what renderers read from the sources (snippets, node
	// places), taken while the audit held them; renderers never read a
	// source.
	Capture *Capture
}

// Summary counts what was read and what was found.
type Summary struct {
	Files     int `json:"files"`
	Workflows int `json:"workflows"`
	Nodes     int `json:"nodes"`
	// SkippedFiles are JSON files met while walking a folder that hold no workflow.
	SkippedFiles int `json:"skipped_files"`
	Findings     int `json:"findings"`
	Errors       int `json:"errors"`
	Warnings     int `json:"warnings"`
	Notes        int `json:"notes"`
	// Ignored findings matched an ignore directive; Baselined ones are in the
	// baseline; BelowConfidence ones were under --min-confidence.
	Ignored         int `json:"ignored"`
	Baselined       int `json:"baselined"`
	BelowConfidence int `json:"below_confidence"`
	// BelowSeverity findings are hidden by --min-severity; --fail-on still
	// counts them.
	BelowSeverity int `json:"below_min_severity"`
	// Fixed findings were repaired by --fix; Findings are what is left.
	Fixed int `json:"fixed"`
	// Fixable findings have a safe repair (--fix); FixableUnsafe ones an
	// unsafe one (--fix --unsafe-fixes).
	Fixable       int `json:"fixable"`
	FixableUnsafe int `json:"fixable_unsafe"`
}

// Count fills the finding counts of s from fs.
func (s *Summary) Count(fs []analyze.Finding) {
	s.Findings, s.Errors, s.Warnings, s.Notes = len(fs), 0, 0, 0
	s.Fixable, s.FixableUnsafe = 0, 0
	for _, f := range fs {
		// A live workflow's repair is shown, but --fix edits files: pull
		// them first.
		if f.Repair != nil && !IsURL(f.File) {
			if f.Repair.Safety == analyze.Safe {
				s.Fixable++
			} else {
				s.FixableUnsafe++
			}
		}
		switch f.Severity {
		case analyze.Error:
			s.Errors++
		case analyze.Warning:
			s.Warnings++
		case analyze.Note:
			s.Notes++
		}
	}
}

// Renderer writes one format.
type Renderer interface {
	Render(w io.Writer, r *Result) error
}

// Formats lists the format names in the order help text shows them.
var Formats = []string{"text", "concise", "json", "sarif", "github", "markdown", "junit", "gitlab"}

// Options tune renderers that care.
type Options struct {
	Color bool // ANSI styling (text)
	TTY   bool // stdout is a terminal: summary table (text)
	// LinkBase is where the repository's files are browsed (markdown).
	LinkBase string
	// UnsafeFixes: --unsafe-fixes was given, so [*] marks unsafe repairs
	// too (text, concise).
	UnsafeFixes bool
}

// New returns the renderer for a format name.
func New(format string, opts Options) (Renderer, error) {
	switch format {
	case "text":
		return &Text{Color: opts.Color, TTY: opts.TTY, UnsafeFixes: opts.UnsafeFixes}, nil
	case "concise":
		return &Concise{Color: opts.Color, UnsafeFixes: opts.UnsafeFixes}, nil
	case "json":
		return JSON{}, nil
	case "sarif":
		return SARIF{}, nil
	case "github":
		return GitHub{}, nil
	case "markdown":
		return Markdown{LinkBase: opts.LinkBase}, nil
	case "junit":
		return JUnit{}, nil
	case "gitlab":
		return GitLab{}, nil
	}
	return nil, fmt.Errorf("unknown format %q", format)
}
