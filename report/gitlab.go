package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"

	"github.com/stormcheck/stormcheck/analyze"
)

// GitLab renders GitLab's Code Quality report (a JSON array of issues:
// description, check_name, fingerprint, severity, location.path and
// location.lines.begin), which merge requests show inline.
type GitLab struct{}

type gitlabIssue struct {
	Type        string         `json:"type"`
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Categories  []string       `json:"categories"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
}

// gitlabSeverity maps a severity onto GitLab's five (info, minor, major,
// critical, blocker) as ESLint's and golangci-lint's reports do: a note is
// info, a warning minor, an error major.
func gitlabSeverity(s analyze.Severity) string {
	switch s {
	case analyze.Error:
		return "major"
	case analyze.Warning:
		return "minor"
	}
	return "info"
}

// Render writes the report: an array, empty when there is no finding.
func (GitLab) Render(w io.Writer, r *Result) error {
	red := memo{}
	issues := make([]gitlabIssue, 0, len(r.Findings))
	seen := map[string]bool{}
	for i := range r.Findings {
		f := &r.Findings[i]
		// GitLab tells issues apart, and new ones from fixed ones between
		// branches, by fingerprint: the finding's (stable when lines
		// move) with its file, since two files may hold one workflow.
		sum := sha256.Sum256([]byte(f.Fingerprint + "\x00" + f.File))
		fp := hex.EncodeToString(sum[:16])
		for n := 2; seen[fp]; n++ {
			sum := sha256.Sum256([]byte(f.Fingerprint + "\x00" + f.File + "\x00" + strconv.Itoa(n)))
			fp = hex.EncodeToString(sum[:16])
		}
		seen[fp] = true
		line := 1 // GitLab wants a line; a file that could not be read has none
		if f.Pos.IsValid() {
			line = f.Pos.Line
		}
		issues = append(issues, gitlabIssue{
			Type: "issue", Description: Printable(red.Redact(f.Message)) + " [" + f.RuleID + " " + f.RuleName + "]",
			CheckName: f.RuleID, Fingerprint: fp, Severity: gitlabSeverity(f.Severity), Categories: []string{"Bug Risk"},
			Location: gitlabLocation{Path: Printable(f.File), Lines: gitlabLines{Begin: line}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}
