package cmd

import (
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stormcheck/stormcheck/internal/schematest"
)

// TestGitLabFormat: --format gitlab is GitLab's Code Quality report (the
// shape its docs give, as report/testdata/ci/gitlab-codequality.schema.json),
// one issue per finding, severities mapped, fingerprints unique.
func TestGitLabFormat(t *testing.T) {
	sch := schematest.Compile(t, filepath.Join("..", "report", "testdata", "ci", "gitlab-codequality.schema.json"), true)
	examples := filepath.Join("..", "testdata", "examples")
	r := run(t, "audit", "--format", "gitlab", "--fail-on", "never", examples)
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("not GitLab's Code Quality format:\n%v", err)
	}
	var issues []struct {
		CheckName             string `json:"check_name"`
		Fingerprint, Severity string
		Location              struct {
			Path  string
			Lines struct{ Begin int }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &issues); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []struct {
			File, Severity string
			Line           int
		}
	}
	if err := json.Unmarshal([]byte(run(t, "audit", "--format", "json", "--fail-on", "never", examples).stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(issues) != len(doc.Findings) {
		t.Fatalf("%d issues for %d findings", len(issues), len(doc.Findings))
	}
	seen := map[string]bool{}
	sev := map[string]string{"error": "major", "warning": "minor", "note": "info"}
	for i, is := range issues {
		f := doc.Findings[i]
		if seen[is.Fingerprint] {
			t.Errorf("fingerprint %s twice", is.Fingerprint)
		}
		seen[is.Fingerprint] = true
		if is.Location.Path != f.File || is.Location.Lines.Begin != f.Line || is.Severity != sev[f.Severity] {
			t.Errorf("issue %d: %s:%d %s, want %s:%d %s", i, is.Location.Path, is.Location.Lines.Begin, is.Severity, f.File, f.Line, sev[f.Severity])
		}
	}
	// No finding: an empty array, which GitLab reads as "no issues".
	if r := run(t, "audit", "--format", "gitlab", td("clean.json")); r.stdout != "[]\n" {
		t.Errorf("clean: %q", r.stdout)
	}
}

// junitDoc is the JUnit XML schema's shape (the Ant/Jenkins junit XSD):
// testsuites of testsuite elements with name and counts, testcase with
// name and classname, failure with message and type.
type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    *int     `xml:"tests,attr"`
	Failures *int     `xml:"failures,attr"`
	Suites   []struct {
		Name     *string `xml:"name,attr"`
		Tests    *int    `xml:"tests,attr"`
		Failures *int    `xml:"failures,attr"`
		Errors   *int    `xml:"errors,attr"`
		Cases    []struct {
			Name      *string `xml:"name,attr"`
			Classname *string `xml:"classname,attr"`
			Failure   *struct {
				Message *string `xml:"message,attr"`
				Type    *string `xml:"type,attr"`
				Text    string  `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestJUnitFormat: --format junit is JUnit XML with the attributes the
// schema requires: a suite per file with findings, a failed case per
// finding whose text is the concise line; a clean run is one passed case.
func TestJUnitFormat(t *testing.T) {
	examples := filepath.Join("..", "testdata", "examples")
	r := run(t, "audit", "--format", "junit", "--fail-on", "never", examples)
	if !strings.HasPrefix(r.stdout, `<?xml version="1.0" encoding="UTF-8"?>`+"\n<testsuites ") {
		t.Errorf("not an XML document of testsuites:\n%.200s", r.stdout)
	}
	var doc junitDoc
	if err := xml.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	rep := decodeReport(t, run(t, "audit", "--format", "json", "--fail-on", "never", examples).stdout)
	files := map[string]int{}
	for _, f := range rep.Findings {
		files[f.File]++
	}
	concise := strings.Split(run(t, "audit", "--format", "concise", "--fail-on", "never", examples).stdout, "\n")
	if doc.Tests == nil || *doc.Tests != len(rep.Findings) || doc.Failures == nil || *doc.Failures != len(rep.Findings) || len(doc.Suites) != len(files) {
		t.Fatalf("tests %v, failures %v, %d suites; want %d, %d, %d", doc.Tests, doc.Failures, len(doc.Suites), len(rep.Findings), len(rep.Findings), len(files))
	}
	k := 0
	for _, s := range doc.Suites {
		if s.Name == nil || s.Tests == nil || s.Failures == nil || s.Errors == nil || *s.Tests != files[*s.Name] || *s.Failures != *s.Tests {
			t.Errorf("suite %v: counts %v/%v", s.Name, s.Tests, s.Failures)
			continue
		}
		for _, c := range s.Cases {
			if c.Name == nil || c.Classname == nil || c.Failure == nil || c.Failure.Message == nil || c.Failure.Type == nil {
				t.Errorf("suite %s: a case lacks a required attribute", *s.Name)
				continue
			}
			// The concise line, without its [*] mark.
			if first, _, _ := strings.Cut(c.Failure.Text, "\n"); first != strings.Replace(concise[k], "[*] ", "", 1) {
				t.Errorf("case %d: %q, want the concise line %q", k, first, concise[k])
			}
			k++
		}
	}
	r = run(t, "audit", "--format", "junit", td("clean.json"))
	doc = junitDoc{}
	if err := xml.Unmarshal([]byte(r.stdout), &doc); err != nil || *doc.Tests != 1 || *doc.Failures != 0 || doc.Suites[0].Cases[0].Failure != nil {
		t.Errorf("clean run: %v\n%s", err, r.stdout)
	}
}
