package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
)

// JUnit renders JUnit XML, which most CI systems (GitLab, Jenkins, Azure
// Pipelines, CircleCI) show as test results: one test suite per file with
// findings, one failed test case per finding; a clean run is one passed
// case, so the CI shows the audit ran.
type JUnit struct{}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Render writes the document.
func (JUnit) Render(w io.Writer, r *Result) error {
	red := memo{}
	doc := junitSuites{Name: "stormcheck", Suites: []junitSuite{}}
	for i := range r.Findings {
		f := &r.Findings[i]
		file := Printable(f.File)
		if n := len(doc.Suites); n == 0 || doc.Suites[n-1].Name != file {
			doc.Suites = append(doc.Suites, junitSuite{Name: file})
		}
		s := &doc.Suites[len(doc.Suites)-1]
		name := f.RuleID + " " + f.RuleName
		if f.Node != "" {
			name += fmt.Sprintf(" on node %q", Printable(red.Redact(f.Node)))
		}
		if f.Pos.IsValid() && !IsURL(f.File) {
			name += " at line " + strconv.Itoa(f.Pos.Line)
		}
		msg := Printable(red.Redact(f.Message))
		text := place(f) + ": " + f.Severity.String() + ": " + msg + " [" + f.RuleID + " " + f.RuleName + "]"
		if len(f.Chain) > 0 {
			text += "\nchain: " + Printable(red.Redact(Chain(f.Chain)))
		}
		if f.Fix != "" {
			text += "\nfix: " + Printable(red.Redact(f.Fix))
		}
		text += "\nhelp: " + f.URL + "\n"
		c := junitCase{Name: name, Classname: file, File: file, Failure: &junitFailure{Message: msg, Type: f.Severity.String(), Text: text}}
		if f.Pos.IsValid() {
			c.Line = f.Pos.Line
		}
		s.Cases = append(s.Cases, c)
		s.Tests++
		s.Failures++
	}
	if len(doc.Suites) == 0 {
		doc.Suites = append(doc.Suites, junitSuite{Name: "stormcheck", Tests: 1, Cases: []junitCase{{
			Name:      fmt.Sprintf("no findings in %s (%s)", count(r.Summary.Workflows, "workflow"), count(r.Summary.Files, "file")),
			Classname: "stormcheck",
		}}})
	}
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
	}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, xml.Header+string(b)+"\n")
	return err
}
