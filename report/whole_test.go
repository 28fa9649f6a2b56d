package report

import "github.com/stormcheck/stormcheck/analyze"

// wholeResult is the result of an analysis of a whole set with its
// findings fs, as engine.ResultOf makes it (without the summary counts):
// the set's summaries, and snippets and node places captured from it.
func wholeResult(set *analyze.Set, fs []analyze.Finding) *Result {
	c := NewCapture(Needs{Snippets: true, Places: true})
	c.Group(set, fs)
	return &Result{Workflows: analyze.Summarize(set), Findings: fs, Capture: c}
}

// WholeResult is wholeResult for the external tests.
var WholeResult = wholeResult
